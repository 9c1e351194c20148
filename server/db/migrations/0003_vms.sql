-- "Contains" search on VM (and later network) names uses trigram indexes.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "configurations" (
	"id" integer PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"name" text NOT NULL,
	"cpu" integer NOT NULL,
	"ram" integer NOT NULL,
	"disk" integer NOT NULL,
	CONSTRAINT "configurations_key_unique" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "countries" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "countries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"code" text NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "countries_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "images" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "images_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"region_id" integer NOT NULL,
	"key" text NOT NULL,
	"name" text NOT NULL,
	"username" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "provider_images" (
	"provider_id" integer NOT NULL,
	"image_id" integer NOT NULL,
	CONSTRAINT "provider_images_provider_id_image_id_pk" PRIMARY KEY("provider_id","image_id")
);
--> statement-breakpoint
CREATE TABLE "provider_offers" (
	"provider_id" integer NOT NULL,
	"region_id" integer NOT NULL,
	"configuration_id" integer NOT NULL,
	CONSTRAINT "provider_offers_provider_id_region_id_configuration_id_pk" PRIMARY KEY("provider_id","region_id","configuration_id")
);
--> statement-breakpoint
CREATE TABLE "providers" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "providers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"key" text NOT NULL,
	"name" text NOT NULL,
	"driver" text NOT NULL,
	CONSTRAINT "providers_key_unique" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "regions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "regions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"key" text NOT NULL,
	"country_id" integer NOT NULL,
	"name" text NOT NULL,
	"city" text NOT NULL,
	CONSTRAINT "regions_key_unique" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "vm_size_periods" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "vm_size_periods_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"vm_id" integer NOT NULL,
	"configuration_id" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "support_messages" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "support_messages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"user_id" integer,
	"sender_name" text NOT NULL,
	"sender_email" text NOT NULL,
	"message" text NOT NULL,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operations" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "operations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"vm_id" integer,
	"kind" text NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"client_token" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"submitted_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"run_after" timestamp with time zone NOT NULL,
	"locked_by" text,
	"locked_until" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "operations_client_token_unique" UNIQUE("client_token")
);
--> statement-breakpoint
CREATE TABLE "sim_requests" (
	"client_token" text PRIMARY KEY NOT NULL,
	"action" text NOT NULL,
	"ref" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sim_servers" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sim_servers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"ref" text NOT NULL,
	"client_token" text NOT NULL,
	"name" text NOT NULL,
	"region_key" text NOT NULL,
	"image_key" text NOT NULL,
	"size_key" text NOT NULL,
	"public_key" text NOT NULL,
	"power_state" text NOT NULL,
	"task" text,
	"task_ends_at" timestamp with time zone,
	"task_size_key" text,
	"task_failure" text,
	"fault" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sim_servers_ref_unique" UNIQUE("ref"),
	CONSTRAINT "sim_servers_client_token_unique" UNIQUE("client_token")
);
--> statement-breakpoint
DROP INDEX "virtual_machines_company_team_idx";--> statement-breakpoint
ALTER TABLE "virtual_machines" ADD COLUMN "region_id" integer NOT NULL;--> statement-breakpoint
ALTER TABLE "virtual_machines" ADD COLUMN "image_id" integer NOT NULL;--> statement-breakpoint
ALTER TABLE "virtual_machines" ADD COLUMN "configuration_id" integer NOT NULL;--> statement-breakpoint
ALTER TABLE "virtual_machines" ADD COLUMN "provider_id" integer NOT NULL;--> statement-breakpoint
ALTER TABLE "virtual_machines" ADD COLUMN "status" text NOT NULL;--> statement-breakpoint
ALTER TABLE "virtual_machines" ADD COLUMN "status_message" text;--> statement-breakpoint
ALTER TABLE "virtual_machines" ADD COLUMN "username" text NOT NULL;--> statement-breakpoint
ALTER TABLE "virtual_machines" ADD COLUMN "password_secret" text NOT NULL;--> statement-breakpoint
ALTER TABLE "virtual_machines" ADD COLUMN "private_key_secret" text NOT NULL;--> statement-breakpoint
ALTER TABLE "virtual_machines" ADD COLUMN "public_key" text NOT NULL;--> statement-breakpoint
ALTER TABLE "virtual_machines" ADD COLUMN "allocate_public_ip" boolean NOT NULL;--> statement-breakpoint
ALTER TABLE "virtual_machines" ADD COLUMN "provider_ref" text;--> statement-breakpoint
ALTER TABLE "virtual_machines" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "images" ADD CONSTRAINT "images_region_id_regions_id_fk" FOREIGN KEY ("region_id") REFERENCES "public"."regions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_images" ADD CONSTRAINT "provider_images_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_images" ADD CONSTRAINT "provider_images_image_id_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."images"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_offers" ADD CONSTRAINT "provider_offers_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_offers" ADD CONSTRAINT "provider_offers_region_id_regions_id_fk" FOREIGN KEY ("region_id") REFERENCES "public"."regions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_offers" ADD CONSTRAINT "provider_offers_configuration_id_configurations_id_fk" FOREIGN KEY ("configuration_id") REFERENCES "public"."configurations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "regions" ADD CONSTRAINT "regions_country_id_countries_id_fk" FOREIGN KEY ("country_id") REFERENCES "public"."countries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vm_size_periods" ADD CONSTRAINT "vm_size_periods_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vm_size_periods" ADD CONSTRAINT "vm_size_periods_vm_id_virtual_machines_id_fk" FOREIGN KEY ("vm_id") REFERENCES "public"."virtual_machines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vm_size_periods" ADD CONSTRAINT "vm_size_periods_configuration_id_configurations_id_fk" FOREIGN KEY ("configuration_id") REFERENCES "public"."configurations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_messages" ADD CONSTRAINT "support_messages_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_messages" ADD CONSTRAINT "support_messages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operations" ADD CONSTRAINT "operations_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operations" ADD CONSTRAINT "operations_vm_id_virtual_machines_id_fk" FOREIGN KEY ("vm_id") REFERENCES "public"."virtual_machines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "images_region_key" ON "images" USING btree ("region_id","key");--> statement-breakpoint
CREATE INDEX "vm_size_periods_company_idx" ON "vm_size_periods" USING btree ("company_id","started_at");--> statement-breakpoint
CREATE INDEX "vm_size_periods_open_idx" ON "vm_size_periods" USING btree ("vm_id") WHERE "vm_size_periods"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "support_messages_user_idx" ON "support_messages" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "operations_due_idx" ON "operations" USING btree ("run_after") WHERE "operations"."status" in ('pending', 'running');--> statement-breakpoint
CREATE INDEX "operations_vm_idx" ON "operations" USING btree ("vm_id");--> statement-breakpoint
ALTER TABLE "virtual_machines" ADD CONSTRAINT "virtual_machines_region_id_regions_id_fk" FOREIGN KEY ("region_id") REFERENCES "public"."regions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "virtual_machines" ADD CONSTRAINT "virtual_machines_image_id_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."images"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "virtual_machines" ADD CONSTRAINT "virtual_machines_configuration_id_configurations_id_fk" FOREIGN KEY ("configuration_id") REFERENCES "public"."configurations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "virtual_machines" ADD CONSTRAINT "virtual_machines_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "virtual_machines_company_name_idx" ON "virtual_machines" USING btree ("company_id",lower("name"),"id") WHERE "virtual_machines"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "virtual_machines_company_created_idx" ON "virtual_machines" USING btree ("company_id","created_at","id") WHERE "virtual_machines"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "virtual_machines_company_status_idx" ON "virtual_machines" USING btree ("company_id","status","id") WHERE "virtual_machines"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "virtual_machines_company_configuration_idx" ON "virtual_machines" USING btree ("company_id","configuration_id","id") WHERE "virtual_machines"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "virtual_machines_name_trgm_idx" ON "virtual_machines" USING gin (lower("name") gin_trgm_ops) WHERE "virtual_machines"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "virtual_machines_company_team_idx" ON "virtual_machines" USING btree ("company_id","team_id") WHERE "virtual_machines"."deleted_at" is null;--> statement-breakpoint
-- Spec section 3 "VM size catalogue": CPU cores / RAM GB / disk GB. The ids are part of the API.
INSERT INTO "configurations" ("id", "key", "name", "cpu", "ram", "disk") VALUES
  (1, 'micro', 'Micro', 2, 4, 80),
  (2, 'extraSmall', 'Extra Small', 4, 8, 120),
  (3, 'small', 'Small', 6, 10, 180),
  (4, 'medium', 'Medium', 8, 12, 240),
  (5, 'large', 'Large', 12, 48, 300),
  (6, 'extraLarge', 'Extra Large', 16, 64, 400);
