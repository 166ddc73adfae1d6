CREATE TABLE "log_reads" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"read_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "log_reads" ADD CONSTRAINT "log_reads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The moment each user last read the activity log moves with the log; nobody's unread entries change.
INSERT INTO "log_reads" ("user_id", "read_at") SELECT "id", "logs_read_at" FROM "users" WHERE "logs_read_at" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "logs_read_at";