CREATE TABLE "farm_machines" (
	"sprinkler_id" integer PRIMARY KEY NOT NULL,
	"farm_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "farm_members" (
	"farm_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"role" text NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "farm_members_farm_id_user_id_pk" PRIMARY KEY("farm_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "farms" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "log_entries" ADD COLUMN "farm_id" integer;--> statement-breakpoint
ALTER TABLE "log_entries" ADD COLUMN "farm_name" text;--> statement-breakpoint
ALTER TABLE "farm_machines" ADD CONSTRAINT "farm_machines_sprinkler_id_sprinklers_id_fk" FOREIGN KEY ("sprinkler_id") REFERENCES "public"."sprinklers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "farm_machines" ADD CONSTRAINT "farm_machines_farm_id_farms_id_fk" FOREIGN KEY ("farm_id") REFERENCES "public"."farms"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "farm_members" ADD CONSTRAINT "farm_members_farm_id_farms_id_fk" FOREIGN KEY ("farm_id") REFERENCES "public"."farms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "farm_members" ADD CONSTRAINT "farm_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "farm_machines_farm_idx" ON "farm_machines" USING btree ("farm_id");--> statement-breakpoint
CREATE INDEX "farm_members_user_idx" ON "farm_members" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "farms_name_idx" ON "farms" USING btree ("name");--> statement-breakpoint
ALTER TABLE "log_entries" ADD CONSTRAINT "log_entries_farm_id_farms_id_fk" FOREIGN KEY ("farm_id") REFERENCES "public"."farms"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "log_entries_farm_idx" ON "log_entries" USING btree ("farm_id");--> statement-breakpoint
-- An install with machines or people becomes one farm (docs/roles.md), named after the first
-- administrator's company: every machine in it, its administrators its owners, and everyone
-- granted a machine a member, every grant kept.
INSERT INTO "farms" ("name")
SELECT coalesce(nullif(trim((SELECT "company" FROM "users" WHERE "admin" ORDER BY "id" LIMIT 1)), ''), 'Farm')
WHERE EXISTS (SELECT 1 FROM "sprinklers") OR EXISTS (SELECT 1 FROM "sprinkler_access");--> statement-breakpoint
INSERT INTO "farm_machines" ("sprinkler_id", "farm_id")
SELECT "sprinklers"."id", "farms"."id" FROM "sprinklers" CROSS JOIN "farms";--> statement-breakpoint
INSERT INTO "farm_members" ("farm_id", "user_id", "role")
SELECT "farms"."id", "users"."id", 'owner' FROM "users" CROSS JOIN "farms" WHERE "users"."admin";--> statement-breakpoint
INSERT INTO "farm_members" ("farm_id", "user_id", "role")
SELECT DISTINCT "farms"."id", "sprinkler_access"."user_id", 'member'
FROM "sprinkler_access" CROSS JOIN "farms"
ON CONFLICT DO NOTHING;
