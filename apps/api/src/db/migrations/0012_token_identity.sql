-- A refresh retires the replaced token by its identity (jti), not by the second it was issued in:
-- the session keeps its current token's jti and the one the last refresh replaced, with the end
-- of its grace. Sessions from before keep the old rule until their next refresh (token_jti null).
ALTER TABLE "sessions" ADD COLUMN "token_jti" uuid;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "previous_jti" uuid;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "previous_jti_until" timestamp with time zone;