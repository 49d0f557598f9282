-- One sign-in attempt reserved in one statement (modules/auth/login-failures.ts): the e-mail's
-- throttle row is taken (inserted or locked by one upsert, held until the caller's statement
-- commits), then the failures of the window are counted and, below the limit, this attempt is
-- recorded as one. A function, because each of its statements reads a snapshot of its own, taken
-- after the lock: the count sees every attempt committed by whoever held the row before. In one
-- plain statement (a CTE) the count would read the snapshot taken before waiting for the lock,
-- and guesses sent at once would each count the same failures. Returns the reservation's id, or
-- null when the account is locked.
CREATE FUNCTION portolan_reserve_login(
  attempt_email text,
  attempt_ip text,
  attempt_at timestamptz,
  window_start timestamptz,
  max_failures integer
) RETURNS uuid
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  reserved uuid;
BEGIN
  INSERT INTO login_throttles (email, created_at) VALUES (attempt_email, attempt_at)
    ON CONFLICT (email) DO UPDATE SET created_at = login_throttles.created_at;
  IF (
    SELECT count(*) FROM login_failures
    WHERE email = attempt_email AND created_at > window_start
  ) >= max_failures THEN
    RETURN NULL;
  END IF;
  INSERT INTO login_failures (email, ip, created_at) VALUES (attempt_email, attempt_ip, attempt_at)
    RETURNING id INTO reserved;
  RETURN reserved;
END
$$;
