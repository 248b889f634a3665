-- Public identities: idgen and idgen_sql give the same public ids, decode the same way (value,
-- NULL or SQLSTATE) and refuse the same inputs, on the upstream vectors, random values of every
-- kind under random 16, 24 and 32-byte keys, keys of other lengths, altered and invented public
-- ids, and values out of range. Then both editions get the same configured key (idgen's key file,
-- idgen_sql's idgen.set_public_id_key, both as a superuser) and the one-argument forms are
-- compared too. The comparisons run as the role that runs this script (an application role, not
-- the one that installed the editions); helpers live in a schema of its own, which outlives the
-- sessions of the key's setup.
\set ON_ERROR_STOP on
SELECT current_user AS app_user, (SELECT rolname FROM pg_roles WHERE oid = 10) AS superuser \gset
CREATE SCHEMA public_id_diff;

-- A random bytea of n bytes (n may be 0).
CREATE FUNCTION public_id_diff.bytes(n integer) RETURNS bytea LANGUAGE sql AS
$$ SELECT CASE WHEN n = 0 THEN '\x'::bytea ELSE gen_random_bytes(n) END $$;
-- A random valid key: 16, 24 or 32 bytes.
CREATE FUNCTION public_id_diff.key() RETURNS bytea LANGUAGE sql AS
$$ SELECT gen_random_bytes((ARRAY[16, 24, 32])[1 + floor(random() * 3)::int]) $$;
-- A random bigint over the whole range (negative half the time), or a small or boundary value.
CREATE FUNCTION public_id_diff.any_bigint(g integer) RETURNS bigint LANGUAGE sql AS $$
  SELECT CASE g % 4
    WHEN 0 THEN ('x' || encode(gen_random_bytes(8), 'hex'))::bit(64)::bigint
    WHEN 1 THEN (random() * 1000000)::bigint
    WHEN 2 THEN (ARRAY[0, 1, 9223372036854775807, -1, -9223372036854775808, 4294967295, 4294967296,
                       9223372036854775806])[1 + g / 4 % 8]
    ELSE ('x' || encode(gen_random_bytes(8), 'hex'))::bit(64)::bigint & 9223372036854775807 END $$;
-- One bit of a uuid flipped.
CREATE FUNCTION public_id_diff.flip(u uuid, n integer) RETURNS uuid LANGUAGE sql AS
$$ SELECT encode(set_bit(uuid_send(u), n, 1 - get_bit(uuid_send(u), n)), 'hex')::uuid $$;

-- The upstream vectors (test/vectors/public_id.tsv); uint128 values as the uuid of their bytes.
CREATE TEMP TABLE vectors (key_base64 text, input_kind text, value text, uuid uuid,
                           alphanumeric text, expect text, source text);
\copy vectors FROM 'test/vectors/public_id.tsv' WITH (FORMAT csv, DELIMITER E'\t', HEADER)
CREATE TEMP TABLE vector_inputs AS
SELECT decode(key_base64, 'base64') AS k, input_kind AS kind, value, uuid AS id, expect,
       CASE WHEN input_kind = 'uint128' THEN
         (lpad(to_hex(div(value::numeric, 18446744073709551616)::numeric(20)::bigint), 16, '0')
          || lpad(to_hex((value::numeric - div(value::numeric, 18446744073709551616) * 18446744073709551616
                          - 9223372036854775808)::bigint # (-9223372036854775808)), 16, '0'))::uuid
       END AS as_uuid
FROM vectors;

SELECT idgen_diff.check('vectors_idgen_sql_gives_every_vectors_public_id',
  bool_and(CASE kind WHEN 'bigint' THEN idgen_sqlx.public_id(value::bigint, k) = id
                     WHEN 'decimal28' THEN idgen_sqlx.public_id(value::numeric, k) = id
                     WHEN 'uuid' THEN idgen_sqlx.public_id(value::uuid, k) = id
                     WHEN 'uint128' THEN idgen_sqlx.public_id(as_uuid, k) = id END),
  'a vector row encodes differently')
FROM vector_inputs WHERE expect = 'ok';
SELECT idgen_diff.check('vectors_idgen_sql_decodes_every_vector',
  bool_and(CASE kind WHEN 'bigint' THEN idgen_sqlx.public_id_to_bigint(id, k)::text IS NOT DISTINCT FROM value
                     WHEN 'decimal28' THEN idgen_sqlx.public_id_to_numeric(id, k)::text IS NOT DISTINCT FROM value
                     WHEN 'uuid' THEN idgen_sqlx.public_id_to_uuid(id, k)::text = value
                     WHEN 'uint128' THEN idgen_sqlx.public_id_to_uuid(id, k) = as_uuid END),
  'a vector row decodes differently')
FROM vector_inputs;
SELECT idgen_diff.compare('vectors_encode', $q$CASE r.kind WHEN 'bigint' THEN $E.public_id(r.value::bigint, r.k)
  WHEN 'decimal28' THEN $E.public_id(r.value::numeric, r.k) ELSE $E.public_id(coalesce(r.as_uuid, r.value::uuid), r.k) END$q$,
  $$SELECT * FROM vector_inputs WHERE expect = 'ok'$$);
SELECT idgen_diff.compare('vectors_decode', $q$ROW($E.public_id_to_bigint(r.id, r.k), $E.public_id_to_numeric(r.id, r.k),
  $E.public_id_to_uuid(r.id, r.k))$q$, $$SELECT * FROM vector_inputs$$);

-- Random values of every kind under random keys.
SELECT idgen_diff.compare('public_id(bigint,key)', '$E.public_id(r.v, r.k)',
  $$SELECT public_id_diff.any_bigint(g) AS v, public_id_diff.key() AS k FROM generate_series(1, 20000) g$$);
SELECT idgen_diff.compare('public_id(integer,key)_and_(smallint,key)',
  'ROW($E.public_id(r.v, r.k), $E.public_id(r.s, r.k))',
  $$SELECT (random() * 4294967295 - 2147483648)::integer AS v,
           (random() * 65535 - 32768)::smallint AS s, public_id_diff.key() AS k
    FROM generate_series(1, 5000) g$$);
SELECT idgen_diff.compare('public_id(numeric,key)', '$E.public_id(r.v, r.k)',
  $$SELECT CASE g % 5
             WHEN 0 THEN floor(random() * 1e28)::numeric
             WHEN 1 THEN floor(random() * 1e19)::numeric
             WHEN 2 THEN (ARRAY[0, 1, 9999999999999999999999999999, 18446744073709551615, 18446744073709551616,
                                4294967295, 4294967296, 9223372036854775807, 5.000, 79228162514264337593543950335])[1 + g / 5 % 10]
             WHEN 3 THEN floor(random() * 1e28)::numeric * 1.000
             ELSE floor(random() * 1e12)::numeric END AS v,
           public_id_diff.key() AS k
    FROM generate_series(1, 15000) g$$);
SELECT idgen_diff.compare('public_id(numeric,key)_out_of_range', '$E.public_id(r.v, r.k)',
  $$SELECT (ARRAY[-1, -0.5, 0.5, 1.5, 10000000000000000000000000000, 1e40, 340282366920938463463374607431768211455,
                  340282366920938463463374607431768211456, 340282366920938463463374607431768211455.5,
                  340282366920938463463374607431768211456.5, 9999999999999999999999999999.5, 'NaN', 'Infinity',
                  '-Infinity', -0.0, 0.000, -1e-20, 1e-20, -99999999999999999999999999999999999999999999.9])
              [1 + g % 19]::numeric AS v,
           CASE WHEN g % 3 = 0 THEN public_id_diff.bytes(g % 40) ELSE public_id_diff.key() END AS k
    FROM generate_series(1, 2000) g$$);
SELECT idgen_diff.compare('public_id(uuid,key)', '$E.public_id(r.v, r.k)',
  $$SELECT CASE WHEN g % 10 = 0 THEN ('00000000-0000-0000-' || substr(gen_random_uuid()::text, 20))::uuid
                ELSE gen_random_uuid() END AS v, public_id_diff.key() AS k
    FROM generate_series(1, 15000) g$$);
SELECT idgen_diff.compare('public_id(text,key)_refused', '$E.public_id(r.v, r.k)',
  $$SELECT (ARRAY['5', NULL, '00000000-0000-0000-0000-000000000001'])[1 + g % 3]::text AS v, public_id_diff.key() AS k
    FROM generate_series(1, 30) g$$);

-- Keys of every other length (0 to 40 bytes, and the base64 text of a key): the same SQLSTATE,
-- whether the value is good or bad (the value is checked first).
SELECT idgen_diff.compare('keys_of_other_lengths', $q$ROW(r.n, $E.public_id(r.v, r.k), $E.public_id(r.v::numeric, r.k),
  $E.public_id(r.u, r.k), $E.public_id_to_bigint(r.u, r.k), $E.public_id_to_numeric(r.u, r.k),
  $E.public_id_to_uuid(r.u, r.k), $E.public_id_key_check(r.k))$q$,
  $$SELECT g % 41 AS n, CASE WHEN g % 41 = 40 THEN convert_to(encode(gen_random_bytes(32), 'base64'), 'UTF8')
                             ELSE public_id_diff.bytes(g % 41) END AS k,
           public_id_diff.any_bigint(g) AS v, gen_random_uuid() AS u
    FROM generate_series(1, 4100) g$$);
SELECT idgen_diff.compare('negative_value_and_bad_key', '$E.public_id(r.v, r.k)',
  $$SELECT -1 - g::bigint AS v, public_id_diff.bytes(g % 16) AS k FROM generate_series(1, 200) g$$);

-- Decoding: invented public ids, altered ones (one bit flipped), public ids of another kind or
-- made under another key, and genuine ones.
SELECT idgen_diff.compare('decode_invented_public_ids',
  'ROW($E.public_id_to_bigint(r.u, r.k), $E.public_id_to_numeric(r.u, r.k), $E.public_id_to_uuid(r.u, r.k))',
  $$SELECT gen_random_uuid() AS u, public_id_diff.key() AS k FROM generate_series(1, 15000) g$$);
SELECT idgen_diff.compare('decode_genuine_and_altered_public_ids',
  'ROW($E.public_id_to_bigint(r.u, r.k), $E.public_id_to_numeric(r.u, r.k), $E.public_id_to_uuid(r.u, r.k))',
  $$SELECT CASE WHEN g % 3 = 0 THEN p ELSE public_id_diff.flip(p, g % 128) END AS u, k
    FROM (SELECT g, k, CASE g % 4 WHEN 0 THEN idgen.public_id(public_id_diff.any_bigint(g) & 9223372036854775807, k)
                                  WHEN 1 THEN idgen.public_id(floor(random() * 1e28)::numeric, k)
                                  WHEN 2 THEN idgen.public_id((random() * 1000)::bigint, k)
                                  ELSE idgen.public_id(gen_random_uuid(), k) END AS p
          FROM (SELECT g, public_id_diff.key() AS k FROM generate_series(1, 15000) g) s) t$$);
SELECT idgen_diff.compare('decode_under_another_key',
  'ROW($E.public_id_to_bigint(r.u, r.k), $E.public_id_to_numeric(r.u, r.k))',
  $$SELECT idgen.public_id((random() * 1e6)::bigint, public_id_diff.key()) AS u, public_id_diff.key() AS k
    FROM generate_series(1, 3000) g$$);
SELECT idgen_diff.compare('public_id_key_check(key)', '$E.public_id_key_check(r.k)',
  $$SELECT public_id_diff.key() AS k FROM generate_series(1, 3000) g$$);

-- Each edition reads the other's public ids.
SELECT idgen_diff.check('idgen_decodes_idgen_sqls_public_ids',
  bool_and(idgen.public_id_to_bigint(idgen_sqlx.public_id(v, k), k) = v
           AND idgen.public_id_to_numeric(idgen_sqlx.public_id(n, k), k) = n
           AND idgen.public_id_to_uuid(idgen_sqlx.public_id(u, k), k) = u))
FROM (SELECT public_id_diff.any_bigint(g) & 9223372036854775807 AS v, floor(random() * 1e28)::numeric AS n,
             gen_random_uuid() AS u, public_id_diff.key() AS k FROM generate_series(1, 2000) g) s;
SELECT idgen_diff.check('idgen_sql_decodes_idgens_public_ids',
  bool_and(idgen_sqlx.public_id_to_bigint(idgen.public_id(v, k), k) = v
           AND idgen_sqlx.public_id_to_numeric(idgen.public_id(n, k), k) = n
           AND idgen_sqlx.public_id_to_uuid(idgen.public_id(u, k), k) = u))
FROM (SELECT public_id_diff.any_bigint(g) & 9223372036854775807 AS v, floor(random() * 1e28)::numeric AS n,
             gen_random_uuid() AS u, public_id_diff.key() AS k FROM generate_series(1, 2000) g) s;

-- The configured key. None yet: both refuse with 55000.
SELECT idgen_diff.compare('no_configured_key',
  $q$ROW($E.public_id(r.v), $E.public_id(r.v::numeric), $E.public_id(r.u), $E.public_id_to_bigint(r.u),
  $E.public_id_to_numeric(r.u), $E.public_id_to_uuid(r.u), $E.public_id_key_check())$q$,
  $$SELECT g::bigint AS v, gen_random_uuid() AS u FROM generate_series(1, 20) g$$);

-- The same key for both, set by a superuser: idgen's file in the data directory, written by
-- psql (which runs as the server's operating-system user on the server's machine) with mode
-- 0600 and named by the setting after a reload; idgen_sql's through its setter.
CREATE TABLE public_id_diff.configured AS SELECT gen_random_bytes(32) AS k;
\c - :superuser
SELECT encode(k, 'base64') AS key_text, current_setting('data_directory') || '/public_id_diff.key' AS key_file
FROM public_id_diff.configured \gset
\setenv IDGEN_DIFF_KEY_TEXT :key_text
\setenv IDGEN_DIFF_KEY_FILE :key_file
\! rm -f "$IDGEN_DIFF_KEY_FILE" && umask 077 && printf '%s\n' "$IDGEN_DIFF_KEY_TEXT" > "$IDGEN_DIFF_KEY_FILE"
-- PostgreSQL 15 knows idgen's settings in ALTER SYSTEM only where idgen is loaded.
LOAD 'idgen';
ALTER SYSTEM SET idgen.public_id_key_file = 'public_id_diff.key';
SELECT pg_reload_conf() IS NOT NULL AS reloaded \gset
-- New sessions see the setting once this one does (the server re-reads its configuration before
-- it signals the sessions).
DO $$
BEGIN
  FOR i IN 1..200 LOOP
    EXIT WHEN current_setting('idgen.public_id_key_file', true) = 'public_id_diff.key';
    PERFORM pg_sleep(0.05);
  END LOOP;
END
$$;
SELECT idgen_sqlx.set_public_id_key(k) = idgen.public_id_key_check(k) AS set FROM public_id_diff.configured \gset
\c - :app_user
SELECT idgen_diff.check('configured_keys_the_same_check_value',
  idgen.public_id_key_check() = idgen_sqlx.public_id_key_check()
  AND idgen_sqlx.public_id_key_check() = (SELECT idgen.public_id_key_check(k) FROM public_id_diff.configured));
SELECT idgen_diff.compare('configured_public_id(bigint)', '$E.public_id(r.v)',
  $$SELECT public_id_diff.any_bigint(g) AS v FROM generate_series(1, 10000) g$$);
SELECT idgen_diff.compare('configured_public_id(integer),(smallint)', 'ROW($E.public_id(r.v), $E.public_id(r.s))',
  $$SELECT (random() * 4294967295 - 2147483648)::integer AS v, (random() * 65535 - 32768)::smallint AS s
    FROM generate_series(1, 1000) g$$);
SELECT idgen_diff.compare('configured_public_id(numeric)', '$E.public_id(r.v)',
  $$SELECT CASE WHEN g % 10 = 0 THEN (ARRAY[-1, 1.5, 'NaN', 'Infinity', 1e28, 5.000, 0, 9999999999999999999999999999,
                                            340282366920938463463374607431768211456.5, -0.5])[1 + g / 10 % 10]::numeric
                ELSE floor(random() * 1e28)::numeric END AS v
    FROM generate_series(1, 5000) g$$);
SELECT idgen_diff.compare('configured_public_id(uuid)', '$E.public_id(r.v)',
  $$SELECT gen_random_uuid() AS v FROM generate_series(1, 5000) g$$);
SELECT idgen_diff.compare('configured_decoders',
  'ROW($E.public_id_to_bigint(r.u), $E.public_id_to_numeric(r.u), $E.public_id_to_uuid(r.u))',
  $$SELECT CASE g % 4 WHEN 0 THEN gen_random_uuid()
                      WHEN 1 THEN idgen.public_id(g::bigint)
                      WHEN 2 THEN public_id_diff.flip(idgen.public_id(floor(random() * 1e28)::numeric), g % 128)
                      ELSE idgen.public_id(floor(random() * 1e28)::numeric) END AS u
    FROM generate_series(1, 8000) g$$);
SELECT idgen_diff.compare('configured_and_explicit_key_agree', 'ROW($E.public_id(r.v) = $E.public_id(r.v, r.k))',
  $$SELECT g::bigint AS v, k FROM generate_series(1, 1000) g, public_id_diff.configured$$);

-- A key ring (docs/public-id.md, "Rotating the key"): a new key N current, the key above and an
-- older key O kept for decoding. idgen's key file lists N, the key, O; idgen_sql gets the same
-- ring by setting O and rotating to the key, then to N. Public ids made under each key (and
-- forged ones) decode alike, with the same key numbers; new ones are made under N.
CREATE TABLE public_id_diff.ring AS SELECT gen_random_bytes(32) AS n, gen_random_bytes(16) AS o;
\c - :superuser
SELECT encode(r.n, 'base64') AS n_text, encode(r.o, 'base64') AS o_text,
       current_setting('data_directory') || '/public_id_diff_ring.key' AS ring_file
FROM public_id_diff.ring r \gset
\setenv IDGEN_DIFF_N_TEXT :n_text
\setenv IDGEN_DIFF_O_TEXT :o_text
\setenv IDGEN_DIFF_RING_FILE :ring_file
\! rm -f "$IDGEN_DIFF_RING_FILE" && umask 077 && printf '%s\n%s\n%s\n' "$IDGEN_DIFF_N_TEXT" "$IDGEN_DIFF_KEY_TEXT" "$IDGEN_DIFF_O_TEXT" > "$IDGEN_DIFF_RING_FILE"
LOAD 'idgen';
ALTER SYSTEM SET idgen.public_id_key_file = 'public_id_diff_ring.key';
SELECT pg_reload_conf() IS NOT NULL AS reloaded \gset
DO $$
BEGIN
  FOR i IN 1..200 LOOP
    EXIT WHEN current_setting('idgen.public_id_key_file', true) = 'public_id_diff_ring.key';
    PERFORM pg_sleep(0.05);
  END LOOP;
END
$$;
SELECT idgen_sqlx.set_public_id_key(r.o) IS NOT NULL AS set FROM public_id_diff.ring r \gset
SELECT idgen_sqlx.rotate_public_id_key(c.k) IS NOT NULL AS rotated FROM public_id_diff.configured c \gset
SELECT idgen_sqlx.rotate_public_id_key(r.n) IS NOT NULL AS rotated FROM public_id_diff.ring r \gset
\c - :app_user
SELECT idgen_diff.check('ring_the_same_check_values',
  idgen.public_id_key_checks() = idgen_sqlx.public_id_key_checks()
  AND idgen.public_id_key_checks() = (SELECT ARRAY[idgen.public_id_key_check(r.n), idgen.public_id_key_check(c.k),
                                                   idgen.public_id_key_check(r.o)]
                                      FROM public_id_diff.ring r, public_id_diff.configured c));
SELECT idgen_diff.compare('ring_encoders', 'ROW($E.public_id(r.v), $E.public_id(r.v::numeric * 99999), $E.public_id(r.u))',
  $$SELECT public_id_diff.any_bigint(g) AS v, gen_random_uuid() AS u FROM generate_series(1, 2000) g$$);
SELECT idgen_diff.compare('ring_decoders',
  $q$ROW($E.public_id_to_bigint(r.u), $E.public_id_to_numeric(r.u), $E.public_id_to_uuid(r.u),
         $E.public_id_to_uuids(r.u), $E.public_id_key_number(r.u))$q$,
  $$SELECT CASE g % 8 WHEN 0 THEN gen_random_uuid()
                      WHEN 1 THEN idgen.public_id(g::bigint, ring.n)
                      WHEN 2 THEN idgen.public_id(g::bigint, c.k)
                      WHEN 3 THEN idgen.public_id(g::bigint, ring.o)
                      WHEN 4 THEN idgen.public_id(floor(random() * 1e28)::numeric, ring.o)
                      WHEN 5 THEN public_id_diff.flip(idgen.public_id(floor(random() * 1e28)::numeric, c.k), g % 128)
                      WHEN 6 THEN idgen.public_id(gen_random_uuid(), ring.o)
                      ELSE idgen.public_id(floor(random() * 1e28)::numeric, c.k) END AS u
    FROM generate_series(1, 8000) g, public_id_diff.ring ring, public_id_diff.configured c$$);
SELECT idgen_diff.check('ring_old_public_ids_decode_with_their_key_number',
  bool_and(idgen.public_id_key_number(idgen.public_id(s.v, c.k)) = 2
           AND idgen_sqlx.public_id_key_number(idgen_sqlx.public_id(s.v, r.o)) = 3
           AND idgen_sqlx.public_id_to_bigint(idgen.public_id(s.v, r.o)) = s.v
           AND idgen.public_id_to_numeric(idgen_sqlx.public_id(s.v::numeric, c.k)) = s.v
           AND (idgen_sqlx.public_id_to_uuids(idgen.public_id(s.u, r.o)))[3] = s.u
           AND (idgen.public_id_to_uuids(idgen_sqlx.public_id(s.u, c.k)))[2] = s.u
           AND idgen.public_id_to_bigint(idgen_sqlx.public_id(s.v)) = s.v
           AND idgen_sqlx.public_id_key_number(idgen.public_id(s.v)) = 1))
FROM (SELECT public_id_diff.any_bigint(g) & 9223372036854775807 AS v, gen_random_uuid() AS u
      FROM generate_series(1, 1000) g) s, public_id_diff.ring r, public_id_diff.configured c;

\c - :superuser
\! rm -f "$IDGEN_DIFF_RING_FILE"
LOAD 'idgen';
ALTER SYSTEM RESET idgen.public_id_key_file;
SELECT pg_reload_conf() IS NOT NULL AS reloaded \gset
\! rm -f "$IDGEN_DIFF_KEY_FILE"
DROP SCHEMA public_id_diff CASCADE;
