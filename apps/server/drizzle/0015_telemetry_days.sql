CREATE TABLE "telemetry_days" (
	"machine_id" text NOT NULL,
	"day" date NOT NULL,
	"packed" "bytea" NOT NULL,
	"report_count" integer NOT NULL,
	"first_ts" timestamp (3) with time zone NOT NULL,
	"last_ts" timestamp (3) with time zone NOT NULL,
	"packed_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "telemetry_days_machine_id_day_pk" PRIMARY KEY("machine_id","day")
);
