-- The name index carries the name itself, so that the VM list's default order (lower(name)) is
-- read from the index alone (an index-only scan), as the other sorts are. Drizzle's index builder
-- has no INCLUDE: vm-schema.ts declares the index without it.
DROP INDEX "virtual_machines_company_name_idx";--> statement-breakpoint
CREATE INDEX "virtual_machines_company_name_idx" ON "virtual_machines" USING btree ("company_id", lower("name"), "id") INCLUDE ("name") WHERE "virtual_machines"."deleted_at" is null;
