CREATE TABLE "lv_networks" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lv_networks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"ref" text NOT NULL,
	"client_token" text NOT NULL,
	"region_key" text NOT NULL,
	"spec" jsonb NOT NULL,
	"deleted" boolean DEFAULT false NOT NULL,
	"fault" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lv_networks_ref_unique" UNIQUE("ref"),
	CONSTRAINT "lv_networks_client_token_unique" UNIQUE("client_token")
);
--> statement-breakpoint
CREATE TABLE "lv_ports" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lv_ports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"ref" text NOT NULL,
	"client_token" text,
	"server_ref" text NOT NULL,
	"network_id" integer NOT NULL,
	"network_ref" text NOT NULL,
	"fixed_ip" text,
	"mac_address" text NOT NULL,
	"public_ip" text,
	"fault" text,
	"deleted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lv_ports_ref_unique" UNIQUE("ref"),
	CONSTRAINT "lv_ports_client_token_unique" UNIQUE("client_token")
);
--> statement-breakpoint
CREATE TABLE "lv_requests" (
	"client_token" text PRIMARY KEY NOT NULL,
	"action" text NOT NULL,
	"ref" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lv_servers" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lv_servers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"ref" text NOT NULL,
	"client_token" text NOT NULL,
	"host_key" text NOT NULL,
	"domain" text NOT NULL,
	"name" text NOT NULL,
	"region_key" text NOT NULL,
	"image_key" text NOT NULL,
	"size_key" text NOT NULL,
	"task" text,
	"phase" text,
	"task_started_at" timestamp with time zone,
	"task_size_key" text,
	"task_resume" boolean DEFAULT false NOT NULL,
	"fault" text,
	"deleted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lv_servers_ref_unique" UNIQUE("ref"),
	CONSTRAINT "lv_servers_client_token_unique" UNIQUE("client_token")
);
