CREATE TABLE "job_runs" (
	"job" text PRIMARY KEY NOT NULL,
	"ran_at" timestamp (3) with time zone NOT NULL
);
