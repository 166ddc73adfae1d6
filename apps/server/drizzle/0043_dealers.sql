CREATE TABLE "dealer_grant_machines" (
	"grant_id" integer NOT NULL,
	"sprinkler_id" integer NOT NULL,
	CONSTRAINT "dealer_grant_machines_grant_id_sprinkler_id_pk" PRIMARY KEY("grant_id","sprinkler_id")
);
--> statement-breakpoint
CREATE TABLE "dealer_grants" (
	"id" serial PRIMARY KEY NOT NULL,
	"farm_id" integer NOT NULL,
	"dealer_id" integer NOT NULL,
	"level" text NOT NULL,
	"all_machines" boolean NOT NULL,
	"expires_at" timestamp with time zone,
	"granted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dealer_members" (
	"dealer_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dealer_members_dealer_id_user_id_pk" PRIMARY KEY("dealer_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "dealers" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dealer_grant_machines" ADD CONSTRAINT "dealer_grant_machines_grant_id_dealer_grants_id_fk" FOREIGN KEY ("grant_id") REFERENCES "public"."dealer_grants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dealer_grant_machines" ADD CONSTRAINT "dealer_grant_machines_sprinkler_id_sprinklers_id_fk" FOREIGN KEY ("sprinkler_id") REFERENCES "public"."sprinklers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dealer_grants" ADD CONSTRAINT "dealer_grants_farm_id_farms_id_fk" FOREIGN KEY ("farm_id") REFERENCES "public"."farms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dealer_grants" ADD CONSTRAINT "dealer_grants_dealer_id_dealers_id_fk" FOREIGN KEY ("dealer_id") REFERENCES "public"."dealers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dealer_members" ADD CONSTRAINT "dealer_members_dealer_id_dealers_id_fk" FOREIGN KEY ("dealer_id") REFERENCES "public"."dealers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dealer_members" ADD CONSTRAINT "dealer_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "dealer_grants_farm_dealer_idx" ON "dealer_grants" USING btree ("farm_id","dealer_id");--> statement-breakpoint
CREATE INDEX "dealer_grants_dealer_idx" ON "dealer_grants" USING btree ("dealer_id");--> statement-breakpoint
CREATE INDEX "dealer_members_user_idx" ON "dealer_members" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "dealers_name_idx" ON "dealers" USING btree ("name");