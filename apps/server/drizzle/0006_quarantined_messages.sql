CREATE TABLE "quarantined_messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"received_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"machine_id" text NOT NULL,
	"device_id" text NOT NULL,
	"topic" text NOT NULL,
	"kind" text NOT NULL,
	"reason" text NOT NULL,
	"detail" text NOT NULL,
	"payload_head" "bytea" NOT NULL,
	"payload_bytes" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "quarantined_messages_received_at_idx" ON "quarantined_messages" USING btree ("received_at");