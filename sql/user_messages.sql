-- What a newcomer's first mistakes get back: each message says what is wrong and what to write
-- instead, with no internal statement or SQL-function context around it.
SET TimeZone = 'UTC';

-- An untyped literal or a text parameter given to a name overloaded for bigint, numeric and uuid:
-- one message naming the casts, instead of "function ... is not unique".
SELECT idgen.to_alphanumeric('12345');
SELECT idgen.to_hexadecimal('0b6e9d3f-2c4a-4f57-9a0e-6e2d5c1b7a90');
SELECT idgen.public_id('42');
SELECT idgen.public_id('42', decode('000102030405060708090a0b0c0d0e0f', 'hex'));
PREPARE encode_param(text) AS SELECT idgen.to_alphanumeric($1);
EXECUTE encode_param('12345');
DEALLOCATE encode_param;
-- With the cast, each reading is its own answer.
SELECT idgen.to_alphanumeric('12345'::bigint) AS as_bigint,
       idgen.to_alphanumeric('12345'::numeric) AS as_distributed_id;
-- integer and smallint arguments go straight to the library: no context line on errors.
SELECT idgen.to_alphanumeric(-1);
SELECT idgen.to_hexadecimal((-1)::smallint);
SELECT idgen.public_id(-1, decode('000102030405060708090a0b0c0d0e0f', 'hex'));

-- A key pasted as its base64 text (the key file's content) instead of its bytes; the key itself
-- is never shown.
SELECT idgen.public_id(1::bigint, 'k7fBbyPTQFh0mRXpkU1jG8s0Jq2Fh8fG1a4LRZmAFc0=');
SELECT idgen.public_id(1::bigint, decode('k7fBbyPTQFh0mRXpkU1jG8s0Jq2Fh8fG1a4LRZmAFc0=', 'base64'))
  IS NOT NULL AS decoded_key_works;
SELECT idgen.public_id(1::bigint, 'not a key');

-- comb_check: a random UUID is called what it most likely is; a COMB from the past gets the hint
-- to pass its instant.
SELECT idgen.comb_check('3f2a9c1e-8b7d-4e6f-a5b4-c3d2e1f0a9b8', at => '2026-01-01 00:00:00+00');
SELECT idgen.comb_check(idgen.comb_at('2026-01-01 00:00:00+00'), at => '2026-01-01 00:30:00+00');

-- distributed_id128_timestamp of other uuids says what they are; uuid_timestamp only where it
-- reads a time.
SELECT idgen.distributed_id128_timestamp('3f2a9c1e-8b7d-4e6f-a5b4-c3d2e1f0a9b8');
SELECT idgen.distributed_id128_timestamp('017f22e2-79b0-7cc3-98c4-dc0c0c07398f');

-- A negative DistributedId names a constraint that says the rule.
CREATE TEMP TABLE accounts (id idgen.distributed_id PRIMARY KEY);
INSERT INTO accounts VALUES (-1);

-- ledger_create on a table with another NOT NULL column: said before the genesis INSERT runs.
CREATE TEMP TABLE audit_events (ledger_id bigint NOT NULL, id idgen.event_id NOT NULL,
  event text NOT NULL, entities jsonb NOT NULL, meta jsonb NOT NULL DEFAULT '{}',
  data jsonb NOT NULL DEFAULT '{}', actor text NOT NULL, PRIMARY KEY (ledger_id, id));
SELECT idgen.ledger_create('audit_events', 'audit', 'who did what');
ALTER TABLE audit_events ALTER actor SET DEFAULT 'system';
SELECT idgen.ledger_create('audit_events', 'audit', 'who did what') > 0 AS created;
