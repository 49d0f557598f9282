DROP INDEX "ledger_entries_org_idempotency_key";--> statement-breakpoint
ALTER TABLE "gateway_events" ADD COLUMN "outcome" text;--> statement-breakpoint
ALTER TABLE "gateway_events" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "leased_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "idempotency_caller" text;--> statement-breakpoint
-- The charges made so far were keyed by the member who sent them: their replays still find them.
-- The ledger's append-only trigger is set aside for this one backfill of the new column.
ALTER TABLE "ledger_entries" DISABLE TRIGGER "ledger_entries_no_update";--> statement-breakpoint
UPDATE "ledger_entries" SET "idempotency_caller" = 'user:' || "created_by"::text WHERE "idempotency_key" IS NOT NULL AND "created_by" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_entries" ENABLE TRIGGER "ledger_entries_no_update";--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_org_caller_idempotency_key" ON "ledger_entries" USING btree ("organization_id","idempotency_caller","idempotency_key") WHERE "ledger_entries"."idempotency_key" is not null;