-- The reseller's Customers list sorts companies by name in natural order (decision 0017) and by
-- creation, within one reseller: a kept key and an index for each, ending with the id.
ALTER TABLE "companies" ADD COLUMN "name_key" text COLLATE "C" GENERATED ALWAYS AS (natural_sort_key("companies"."name")) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "companies_reseller_name_idx" ON "companies" USING btree ("reseller_id","name_key","id");--> statement-breakpoint
CREATE INDEX "companies_reseller_created_idx" ON "companies" USING btree ("reseller_id","created_at","id");