-- A reseller suspends and resumes its customers: the company's state, and the VMs the suspension
-- stopped, to start again on resume.
CREATE TABLE "suspended_vms" (
	"vm_id" integer PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"stopped_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "suspended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "suspended_vms" ADD CONSTRAINT "suspended_vms_vm_id_virtual_machines_id_fk" FOREIGN KEY ("vm_id") REFERENCES "public"."virtual_machines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "suspended_vms" ADD CONSTRAINT "suspended_vms_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "suspended_vms_company_idx" ON "suspended_vms" USING btree ("company_id");