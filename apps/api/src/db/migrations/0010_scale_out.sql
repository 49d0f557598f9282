CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"hits" integer NOT NULL,
	"reset_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "rate_limits_reset_idx" ON "rate_limits" USING btree ("reset_at");--> statement-breakpoint
-- Counters need no crash safety: no write-ahead log for them (a crash empties the table).
ALTER TABLE "rate_limits" SET UNLOGGED;--> statement-breakpoint
-- Every change of a session or a user is announced on portolan_auth ('s:<session id>' or
-- 'u:<user id>'), whatever code made it: each instance drops what its session cache holds of it
-- (modules/auth/session-cache.ts). Sent at commit, so a cache never reloads the old row.
CREATE FUNCTION portolan_notify_session() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('portolan_auth', 's:' || OLD.id);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION portolan_notify_user() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('portolan_auth', 'u:' || OLD.id);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER sessions_notify AFTER UPDATE OR DELETE ON "sessions"
  FOR EACH ROW EXECUTE FUNCTION portolan_notify_session();--> statement-breakpoint
CREATE TRIGGER users_notify AFTER UPDATE OR DELETE ON "users"
  FOR EACH ROW EXECUTE FUNCTION portolan_notify_user();--> statement-breakpoint
-- A queued e-mail wakes the outbox workers of every instance (lib/mail/outbox.ts): once per
-- statement, and PostgreSQL folds identical notifications of one transaction into one.
CREATE FUNCTION portolan_notify_outbox() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('portolan_outbox', '');
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER mail_outbox_notify AFTER INSERT ON "mail_outbox"
  FOR EACH STATEMENT EXECUTE FUNCTION portolan_notify_outbox();
