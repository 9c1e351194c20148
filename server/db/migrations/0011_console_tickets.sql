CREATE TABLE "used_console_tickets" (
	"nonce_hash" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "used_console_tickets_expires_idx" ON "used_console_tickets" USING btree ("expires_at");