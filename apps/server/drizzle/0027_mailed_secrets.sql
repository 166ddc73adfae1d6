ALTER TABLE "link_tokens" ALTER COLUMN "token_hash" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "secret_issuer" text;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "secret_for" integer;--> statement-breakpoint
-- Mails queued before held their link's token in their text and HTML (docs/decisions/0006-mailed-secrets.md).
-- A mail still to send whose link is still wanted is found by its token's hash and will get a new token as it is sent.
WITH "queued" AS (
  SELECT "id", (regexp_match("text", '/(?:activation|set-password)/[0-9]+/([A-Za-z0-9_-]{43})'))[1] AS "token"
  FROM "mail_outbox" WHERE "status" = 'pending'
)
UPDATE "mail_outbox" SET "secret_issuer" = 'account-link', "secret_for" = "link_tokens"."id"
FROM "queued", "link_tokens"
WHERE "queued"."id" = "mail_outbox"."id" AND "link_tokens"."used_at" IS NULL
  AND "link_tokens"."token_hash" = rtrim(translate(encode(sha256(convert_to("queued"."token", 'UTF8')), 'base64'), '+/', '-_'), '=');--> statement-breakpoint
-- No stored mail keeps a token: each is replaced by the placeholder the outbox fills as it sends.
UPDATE "mail_outbox" SET
  "text" = regexp_replace("text", '(/(?:activation|set-password)/[0-9]+/)[A-Za-z0-9_-]{43}', '\1{{secret}}', 'g'),
  "html" = regexp_replace("html", '(/(?:activation|set-password)/[0-9]+/)[A-Za-z0-9_-]{43}', '\1{{secret}}', 'g')
WHERE "text" ~ '/(?:activation|set-password)/[0-9]+/[A-Za-z0-9_-]{43}';--> statement-breakpoint
-- A mail still to send whose link was used or replaced meanwhile would carry a dead link: it is not sent.
UPDATE "mail_outbox" SET "status" = 'cancelled', "last_error" = 'its link was replaced by a newer one, used, or its account removed'
WHERE "status" = 'pending' AND "secret_issuer" IS NULL AND "text" LIKE '%{{secret}}%';
