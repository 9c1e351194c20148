CREATE TABLE "networks" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "networks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"region_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"network_type" text NOT NULL,
	"cidr_block" text NOT NULL,
	"gateway_ip" text,
	"snat_enabled" boolean NOT NULL,
	"dhcp_server_enabled" boolean NOT NULL,
	"dhcp_start_address" text,
	"dhcp_end_address" text,
	"default_route_enabled" boolean NOT NULL,
	"default_route" text,
	"serve_dns_servers_enabled" boolean NOT NULL,
	"dns_servers" text[] DEFAULT '{}'::text[] NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"provider_ref" text,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "public_ips" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "public_ips_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"region_id" integer NOT NULL,
	"address" text NOT NULL,
	"interface_id" integer,
	"network_id" integer,
	"status" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "public_ips_address_unique" UNIQUE("address")
);
--> statement-breakpoint
CREATE TABLE "vm_interfaces" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "vm_interfaces_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"company_id" integer NOT NULL,
	"vm_id" integer NOT NULL,
	"network_id" integer NOT NULL,
	"vmnic" integer NOT NULL,
	"private_ip" text,
	"mac_address" text NOT NULL,
	"status" text NOT NULL,
	"status_message" text,
	"port_ref" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sim_networks" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sim_networks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"ref" text NOT NULL,
	"client_token" text NOT NULL,
	"region_key" text NOT NULL,
	"spec" jsonb NOT NULL,
	"state" text NOT NULL,
	"state_ends_at" timestamp with time zone,
	"fault" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sim_networks_ref_unique" UNIQUE("ref"),
	CONSTRAINT "sim_networks_client_token_unique" UNIQUE("client_token")
);
--> statement-breakpoint
CREATE TABLE "sim_ports" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sim_ports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"ref" text NOT NULL,
	"client_token" text,
	"server_ref" text NOT NULL,
	"network_ref" text NOT NULL,
	"fixed_ip" text,
	"mac_address" text NOT NULL,
	"state" text NOT NULL,
	"state_ends_at" timestamp with time zone,
	"public_ip" text,
	"ip_task_ends_at" timestamp with time zone,
	"ip_task_target" text,
	"task_failure" text,
	"fault" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sim_ports_ref_unique" UNIQUE("ref"),
	CONSTRAINT "sim_ports_client_token_unique" UNIQUE("client_token")
);
--> statement-breakpoint
ALTER TABLE "operations" ADD COLUMN "network_id" integer;--> statement-breakpoint
ALTER TABLE "networks" ADD CONSTRAINT "networks_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "networks" ADD CONSTRAINT "networks_region_id_regions_id_fk" FOREIGN KEY ("region_id") REFERENCES "public"."regions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public_ips" ADD CONSTRAINT "public_ips_region_id_regions_id_fk" FOREIGN KEY ("region_id") REFERENCES "public"."regions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public_ips" ADD CONSTRAINT "public_ips_interface_id_vm_interfaces_id_fk" FOREIGN KEY ("interface_id") REFERENCES "public"."vm_interfaces"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "public_ips" ADD CONSTRAINT "public_ips_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vm_interfaces" ADD CONSTRAINT "vm_interfaces_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vm_interfaces" ADD CONSTRAINT "vm_interfaces_vm_id_virtual_machines_id_fk" FOREIGN KEY ("vm_id") REFERENCES "public"."virtual_machines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vm_interfaces" ADD CONSTRAINT "vm_interfaces_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "networks_company_name_idx" ON "networks" USING btree ("company_id",lower("name"),"id") WHERE "networks"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "networks_company_region_idx" ON "networks" USING btree ("company_id","region_id") WHERE "networks"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "networks_default_key" ON "networks" USING btree ("company_id","region_id") WHERE "networks"."is_default" and "networks"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "public_ips_interface_key" ON "public_ips" USING btree ("interface_id");--> statement-breakpoint
CREATE UNIQUE INDEX "public_ips_network_key" ON "public_ips" USING btree ("network_id");--> statement-breakpoint
CREATE INDEX "public_ips_free_idx" ON "public_ips" USING btree ("region_id","id") WHERE "public_ips"."interface_id" is null and "public_ips"."network_id" is null and "public_ips"."status" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "vm_interfaces_vm_vmnic_key" ON "vm_interfaces" USING btree ("vm_id","vmnic");--> statement-breakpoint
CREATE UNIQUE INDEX "vm_interfaces_vm_network_key" ON "vm_interfaces" USING btree ("vm_id","network_id");--> statement-breakpoint
CREATE UNIQUE INDEX "vm_interfaces_network_ip_key" ON "vm_interfaces" USING btree ("network_id","private_ip");--> statement-breakpoint
CREATE UNIQUE INDEX "vm_interfaces_mac_key" ON "vm_interfaces" USING btree ("mac_address");--> statement-breakpoint
ALTER TABLE "operations" ADD CONSTRAINT "operations_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "operations_network_idx" ON "operations" USING btree ("network_id");