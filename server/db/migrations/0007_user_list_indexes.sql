CREATE INDEX "users_company_name_idx" ON "users" USING btree ("company_id",lower("first_name"),lower("last_name"),"id");--> statement-breakpoint
CREATE INDEX "users_company_email_idx" ON "users" USING btree ("company_id","email","id");--> statement-breakpoint
CREATE INDEX "users_company_created_idx" ON "users" USING btree ("company_id","created_at","id");