-- Every statement that changes who belongs where (organizations, workspaces, their modules and
-- memberships) is announced on portolan_tenancy with the table's name: each instance drops the
-- lists it keeps of them (lib/change-cache.ts). Once per statement, and PostgreSQL folds the
-- identical notifications of one transaction into one.
CREATE FUNCTION portolan_notify_tenancy() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('portolan_tenancy', TG_TABLE_NAME);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER organizations_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "organizations"
  FOR EACH STATEMENT EXECUTE FUNCTION portolan_notify_tenancy();--> statement-breakpoint
CREATE TRIGGER clients_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "clients"
  FOR EACH STATEMENT EXECUTE FUNCTION portolan_notify_tenancy();--> statement-breakpoint
CREATE TRIGGER client_modules_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "client_modules"
  FOR EACH STATEMENT EXECUTE FUNCTION portolan_notify_tenancy();--> statement-breakpoint
CREATE TRIGGER organization_members_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "organization_members"
  FOR EACH STATEMENT EXECUTE FUNCTION portolan_notify_tenancy();--> statement-breakpoint
CREATE TRIGGER client_members_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "client_members"
  FOR EACH STATEMENT EXECUTE FUNCTION portolan_notify_tenancy();--> statement-breakpoint
-- Every change of a notification is announced to its recipient's bells on the channel the bell's
-- stream already listens to (modules/notifications/create.ts announces its own changes the same
-- way; within a transaction the two fold into one), and drops the cached unseen count.
CREATE FUNCTION portolan_notify_recipient() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('portolan_notifications', OLD.recipient_id::text);
  ELSE
    PERFORM pg_notify('portolan_notifications', NEW.recipient_id::text);
    IF TG_OP = 'UPDATE' AND NEW.recipient_id IS DISTINCT FROM OLD.recipient_id THEN
      PERFORM pg_notify('portolan_notifications', OLD.recipient_id::text);
    END IF;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER notifications_notify AFTER INSERT OR UPDATE OR DELETE ON "notifications"
  FOR EACH ROW EXECUTE FUNCTION portolan_notify_recipient();
