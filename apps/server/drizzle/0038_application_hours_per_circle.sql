ALTER TABLE "application_depths" ALTER COLUMN "depth_at_full_speed" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "application_depths" ADD COLUMN "hours_per_circle" double precision;