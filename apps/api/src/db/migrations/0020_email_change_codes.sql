-- E-mail change codes (issue 20 item 7): the new address a code was sent to.
ALTER TABLE "one_time_codes" ADD COLUMN "email" text;