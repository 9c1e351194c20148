-- The history usage for billing counts snapshots from: when each was held, and its size.
CREATE TABLE "snapshot_periods" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "snapshot_periods_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"vm_id" integer NOT NULL,
	"snapshot_id" integer NOT NULL,
	"size_bytes" bigint NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "snapshot_periods" ADD CONSTRAINT "snapshot_periods_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "snapshot_periods" ADD CONSTRAINT "snapshot_periods_vm_id_virtual_machines_id_fk" FOREIGN KEY ("vm_id") REFERENCES "public"."virtual_machines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "snapshot_periods" ADD CONSTRAINT "snapshot_periods_snapshot_id_vm_snapshots_id_fk" FOREIGN KEY ("snapshot_id") REFERENCES "public"."vm_snapshots"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "snapshot_periods_company_idx" ON "snapshot_periods" USING btree ("company_id","started_at");--> statement-breakpoint
CREATE INDEX "snapshot_periods_open_idx" ON "snapshot_periods" USING btree ("snapshot_id") WHERE "snapshot_periods"."ended_at" is null;--> statement-breakpoint
-- What is held now opens its period from the snapshot's creation (history before this migration
-- was not kept): every snapshot not deleted that became available (it has a size, or it is
-- available or being restored); a failed take has neither.
INSERT INTO "snapshot_periods" ("company_id", "vm_id", "snapshot_id", "size_bytes", "started_at")
  SELECT "company_id", "vm_id", "id", coalesce("size_bytes", 0), "created_at" FROM "vm_snapshots"
  WHERE "deleted_at" IS NULL
    AND ("size_bytes" IS NOT NULL OR "status" IN ('available', 'restoring'));
