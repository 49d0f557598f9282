-- Money operations (issue 22): automatic top-ups (one PENDING per organization), workspace spend
-- caps, billing details printed on invoices and credit notes, credit notes numbered per
-- organization; the organization's cap, low-balance thresholds and auto top-up settings on its
-- billing account; and the workspace a charge was for, on the ledger.
CREATE TABLE "auto_top_ups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"fund_package_id" uuid,
	"amount" integer NOT NULL,
	"credit" integer NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"failure_reason" text,
	"invoice_id" uuid,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_until" timestamp with time zone,
	"settled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_details" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"company_name" text NOT NULL,
	"address" text NOT NULL,
	"country" text NOT NULL,
	"tax_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credit_notes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"invoice_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"amount" integer NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"reason" text NOT NULL,
	"lines" jsonb NOT NULL,
	"billed_to" jsonb,
	"gateway_ref" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_notes_amount_positive" CHECK ("credit_notes"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "workspace_spend_caps" (
	"client_id" uuid PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"monthly_limit" integer,
	"period_start" timestamp with time zone,
	"spent" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "billed_to" jsonb;--> statement-breakpoint
ALTER TABLE "billing_accounts" ADD COLUMN "next_credit_note_number" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_accounts" ADD COLUMN "spend_cap" integer;--> statement-breakpoint
ALTER TABLE "billing_accounts" ADD COLUMN "spend_period_start" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "billing_accounts" ADD COLUMN "spent_this_period" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_accounts" ADD COLUMN "low_balance_thresholds" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_accounts" ADD COLUMN "auto_top_up_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_accounts" ADD COLUMN "auto_top_up_threshold" integer;--> statement-breakpoint
ALTER TABLE "billing_accounts" ADD COLUMN "auto_top_up_fund_package_id" uuid;--> statement-breakpoint
ALTER TABLE "billing_accounts" ADD COLUMN "auto_top_up_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "client_id" uuid;--> statement-breakpoint
ALTER TABLE "auto_top_ups" ADD CONSTRAINT "auto_top_ups_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auto_top_ups" ADD CONSTRAINT "auto_top_ups_fund_package_id_fund_packages_id_fk" FOREIGN KEY ("fund_package_id") REFERENCES "public"."fund_packages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auto_top_ups" ADD CONSTRAINT "auto_top_ups_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_details" ADD CONSTRAINT "billing_details_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_spend_caps" ADD CONSTRAINT "workspace_spend_caps_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_spend_caps" ADD CONSTRAINT "workspace_spend_caps_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "auto_top_ups_one_pending" ON "auto_top_ups" USING btree ("organization_id") WHERE "auto_top_ups"."status" = 'PENDING';--> statement-breakpoint
CREATE INDEX "auto_top_ups_org_created_idx" ON "auto_top_ups" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "auto_top_ups_pending_due_idx" ON "auto_top_ups" USING btree ("next_attempt_at") WHERE "auto_top_ups"."status" = 'PENDING';--> statement-breakpoint
CREATE UNIQUE INDEX "credit_notes_organization_number_key" ON "credit_notes" USING btree ("organization_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "credit_notes_gateway_ref_key" ON "credit_notes" USING btree ("gateway_ref");--> statement-breakpoint
CREATE INDEX "credit_notes_invoice_idx" ON "credit_notes" USING btree ("invoice_id");--> statement-breakpoint
ALTER TABLE "billing_accounts" ADD CONSTRAINT "billing_accounts_auto_top_up_fund_package_id_fund_packages_id_fk" FOREIGN KEY ("auto_top_up_fund_package_id") REFERENCES "public"."fund_packages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ledger_entries_org_client_created_idx" ON "ledger_entries" USING btree ("organization_id","client_id","created_at") WHERE "ledger_entries"."client_id" is not null;--> statement-breakpoint
-- The ledger stays append-only; a deleted workspace's charges keep their amounts and lose the link.
CREATE OR REPLACE FUNCTION "ledger_entries_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (to_jsonb(NEW) - 'created_by' - 'checkout_id' - 'invoice_id' - 'client_id')
       IS DISTINCT FROM (to_jsonb(OLD) - 'created_by' - 'checkout_id' - 'invoice_id' - 'client_id')
     OR (NEW."created_by" IS NOT NULL AND NEW."created_by" IS DISTINCT FROM OLD."created_by")
     OR (NEW."checkout_id" IS NOT NULL AND NEW."checkout_id" IS DISTINCT FROM OLD."checkout_id")
     OR (NEW."invoice_id" IS NOT NULL AND NEW."invoice_id" IS DISTINCT FROM OLD."invoice_id")
     OR (NEW."client_id" IS NOT NULL AND NEW."client_id" IS DISTINCT FROM OLD."client_id") THEN
    RAISE EXCEPTION 'ledger entries are append-only' USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NEW;
END;
$$;
