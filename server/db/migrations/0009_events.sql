CREATE TABLE "events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"seq" bigint,
	"company_id" integer NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"actor_type" text NOT NULL,
	"actor_id" integer,
	"actor_name" text NOT NULL,
	"subject_type" text NOT NULL,
	"subject_id" integer NOT NULL,
	"subject_name" text NOT NULL,
	"action" text NOT NULL,
	"outcome" text NOT NULL,
	"team_id" integer,
	"network_id" integer,
	"operation_id" integer,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "operations" ADD COLUMN "requested_by" jsonb;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "events_seq_idx" ON "events" USING btree ("seq");--> statement-breakpoint
CREATE INDEX "events_company_idx" ON "events" USING btree ("company_id","seq");--> statement-breakpoint
CREATE INDEX "events_subject_idx" ON "events" USING btree ("company_id","subject_type","subject_id","seq");--> statement-breakpoint
CREATE INDEX "events_network_idx" ON "events" USING btree ("company_id","network_id","seq") WHERE "events"."network_id" is not null;--> statement-breakpoint
CREATE INDEX "events_team_idx" ON "events" USING btree ("company_id","team_id","seq") WHERE "events"."team_id" is not null;--> statement-breakpoint
-- An event's seq, the id clients see, is given when its transaction commits (a deferred trigger
-- runs at COMMIT, after every other write of the transaction), under the company's advisory lock
-- held until the commit ends: a company's events are numbered in commit order, so a stream that
-- resumes after one never misses an event committed later with a smaller number. Every server
-- process hears of it (LISTEN launchpad_events; the payload is the company's id; one per commit).
CREATE SEQUENCE "events_commit_seq";--> statement-breakpoint
CREATE FUNCTION events_commit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(1702260340, NEW.company_id);
  UPDATE events SET seq = nextval('events_commit_seq') WHERE id = NEW.id;
  PERFORM pg_notify('launchpad_events', NEW.company_id::text);
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER events_commit AFTER INSERT ON events
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION events_commit();
--> statement-breakpoint
-- A revoked or removed session's event streams close at once in every process.
CREATE FUNCTION sessions_ended_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('launchpad_sessions', OLD.id::text);
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER sessions_revoked AFTER UPDATE OF revoked_at ON sessions
  FOR EACH ROW WHEN (OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL)
  EXECUTE FUNCTION sessions_ended_notify();--> statement-breakpoint
CREATE TRIGGER sessions_deleted AFTER DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION sessions_ended_notify();
