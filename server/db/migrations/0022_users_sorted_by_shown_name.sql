-- The Users list sorts by the name it shows (an invited user's address until they give theirs), not by
-- first and last name, which put every invited user first: one key, its index, the two old keys gone.
DROP INDEX "users_company_name_idx";--> statement-breakpoint
CREATE INDEX "users_company_name_idx" ON "users" USING btree ("company_id","name_key","id");--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "first_name_key";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "last_name_key";