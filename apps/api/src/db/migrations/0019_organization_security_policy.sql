-- The organization's security policy (issue 20 item 5): what it requires of its members' second
-- factor (off, any, phishing_resistant), the grace in days, and when the requirement began.
ALTER TABLE "organizations" ADD COLUMN "mfa_policy" text DEFAULT 'off' NOT NULL;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "mfa_grace_days" integer DEFAULT 7 NOT NULL;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "mfa_policy_since" timestamp with time zone;