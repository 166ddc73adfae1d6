CREATE TABLE "application_depths" (
	"sprinkler_id" integer PRIMARY KEY NOT NULL,
	"depth_at_full_speed" double precision NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "water_cell_years" ADD COLUMN "revision" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "application_depths" ADD CONSTRAINT "application_depths_sprinkler_id_sprinklers_id_fk" FOREIGN KEY ("sprinkler_id") REFERENCES "public"."sprinklers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "water_cell_years_revision_idx" ON "water_cell_years" USING btree ("machine_id","revision");