-- Natural order for names on every list (`web-2` before `web-10`), the same on PostgreSQL and
-- PGlite: a sort key kept beside each name, compared byte by byte (COLLATE "C"), with an index
-- for each list's order. Why a key of our own rather than an ICU collation with numeric ordering:
-- docs/decisions/0017-natural-order-by-a-stored-key.md.
--
-- The key is the name lower-cased, as the lists compared names before, with each run of digits
-- written as its length in unary and then its digits: n significant digits become n nines, a zero
-- and the digits ('web-2' -> 'web-902', 'web-10' -> 'web-99010'). A longer number is greater
-- whatever its length, numbers of the same length compare digit by digit, and a run still begins
-- with a digit, so that it sorts against the other characters as a digit did. Leading zeros are
-- dropped: 'a01' and 'a1' have the same key, and the id breaks the tie as it does for 'Web-2' and
-- 'web-2'. The first regexp writes each run twice around a 'Z' (lower() leaves no 'Z' behind);
-- the second turns the digits before a 'Z' into nines. A single expression, so that it is inlined;
-- E'' so that the back-references mean the same whatever standard_conforming_strings says.
CREATE FUNCTION natural_sort_key(name text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN name ~ '[0-9]' THEN
    replace(
      regexp_replace(
        regexp_replace(lower(name), '0*([1-9][0-9]*|0)', E'\\1Z\\1', 'g'),
        '[0-9](?=[0-9]*Z)', '9', 'g'),
      'Z', '0')
  ELSE lower(name) END
$$;
--> statement-breakpoint
DROP INDEX "users_company_name_idx";--> statement-breakpoint
DROP INDEX "virtual_machines_company_name_idx";--> statement-breakpoint
DROP INDEX "networks_company_name_idx";--> statement-breakpoint
-- One statement a table: each rewrites the table once.
ALTER TABLE "teams" ADD COLUMN "name_key" text COLLATE "C" GENERATED ALWAYS AS (natural_sort_key("teams"."name")) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "first_name_key" text COLLATE "C" GENERATED ALWAYS AS (natural_sort_key("users"."first_name")) STORED NOT NULL,
  ADD COLUMN "last_name_key" text COLLATE "C" GENERATED ALWAYS AS (natural_sort_key("users"."last_name")) STORED NOT NULL,
  ADD COLUMN "name_key" text COLLATE "C" GENERATED ALWAYS AS (natural_sort_key(coalesce(nullif(trim("users"."first_name" || ' ' || "users"."last_name"), ''), "users"."email"))) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "virtual_machines" ADD COLUMN "name_key" text COLLATE "C" GENERATED ALWAYS AS (natural_sort_key("virtual_machines"."name")) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "networks" ADD COLUMN "name_key" text COLLATE "C" GENERATED ALWAYS AS (natural_sort_key("networks"."name")) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "teams_company_name_idx" ON "teams" USING btree ("company_id","name_key","id");--> statement-breakpoint
CREATE INDEX "users_company_name_idx" ON "users" USING btree ("company_id","first_name_key","last_name_key","id");--> statement-breakpoint
CREATE INDEX "virtual_machines_company_name_idx" ON "virtual_machines" USING btree ("company_id","name_key","id") WHERE "virtual_machines"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "networks_company_name_idx" ON "networks" USING btree ("company_id","name_key","id") WHERE "networks"."deleted_at" is null;
