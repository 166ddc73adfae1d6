ALTER TABLE "sprinklers" ADD COLUMN "revision" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- A machine's revision counts the changes to what its detail shows besides the live state
-- (docs/architecture.md, "The machine detail"): raised here, in the transaction of the change,
-- so that no code path and no other server instance can change the detail without it.
CREATE FUNCTION "raise_sprinkler_revision"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'users' THEN
    UPDATE "sprinklers" SET "revision" = "revision" + 1
      WHERE "id" IN (SELECT "sprinkler_id" FROM "sprinkler_access" WHERE "user_id" = NEW."id");
  ELSE
    IF TG_OP <> 'INSERT' THEN
      UPDATE "sprinklers" SET "revision" = "revision" + 1 WHERE "id" = OLD."sprinkler_id";
    END IF;
    IF TG_OP <> 'DELETE' THEN
      UPDATE "sprinklers" SET "revision" = "revision" + 1 WHERE "id" = NEW."sprinkler_id";
    END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "raise_own_revision"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."revision" := OLD."revision" + 1;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "sprinklers_revision" BEFORE UPDATE ON "sprinklers"
  FOR EACH ROW WHEN (NEW."revision" = OLD."revision") EXECUTE FUNCTION "raise_own_revision"();
--> statement-breakpoint
CREATE TRIGGER "programs_revision" AFTER INSERT OR UPDATE OR DELETE ON "programs"
  FOR EACH ROW EXECUTE FUNCTION "raise_sprinkler_revision"();
--> statement-breakpoint
CREATE TRIGGER "sprinkler_access_revision" AFTER INSERT OR UPDATE OR DELETE ON "sprinkler_access"
  FOR EACH ROW EXECUTE FUNCTION "raise_sprinkler_revision"();
--> statement-breakpoint
CREATE TRIGGER "users_revision" AFTER UPDATE ON "users"
  FOR EACH ROW WHEN ((OLD."first_name", OLD."last_name", OLD."email") IS DISTINCT FROM (NEW."first_name", NEW."last_name", NEW."email"))
  EXECUTE FUNCTION "raise_sprinkler_revision"();
