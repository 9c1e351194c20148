-- A reseller's business: its domains and primary colour, customers' webhooks, and the history
-- that usage for billing counts (when each VM ran, when each public address was held).
CREATE TABLE "reseller_domains" (
	"host" text PRIMARY KEY NOT NULL,
	"reseller_id" integer NOT NULL,
	"source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vm_run_periods" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "vm_run_periods_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"vm_id" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "public_ip_periods" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "public_ip_periods_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"region_id" integer NOT NULL,
	"address" text NOT NULL,
	"vm_id" integer,
	"network_id" integer,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "resellers" ADD COLUMN "primary_color" text;--> statement-breakpoint
ALTER TABLE "webhook_subscriptions" ADD COLUMN "scope" text DEFAULT 'company' NOT NULL;--> statement-breakpoint
ALTER TABLE "reseller_domains" ADD CONSTRAINT "reseller_domains_reseller_id_resellers_id_fk" FOREIGN KEY ("reseller_id") REFERENCES "public"."resellers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vm_run_periods" ADD CONSTRAINT "vm_run_periods_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vm_run_periods" ADD CONSTRAINT "vm_run_periods_vm_id_virtual_machines_id_fk" FOREIGN KEY ("vm_id") REFERENCES "public"."virtual_machines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public_ip_periods" ADD CONSTRAINT "public_ip_periods_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public_ip_periods" ADD CONSTRAINT "public_ip_periods_region_id_regions_id_fk" FOREIGN KEY ("region_id") REFERENCES "public"."regions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public_ip_periods" ADD CONSTRAINT "public_ip_periods_vm_id_virtual_machines_id_fk" FOREIGN KEY ("vm_id") REFERENCES "public"."virtual_machines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public_ip_periods" ADD CONSTRAINT "public_ip_periods_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reseller_domains_reseller_idx" ON "reseller_domains" USING btree ("reseller_id");--> statement-breakpoint
CREATE INDEX "vm_run_periods_company_idx" ON "vm_run_periods" USING btree ("company_id","started_at");--> statement-breakpoint
CREATE INDEX "vm_run_periods_open_idx" ON "vm_run_periods" USING btree ("vm_id") WHERE "vm_run_periods"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "public_ip_periods_company_idx" ON "public_ip_periods" USING btree ("company_id","started_at");--> statement-breakpoint
CREATE INDEX "public_ip_periods_open_idx" ON "public_ip_periods" USING btree ("address") WHERE "public_ip_periods"."ended_at" is null;--> statement-breakpoint
-- What runs and is held now opens its period: a running VM since its last change, an address
-- since its allocation (history before this migration was not kept).
INSERT INTO "vm_run_periods" ("company_id", "vm_id", "started_at")
  SELECT "company_id", "id", "updated_at" FROM "virtual_machines"
  WHERE "status" = 'Running' AND "deleted_at" IS NULL;--> statement-breakpoint
INSERT INTO "public_ip_periods" ("company_id", "region_id", "address", "vm_id", "network_id", "started_at")
  SELECT p."company_id", p."region_id", p."address", i."vm_id", p."network_id", p."created_at"
  FROM "public_ips" p LEFT JOIN "vm_interfaces" i ON i."id" = p."interface_id";
