ALTER TABLE "idempotent_requests" ADD COLUMN "claimed_by_server" text;--> statement-breakpoint
ALTER TABLE "idempotent_requests" ADD COLUMN "claimed_by_run" text;