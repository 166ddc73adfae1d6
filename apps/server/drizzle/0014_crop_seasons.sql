CREATE TABLE "crop_seasons" (
	"id" serial PRIMARY KEY NOT NULL,
	"sprinkler_id" integer NOT NULL,
	"name" text NOT NULL,
	"polygon" text,
	"crop" jsonb NOT NULL,
	"emergence" date NOT NULL,
	"year" integer NOT NULL,
	"soil" jsonb NOT NULL,
	"depletion_fraction" double precision,
	"efficiency" double precision,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "crop_seasons_area_year_key" UNIQUE NULLS NOT DISTINCT("sprinkler_id","year","polygon")
);
--> statement-breakpoint
ALTER TABLE "crop_seasons" ADD CONSTRAINT "crop_seasons_sprinkler_id_sprinklers_id_fk" FOREIGN KEY ("sprinkler_id") REFERENCES "public"."sprinklers"("id") ON DELETE cascade ON UPDATE no action;