CREATE TABLE "balance_services" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"app_profile" text NOT NULL,
	"key" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"unit" text NOT NULL,
	"unit_price" integer NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"included_in" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_accounts" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"available_balance" integer DEFAULT 0 NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"next_invoice_number" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billing_accounts_balance_not_negative" CHECK ("billing_accounts"."available_balance" >= 0)
);
--> statement-breakpoint
CREATE TABLE "fund_packages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"price" integer NOT NULL,
	"credit" integer NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"type" text NOT NULL,
	"amount" integer NOT NULL,
	"balance_after" integer NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"description" text NOT NULL,
	"reference" text DEFAULT '' NOT NULL,
	"service_id" uuid,
	"quantity" integer,
	"unit_price" integer,
	"source" text NOT NULL,
	"created_by" uuid,
	"idempotency_key" text,
	"request_fingerprint" text,
	"checkout_id" uuid,
	"invoice_id" uuid,
	"refund_of" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_entries_amount_not_zero" CHECK ("ledger_entries"."amount" <> 0),
	CONSTRAINT "ledger_entries_balance_after_not_negative" CHECK ("ledger_entries"."balance_after" >= 0)
);
--> statement-breakpoint
ALTER TABLE "checkouts" ADD COLUMN "fund_package_id" uuid;--> statement-breakpoint
ALTER TABLE "checkouts" ADD COLUMN "credit" integer;--> statement-breakpoint
ALTER TABLE "checkouts" ADD COLUMN "description" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "number" integer;--> statement-breakpoint
-- The invoices of Billing I get their organization's numbers in the order they were made.
UPDATE "invoices" i SET "number" = n."number"
FROM (SELECT "id", row_number() OVER (PARTITION BY "organization_id" ORDER BY "created_at", "id") AS "number" FROM "invoices") n
WHERE i."id" = n."id";--> statement-breakpoint
ALTER TABLE "invoices" ALTER COLUMN "number" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_accounts" ADD CONSTRAINT "billing_accounts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_service_id_balance_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."balance_services"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_checkout_id_checkouts_id_fk" FOREIGN KEY ("checkout_id") REFERENCES "public"."checkouts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_refund_of_ledger_entries_id_fk" FOREIGN KEY ("refund_of") REFERENCES "public"."ledger_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "balance_services_app_key" ON "balance_services" USING btree ("app_profile","key");--> statement-breakpoint
CREATE INDEX "ledger_entries_org_created_idx" ON "ledger_entries" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE INDEX "ledger_entries_org_type_created_idx" ON "ledger_entries" USING btree ("organization_id","type","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_org_idempotency_key" ON "ledger_entries" USING btree ("organization_id","idempotency_key") WHERE "ledger_entries"."idempotency_key" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_checkout_key" ON "ledger_entries" USING btree ("checkout_id") WHERE "ledger_entries"."checkout_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_refund_of_key" ON "ledger_entries" USING btree ("refund_of") WHERE "ledger_entries"."refund_of" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_organization_number_key" ON "invoices" USING btree ("organization_id","number");
--> statement-breakpoint
-- A billing account for every organization that has invoices already, numbering on after them.
INSERT INTO "billing_accounts" ("organization_id", "next_invoice_number")
SELECT "organization_id", max("number") + 1 FROM "invoices" GROUP BY "organization_id";--> statement-breakpoint
-- The ledger is append-only: an entry is never changed (rows go only with their organization).
-- The one change allowed is a reference becoming NULL when the member, checkout or invoice it
-- names is deleted (ON DELETE SET NULL); amounts, balances and the rest stay as written.
CREATE FUNCTION "ledger_entries_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (to_jsonb(NEW) - 'created_by' - 'checkout_id' - 'invoice_id')
       IS DISTINCT FROM (to_jsonb(OLD) - 'created_by' - 'checkout_id' - 'invoice_id')
     OR (NEW."created_by" IS NOT NULL AND NEW."created_by" IS DISTINCT FROM OLD."created_by")
     OR (NEW."checkout_id" IS NOT NULL AND NEW."checkout_id" IS DISTINCT FROM OLD."checkout_id")
     OR (NEW."invoice_id" IS NOT NULL AND NEW."invoice_id" IS DISTINCT FROM OLD."invoice_id") THEN
    RAISE EXCEPTION 'ledger entries are append-only' USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "ledger_entries_no_update" BEFORE UPDATE ON "ledger_entries"
FOR EACH ROW EXECUTE FUNCTION "ledger_entries_append_only"();--> statement-breakpoint
-- Fund packages (prices and credit in cents): the larger ones grant bonus credit.
INSERT INTO "fund_packages" ("name", "description", "price", "credit", "sort_order") VALUES
  ('Starter', 'Credit for occasional labels and lookups.', 5000, 5000, 1),
  ('Team', 'For a team shipping every day: 5% bonus credit.', 20000, 21000, 2),
  ('Scale', 'For high volumes: 10% bonus credit.', 50000, 55000, 3),
  ('Enterprise', 'For the busiest operations: 15% bonus credit.', 100000, 115000, 4);--> statement-breakpoint
-- The services of the transit profile that draw on the balance (unit prices in cents), and the
-- plan types that include them at no charge.
INSERT INTO "balance_services" ("app_profile", "key", "name", "description", "unit", "unit_price", "included_in", "sort_order") VALUES
  ('transit', 'SHIPPING_LABEL', 'Shipping label', 'A carrier label generated for a shipment.', 'label', 25, '[]', 1),
  ('transit', 'CUSTOMS_DECLARATION', 'Customs declaration', 'An electronic customs declaration filed for a shipment.', 'declaration', 150, '[]', 2),
  ('transit', 'ADDRESS_VALIDATION', 'Address validation', 'A delivery address checked against postal data.', 'check', 5, '["BUSINESS","CUSTOM"]', 3),
  ('transit', 'TRACKING_LOOKUP', 'Tracking lookup', 'A live tracking status fetched from a carrier.', 'lookup', 2, '["PROFESSIONAL","BUSINESS","CUSTOM"]', 4),
  ('transit', 'SMS_NOTIFICATION', 'SMS notification', 'A delivery update sent to a recipient by text message.', 'message', 8, '[]', 5);
