-- UUIDv7 (RFC 9562) for new leads: 48 bits of Unix time in milliseconds, then the random bits
-- of gen_random_uuid() with the version nibble set to 7 (its variant bits are already 10).
-- Ids made in one millisecond are in random order among themselves; what matters is that a
-- new id sorts after the older ones, so inserts touch the right edge of the primary key index.
-- Existing leads keep their ids.
CREATE FUNCTION uuid_v7() RETURNS uuid LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_bytes bytea := uuid_send(gen_random_uuid());
  v_ms bytea := int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint);
BEGIN
  v_bytes := overlay(v_bytes PLACING substring(v_ms FROM 3 FOR 6) FROM 1 FOR 6);
  v_bytes := set_byte(v_bytes, 6, (get_byte(v_bytes, 6) & 15) | 112);
  RETURN encode(v_bytes, 'hex')::uuid;
END
$$;
--> statement-breakpoint
ALTER TABLE "leads" ALTER COLUMN "id" SET DEFAULT uuid_v7();
