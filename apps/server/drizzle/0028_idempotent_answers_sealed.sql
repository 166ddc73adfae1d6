-- Idempotency keys are kept as their SHA-256 from now on, and answers sealed under the key itself
-- (src/modules/idempotency/sealed-answers.ts). The answers saved before were in the clear (one held
-- a webhook's secret): they are dropped, and a repeat of such a request is answered
-- request_in_progress (its outcome unknown here) rather than carried out a second time.
UPDATE "idempotent_requests" SET
  "key" = rtrim(translate(encode(sha256(convert_to("key", 'UTF8')), 'base64'), '+/', '-_'), '='),
  "status" = NULL,
  "content_type" = NULL,
  "body" = NULL;
