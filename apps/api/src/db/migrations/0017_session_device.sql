-- The device of a sign-in (modules/auth/user-agent.ts deviceKey): a sign-in from a device the
-- account has no session of, while it has one of another, e-mails the owner. Sessions from before
-- this have none: the first sign-in after them only makes its device known.
ALTER TABLE "sessions" ADD COLUMN "device_key" text;