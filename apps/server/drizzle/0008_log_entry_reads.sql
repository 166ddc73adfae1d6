CREATE TABLE "log_entry_reads" (
	"user_id" integer NOT NULL,
	"log_entry_id" integer NOT NULL,
	CONSTRAINT "log_entry_reads_user_id_log_entry_id_pk" PRIMARY KEY("user_id","log_entry_id")
);
--> statement-breakpoint
ALTER TABLE "log_entry_reads" ADD CONSTRAINT "log_entry_reads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "log_entry_reads" ADD CONSTRAINT "log_entry_reads_log_entry_id_log_entries_id_fk" FOREIGN KEY ("log_entry_id") REFERENCES "public"."log_entries"("id") ON DELETE cascade ON UPDATE no action;