-- Hostile input: every idgen function is called with malformed, empty, huge, negative,
-- boundary, non-ASCII and NULL arguments, one argument at a time, the others valid. Each call runs
-- in a subtransaction that is always rolled back (so generators and the registry keep no trace),
-- and its outcome is recorded: "ok" (a value), "null", or the SQLSTATE it raised. The expected
-- output pins the SQLSTATE of every error. A backend crash would end this script (and
-- test/t/051_hostile_input_log.pl checks the server log for one).
SET client_min_messages = warning;
-- Without a node number idgen.snowflake() refuses in either loading mode, whatever the server
-- running the tests sets.
SET idgen.node_id = -1;
CREATE SEQUENCE hostile_seq;
CREATE TABLE hostile_target (id uuid);

-- For each argument type: a valid value (used for the other arguments) and the hostile ones.
-- "huge" is far beyond every format's length, a page and the TOAST threshold (10 kB to 120 kB):
-- megabytes would take the same paths, only slower (minutes under Valgrind).
CREATE TEMP TABLE hostile_values (type regtype, label text, literal text, ord int);
INSERT INTO hostile_values VALUES
  ('text', 'valid', $$'person'::text$$, 0),
  ('text', 'empty', $$''::text$$, 1),
  ('text', 'space', $$' '::text$$, 2),
  ('text', 'digits', $$'123'::text$$, 3),
  ('text', 'non-ascii', $$'é🌲日本'::text$$, 4),
  ('text', 'control', $$E'\x01\x1f\t\n'::text$$, 5),
  ('text', 'huge', $$repeat('Zz9', 40000)$$, 6),
  ('text', 'null', 'NULL::text', 9),
  ('cstring', 'valid', $$'00060a24181e4000020623a912def140'::cstring$$, 0),
  ('cstring', 'empty', $$''::cstring$$, 1),
  ('cstring', 'non-ascii', $$'é🌲'::cstring$$, 4),
  ('cstring', 'huge', $$repeat('f', 10000)::cstring$$, 6),
  ('bytea', 'valid', $$'\x000102030405060708090a0b0c0d0e0f'::bytea$$, 0),
  ('bytea', 'empty', $$'\x'::bytea$$, 1),
  ('bytea', 'nul', $$'\x00'::bytea$$, 2),
  ('bytea', '15 bytes', $$decode(repeat('00', 15), 'hex')$$, 3),
  ('bytea', '33 bytes', $$decode(repeat('ff', 33), 'hex')$$, 4),
  ('bytea', 'huge', $$decode(repeat('00ff', 50000), 'hex')$$, 6),
  ('bytea', 'null', 'NULL::bytea', 9),
  ('smallint', 'valid', '1::smallint', 0),
  ('smallint', 'negative', '(-1)::smallint', 1),
  ('smallint', 'min', '(-32768)::smallint', 2),
  ('smallint', 'max', '32767::smallint', 3),
  ('smallint', 'null', 'NULL::smallint', 9),
  ('integer', 'valid', '2::integer', 0),
  ('integer', 'zero', '0::integer', 1),
  ('integer', 'negative', '(-1)::integer', 2),
  ('integer', 'min', '(-2147483648)::integer', 3),
  ('integer', 'max', '2147483647::integer', 4),
  ('integer', 'null', 'NULL::integer', 9),
  ('bigint', 'valid', '5::bigint', 0),
  ('bigint', 'zero', '0::bigint', 1),
  ('bigint', 'negative', '(-1)::bigint', 2),
  ('bigint', '2^48', '281474976710656::bigint', 3),
  ('bigint', 'min', '(-9223372036854775808)::bigint', 4),
  ('bigint', 'max', '9223372036854775807::bigint', 5),
  ('bigint', 'null', 'NULL::bigint', 9),
  ('numeric', 'valid', '5::numeric', 0),
  ('numeric', 'negative', '(-1)::numeric', 1),
  ('numeric', 'fraction', '1.5::numeric', 2),
  ('numeric', 'NaN', $$'NaN'::numeric$$, 3),
  ('numeric', '10^28', '1e28::numeric', 4),
  ('numeric', '10^1000', '1e1000::numeric', 5),
  ('numeric', 'infinity', $$'Infinity'::numeric$$, 6),
  ('numeric', 'null', 'NULL::numeric', 9),
  ('idgen.distributed_id', 'valid', '5::idgen.distributed_id', 0),
  ('idgen.distributed_id', 'max', '9999999999999999999999999999::idgen.distributed_id', 1),
  ('idgen.distributed_id', 'null', 'NULL::idgen.distributed_id', 9),
  ('uuid', 'valid', $$'00000023-122e-82b6-a39c-a242104fe9a8'::uuid$$, 0),
  ('uuid', 'nil', $$'00000000-0000-0000-0000-000000000000'::uuid$$, 1),
  ('uuid', 'max', $$'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid$$, 2),
  ('uuid', 'v4', $$'0b5d2c7e-6c5f-4a6e-9d1c-2f7a3c9e8b10'::uuid$$, 3),
  ('uuid', 'v7', $$'01890a5d-ac96-774b-bcce-b302099a8057'::uuid$$, 4),
  ('uuid', 'null', 'NULL::uuid', 9),
  ('timestamp with time zone', 'valid', $$'2026-01-01 00:00:00+00'::timestamptz$$, 0),
  ('timestamp with time zone', 'infinity', $$'infinity'::timestamptz$$, 1),
  ('timestamp with time zone', '-infinity', $$'-infinity'::timestamptz$$, 2),
  ('timestamp with time zone', '4713 BC', $$'4713-01-01 00:00:00+00 BC'::timestamptz$$, 3),
  ('timestamp with time zone', '294276 AD', $$'294276-12-31 23:59:59+00'::timestamptz$$, 4),
  ('timestamp with time zone', '1969', $$'1969-12-31 23:59:59.999999+00'::timestamptz$$, 5),
  ('timestamp with time zone', 'null', 'NULL::timestamptz', 9),
  ('interval', 'valid', $$'1 minute'::interval$$, 0),
  ('interval', 'zero', $$'0'::interval$$, 1),
  ('interval', 'negative', $$'-1 minute'::interval$$, 2),
  ('interval', 'month', $$'1 month'::interval$$, 3),
  ('interval', 'microsecond', $$'1 microsecond'::interval$$, 4),
  ('interval', 'huge', $$'178000000 years'::interval$$, 5),
  ('interval', 'null', 'NULL::interval', 9),
  ('jsonb', 'valid', $${"a":[1,"x"]}$$, 0),
  ('jsonb', 'null-json', $$'null'::jsonb$$, 1),
  ('jsonb', 'scalar', $$'"s"'::jsonb$$, 2),
  ('jsonb', 'deep', $$(repeat('[', 5000) || repeat(']', 5000))::jsonb$$, 3),
  ('jsonb', 'wide', $$(SELECT jsonb_object_agg('k' || i, i) FROM generate_series(1, 20000) i)$$, 4),
  ('jsonb', 'numbers', $$'[1e1000, -0.0, 123456789012345678901234567890.5]'::jsonb$$, 5),
  ('jsonb', 'null', 'NULL::jsonb', 9),
  ('idgen.event_id', 'valid', $$'00060a24181e4001a1af30c612def140'::idgen.event_id$$, 0),
  ('idgen.event_id', 'zero', $$'00000000000000000000000000000000'::idgen.event_id$$, 1),
  ('idgen.event_id', 'max', $$'ffffffffffffffffffffffffffffffff'::idgen.event_id$$, 2),
  ('idgen.event_id', 'null', 'NULL::idgen.event_id', 9),
  ('idgen.ulid', 'valid', $$'01ARZ3NDEKTSV4RRFFQ69G5FAV'::idgen.ulid$$, 0),
  ('idgen.ulid', 'zero', $$'00000000000000000000000000'::idgen.ulid$$, 1),
  ('idgen.ulid', 'max', $$'7ZZZZZZZZZZZZZZZZZZZZZZZZZ'::idgen.ulid$$, 2),
  ('idgen.ulid', 'null', 'NULL::idgen.ulid', 9),
  ('idgen.typeid', 'valid', $$'user_01h455vb4pex5vsknk084sn02q'::idgen.typeid$$, 0),
  ('idgen.typeid', 'no prefix', $$'00000000000000000000000000'::idgen.typeid$$, 1),
  ('idgen.typeid', 'longest', $$(repeat('z', 63) || '_7zzzzzzzzzzzzzzzzzzzzzzzzz')::idgen.typeid$$, 2),
  ('idgen.typeid', 'null', 'NULL::idgen.typeid', 9),
  -- A literal's own type (idgen.typeid('user') is called with one).
  ('unknown', 'valid', $$'person'::unknown$$, 0),
  ('unknown', 'empty', $$''::unknown$$, 1),
  ('unknown', 'upper case', $$'User'::unknown$$, 2),
  ('unknown', 'non-ascii', $$'é🌲日本'::unknown$$, 4),
  ('unknown', 'null', 'NULL::unknown', 9),
  ('regclass', 'valid', $$'hostile_seq'::regclass$$, 0),
  ('regclass', 'table', $$'hostile_target'::regclass$$, 1),
  ('regclass', 'catalog', $$'pg_class'::regclass$$, 2),
  ('regclass', 'invalid oid', '0::regclass', 3),
  ('regclass', 'null', 'NULL::regclass', 9),
  ('name', 'valid', $$'id'::name$$, 0),
  ('name', 'empty', $$''::name$$, 1),
  ('name', 'non-ascii', $$'é🌲日本'::name$$, 4),
  ('name', 'huge', $$repeat('z', 1000)::name$$, 6),
  ('name', 'null', 'NULL::name', 9),
  ('regtype', 'valid', $$'uuid'::regtype$$, 0),
  ('regtype', 'text', $$'text'::regtype$$, 1),
  ('regtype', 'pseudo', $$'internal'::regtype$$, 2),
  ('regtype', 'invalid oid', '0::regtype', 3),
  ('regtype', 'null', 'NULL::regtype', 9);
UPDATE hostile_values SET literal = quote_literal(literal) || '::jsonb'
WHERE type = 'jsonb'::regtype AND label = 'valid';
INSERT INTO hostile_values
VALUES ('unknown', 'huge', quote_literal(repeat('z', 40000)) || '::unknown', 6);
-- Arguments whose valid value differs from their type's: group uuid versions are 6 or 8, and a
-- group's target is a table.
CREATE TEMP TABLE hostile_valid_overrides (proname name, arg int, literal text);
INSERT INTO hostile_valid_overrides VALUES ('group_uuid', 3, '8::integer'),
  -- a group's target is a table the caller owns
  ('register_group', 3, $$'hostile_target'::regclass$$),
  -- a key column's table
  ('convert_key_column', 1, $$'hostile_target'::regclass$$);

-- The functions: everything in schema idgen that SQL can call with these types (support
-- functions taking internal are reached through their types and aggregates instead; trigger
-- functions other than ledger_append, and event trigger functions, only run as triggers).
CREATE TEMP TABLE hostile_functions AS
SELECT p.oid::regprocedure AS fn, p.oid, p.proname, p.prokind,
       -- proargtypes is an oidvector, indexed from 0: make it an ordinary array
       (SELECT array_agg(t ORDER BY n) FROM unnest(p.proargtypes::regtype[]) WITH ORDINALITY u(t, n))
         AS args
FROM pg_proc p
WHERE p.pronamespace = 'idgen'::regnamespace
  AND NOT 'internal'::regtype = ANY (p.proargtypes::regtype[])
  AND (p.prorettype <> 'trigger'::regtype OR p.proname = 'ledger_append')
  AND p.prorettype <> 'event_trigger'::regtype;
SELECT fn FROM hostile_functions f
WHERE EXISTS (SELECT FROM unnest(f.args) a WHERE a NOT IN (SELECT type FROM hostile_values))
ORDER BY 1::text;  -- types without hostile values: expect no rows

CREATE TEMP TABLE hostile_outcomes (fn text, arg int, label text, ord int, outcome text);
DO $$
DECLARE
  f record;
  v record;
  call text;
  result text;
  state text;
BEGIN
  FOR f IN SELECT * FROM hostile_functions ORDER BY fn::text LOOP
    FOR i IN 0 .. greatest(array_length(f.args, 1), 1) - 1 LOOP
      FOR v IN SELECT * FROM hostile_values
               WHERE array_length(f.args, 1) IS NOT NULL AND type = f.args[i + 1]
                 AND label <> 'valid'
               UNION ALL SELECT NULL, 'no arguments', NULL, 0 WHERE array_length(f.args, 1) IS NULL
      LOOP
        SELECT format('SELECT %s(%s)::text', f.oid::regproc,
                      string_agg(CASE WHEN j = i THEN v.literal
                                      ELSE coalesce(
                                        (SELECT o.literal FROM hostile_valid_overrides o
                                         WHERE o.proname = f.proname AND o.arg = j + 1),
                                        (SELECT literal FROM hostile_values
                                         WHERE type = f.args[j + 1] AND label = 'valid')) END,
                                 ', ' ORDER BY j))
          INTO call
        FROM generate_series(0, coalesce(array_length(f.args, 1), 0) - 1) j;
        IF call IS NULL THEN
          call := format('SELECT %s()::text', f.oid::regproc);
        END IF;
        BEGIN
          EXECUTE call INTO result;
          state := CASE WHEN result IS NULL THEN 'null' ELSE 'ok' END;
          RAISE EXCEPTION USING ERRCODE = 'P0099';  -- roll the call back
        EXCEPTION
          WHEN SQLSTATE 'P0099' THEN NULL;
          WHEN OTHERS THEN state := SQLSTATE;
        END;
        INSERT INTO hostile_outcomes VALUES (f.fn::text, i + 1, v.label, v.ord, state);
      END LOOP;
    END LOOP;
  END LOOP;
END $$;

-- Every outcome, one line per function argument (label:outcome, in a fixed order).
SELECT fn, arg, string_agg(label || ':' || outcome, ' ' ORDER BY ord, label) AS outcomes
FROM hostile_outcomes GROUP BY fn, arg ORDER BY fn, arg;
-- Only these SQLSTATE classes may appear: data exceptions (22), integrity (23), the syntax and
-- access class (42, for the wrong table), object state (55), trigger protocol (39). Anything else
-- (XX000 internal error above all, or 54001 from json too deep to walk) is listed here.
SELECT fn, arg, label, outcome FROM hostile_outcomes
WHERE outcome NOT IN ('ok', 'null') AND left(outcome, 2) NOT IN ('22', '23', '42', '55', '39')
ORDER BY 1, 2, 3;
SELECT count(*) AS calls, count(DISTINCT fn) AS functions FROM hostile_outcomes;
DROP TABLE hostile_target;
DROP SEQUENCE hostile_seq;
RESET client_min_messages;
