-- Limits per company (set by its reseller) and per reseller (set by the operator's import), per
-- region or in all regions (a null region, read as 0 by the unique indexes).
CREATE TABLE "company_limits" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "company_limits_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"resource" text NOT NULL,
	"region_id" integer,
	"max" integer NOT NULL,
	CONSTRAINT "company_limits_max" CHECK ("company_limits"."max" >= 0)
);
--> statement-breakpoint
CREATE TABLE "reseller_limits" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "reseller_limits_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"reseller_id" integer NOT NULL,
	"resource" text NOT NULL,
	"region_id" integer,
	"max" integer NOT NULL,
	CONSTRAINT "reseller_limits_max" CHECK ("reseller_limits"."max" >= 0)
);
--> statement-breakpoint
ALTER TABLE "company_limits" ADD CONSTRAINT "company_limits_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_limits" ADD CONSTRAINT "company_limits_region_id_regions_id_fk" FOREIGN KEY ("region_id") REFERENCES "public"."regions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reseller_limits" ADD CONSTRAINT "reseller_limits_reseller_id_resellers_id_fk" FOREIGN KEY ("reseller_id") REFERENCES "public"."resellers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reseller_limits" ADD CONSTRAINT "reseller_limits_region_id_regions_id_fk" FOREIGN KEY ("region_id") REFERENCES "public"."regions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "company_limits_key" ON "company_limits" USING btree ("company_id","resource",coalesce("region_id", 0));--> statement-breakpoint
CREATE UNIQUE INDEX "reseller_limits_key" ON "reseller_limits" USING btree ("reseller_id","resource",coalesce("region_id", 0));