-- When each session last made a signed-in request (modules/users/last-active.ts): the "last active"
-- of the account's sessions list (GET /v1/user/sessions/). A table of its own, with no trigger, so
-- keeping it fresh drops nothing the session cache holds.
CREATE TABLE "session_activity" (
	"session_id" uuid PRIMARY KEY NOT NULL,
	"last_active_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "session_activity" ADD CONSTRAINT "session_activity_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;