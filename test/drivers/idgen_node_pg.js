#!/usr/bin/env node
// idgen through node-postgres (npm pg, pinned in package.json), as an application uses it.
//
// Connects with the standard PG* environment variables, creates tables with idgen defaults,
// inserts with parameters and reads the ids back as node-pg's defaults give them: uuids as
// canonical strings, the 28-digit idgen.distributed_id (a domain over numeric(28,0), described to
// clients as numeric) as a string with every digit, idgen.event_id as its text. Shows that a JS
// Number would lose the DistributedId's digits, and what node-pg's `binary: true` does to these
// types. Also: public ids under an explicit key, the encoders, binary parameters (a Buffer) into
// event_id_recv, SQLSTATEs in error.code, and tables keyed by idgen.ulid and idgen.typeid, whose
// ids are strings both ways: lookups and keyset pages with string parameters, through the primary
// key's index (EXPLAIN with the same parameters), JSON, and a TypeID of another prefix finding
// nothing. Prints TAP lines; exits 1 if any check failed.
//
// Run by test/t/031_drivers.pl after test/drivers/prepare.sh; by hand:
// PGHOST=... PGPORT=... node test/drivers/idgen_node_pg.js

'use strict';

const { Client } = require('pg');
const pgVersion = require('pg/package.json').version;
const assert = require('node:assert');

let failed = 0;

function check(name, condition, detail) {
  if (condition) {
    console.log(`ok - node-pg: ${name}`);
  } else {
    failed += 1;
    const line = detail ? ` (${String(detail).replace(/\s+/g, ' ')})` : '';
    console.log(`not ok - node-pg: ${name}${line}`);
  }
}

function checkEqual(name, got, expected) {
  let same = true;
  try {
    assert.deepStrictEqual(got, expected);
  } catch {
    same = false;
  }
  check(name, same, `expected ${JSON.stringify(expected)}, got ${JSON.stringify(got)}`);
}

// The query fails with error.code === sqlstate, and the client stays usable.
async function checkError(client, name, sqlstate, text, values) {
  let error = null;
  try {
    await client.query(text, values);
  } catch (e) {
    error = e;
  }
  if (!error) {
    check(`${name}: error ${sqlstate}`, false, 'no error');
    return;
  }
  const alive = (await client.query('SELECT 1 AS one')).rows[0].one === 1;
  check(`${name}: error.code ${sqlstate}, client still usable`, error.code === sqlstate && alive,
    `got code ${error.code}: ${error.message}; client usable: ${alive}`);
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const HEX32_RE = /^[0-9a-f]{32}$/;
const ULID_RE = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/; // Crockford's base32, upper case
const TYPEID_RE = /^user_[0-7][0-9a-hjkmnp-tv-z]{25}$/;

// A table keyed by idgen.ulid or idgen.typeid through node-postgres: the ids are strings both ways.
async function textKeyChecks(client, kind, table, textOfUuid, pattern) {
  const returned = (await client.query(`INSERT INTO ${table} (n) VALUES ($1) RETURNING id`, [1])).rows[0].id;
  for (let n = 2; n <= 10; n += 1) {
    await client.query(`INSERT INTO ${table} (n) VALUES ($1)`, [n]);
  }
  const rows = (await client.query(`SELECT id, ${textOfUuid} AS text, n FROM ${table} ORDER BY n`)).rows;
  const ids = rows.map((r) => r.id);
  check(`${kind}: 10 rows from the column DEFAULT, read back as strings matching the format`,
    rows.length === 10 && ids.every((i) => typeof i === 'string' && pattern.test(i)), JSON.stringify(ids.slice(0, 2)));
  checkEqual(`${kind}: RETURNING gives the first id; each string equals ${textOfUuid}`,
    [returned, ...ids], [rows[0].text, ...rows.map((r) => r.text)]);
  const sorted = [...ids].sort();
  checkEqual(`${kind}: ORDER BY id is insert order, and the order of the strings`,
    (await client.query(`SELECT id FROM ${table} ORDER BY id`)).rows.map((r) => r.id), sorted);
  checkEqual(`${kind}: ... so ids of one session increase with insert order`, sorted, ids);

  // search_path is public: the comparison operators live in pg_catalog, so no cast is needed.
  checkEqual(`${kind}: WHERE id = $1 with the text as a string parameter finds the row`,
    (await client.query(`SELECT n FROM ${table} WHERE id = $1`, [ids[3]])).rows, [{ n: 4 }]);
  if (kind === 'idgen.ulid') {
    checkEqual('idgen.ulid: the lower-case text finds it too (ULID text is read in either case)',
      (await client.query(`SELECT n FROM ${table} WHERE id = $1`, [ids[3].toLowerCase()])).rows, [{ n: 4 }]);
    const { u } = (await client.query(`SELECT id::uuid AS u FROM ${table} WHERE n = 4`)).rows[0];
    checkEqual('idgen.ulid: its uuid string finds it with a cast, $1::uuid::idgen.ulid',
      (await client.query(`SELECT n FROM ${table} WHERE id = $1::uuid::idgen.ulid`, [u])).rows, [{ n: 4 }]);
    const tried = [];
    for (const t of [ids[3], 'not-a-ulid']) {
      tried.push((await client.query(
        `SELECT n FROM ${table} WHERE id = idgen.try_ulid_to_uuid($1)::idgen.ulid`, [t])).rows);
    }
    checkEqual('idgen.ulid: untrusted text through try_ulid_to_uuid($1)::idgen.ulid: the row, or none',
      tried, [[{ n: 4 }], []]);
    checkEqual('idgen.ulid: min(id) and max(id) are the first and the last id',
      (await client.query(`SELECT min(id) AS lo, max(id) AS hi FROM ${table}`)).rows[0],
      { lo: ids[0], hi: ids[9] });
  }
  const malformed = kind === 'idgen.ulid' ? '01ARZ3NDEKTSV4RRFFQ69G5FAI' : ids[3].toUpperCase(); // I; upper case
  await checkError(client, `${kind}: malformed text as the parameter`, '22P02',
    `SELECT n FROM ${table} WHERE id = $1`, [malformed]);
  await checkError(client, `${kind}: a parameter typed text ($1::text) has no ${kind} = text operator`, '42883',
    `SELECT n FROM ${table} WHERE id = $1::text`, [ids[3]]);

  // Keyset pagination: the first page, then WHERE id > the last id seen, 3 rows a page.
  const pages = [(await client.query(`SELECT id FROM ${table} ORDER BY id LIMIT $1`, [3])).rows];
  while (pages[pages.length - 1].length === 3) {
    const last = pages[pages.length - 1][2].id;
    pages.push((await client.query(`SELECT id FROM ${table} WHERE id > $1 ORDER BY id LIMIT $2`, [last, 3])).rows);
  }
  checkEqual(`${kind}: keyset pages (WHERE id > $1 ORDER BY id LIMIT 3) give every row once, in order`,
    [pages.map((p) => p.length), pages.flat().map((r) => r.id)], [[3, 3, 3, 1], sorted]);

  checkEqual(`${kind}: to_jsonb and row_to_json show the id as its text`,
    (await client.query(`SELECT to_jsonb(k) AS doc, row_to_json(k) AS row FROM ${table} k WHERE id = $1`,
      [ids[0]])).rows[0], { doc: { id: ids[0], n: 1 }, row: { id: ids[0], n: 1 } });

  // The lookup with the same string parameter uses the primary key's index once the table is big
  // enough for the planner to care.
  await client.query(`INSERT INTO ${table} (n) SELECT g FROM generate_series(11, 5000) g`);
  await client.query(`ANALYZE ${table}`);
  for (const [what, query] of [
    ['WHERE id = $1', `SELECT n FROM ${table} WHERE id = $1`],
    ['WHERE id > $1 ORDER BY id LIMIT 3', `SELECT n FROM ${table} WHERE id > $1 ORDER BY id LIMIT 3`]]) {
    const plan = (await client.query(`EXPLAIN ${query}`, [ids[3]])).rows.map((r) => r['QUERY PLAN']).join('\n');
    check(`${kind}: EXPLAIN ${what} with a string parameter: an index scan of ${table}_pkey`,
      new RegExp(`Index (Only )?Scan using ${table}_pkey on ${table}\\b`).test(plan) && !plan.includes('Seq Scan'), plan);
  }
  checkEqual(`${kind}: ... and the lookup still finds its row among 5000`,
    (await client.query(`SELECT n FROM ${table} WHERE id = $1`, [ids[3]])).rows, [{ n: 4 }]);
}

async function main(client) {
  const server = (await client.query('SHOW server_version')).rows[0].server_version;
  console.log(`# pg ${pgVersion}, node ${process.version}, server ${server}`);
  await client.query('CREATE EXTENSION IF NOT EXISTS idgen');
  await client.query('SET search_path = public');
  await client.query('DROP TABLE IF EXISTS js_orders, js_ledger_events, js_ulid_orders, js_typeid_users');
  await client.query('DROP SEQUENCE IF EXISTS js_order_key');
  await client.query(`
    CREATE SEQUENCE js_order_key;
    CREATE TABLE js_orders (
      n int PRIMARY KEY,
      comb uuid NOT NULL UNIQUE DEFAULT idgen.comb(),
      v7 uuid NOT NULL UNIQUE DEFAULT idgen.uuidv7(),
      did idgen.distributed_id NOT NULL UNIQUE DEFAULT idgen.distributed_id(),
      did128 uuid NOT NULL UNIQUE DEFAULT idgen.distributed_id128(),
      grp uuid NOT NULL UNIQUE DEFAULT idgen.group_uuid('js_order', nextval('js_order_key')),
      note text NOT NULL)`);

  // ---- insert through the driver, read the defaults back ------------------------------------
  const returned = (await client.query(
    'INSERT INTO js_orders (n, note) VALUES ($1, $2) RETURNING comb, v7, did, did128, grp',
    [1, 'first'])).rows[0];
  for (let n = 2; n <= 8; n += 1) {
    await client.query('INSERT INTO js_orders (n, note) VALUES ($1, $2)', [n, `order ${n}`]);
  }
  const result = await client.query(
    'SELECT n, comb, v7, did, did128, grp, did::text AS did_text FROM js_orders ORDER BY n');
  const rows = result.rows;
  checkEqual('8 rows inserted with parameters, every id from its default', rows.length, 8);
  const first = rows[0];
  checkEqual('RETURNING gives the same ids as a later SELECT', returned,
    { comb: first.comb, v7: first.v7, did: first.did, did128: first.did128, grp: first.grp });
  check('uuid columns (comb, uuidv7, distributed_id128, group_uuid) are canonical lower-case strings',
    rows.every((r) => ['comb', 'v7', 'did128', 'grp'].every((c) => typeof r[c] === 'string' && UUID_RE.test(r[c]))),
    JSON.stringify(first));
  checkEqual('version nibbles: comb 4, uuidv7 7, distributed_id128 7, group_uuid 8',
    [first.comb[14], first.v7[14], first.did128[14], first.grp[14]], ['4', '7', '7', '8']);

  // The 28-digit DistributedId: numeric (oid 1700) reaches JS as a string by default.
  checkEqual('distributed_id (a domain) is described to the client as numeric, oid 1700',
    result.fields.find((f) => f.name === 'did').dataTypeID, 1700);
  check('distributed_id comes back as a string of all 28 digits, equal to the server\'s text',
    rows.every((r) => typeof r.did === 'string' && /^[1-9][0-9]{27}$/.test(r.did) && r.did === r.did_text),
    `${typeof first.did} ${first.did} vs ${first.did_text}`);
  const asNumber = Number(first.did);
  check('a JS Number would lose digits: Number(id) is not a safe integer and is another value',
    !Number.isSafeInteger(asNumber) && BigInt(asNumber).toString() !== first.did,
    `Number gives ${BigInt(asNumber)}`);
  checkEqual('BigInt(id) keeps it exactly, and ids increase with insert order as BigInts',
    rows.map((r) => BigInt(r.did).toString()).join(),
    rows.map((r) => r.did).sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1)).join());
  check('uuidv7 and distributed_id128 strings increase with insert order (string order = byte order)',
    rows.every((r, i) => i === 0 || (r.v7 > rows[i - 1].v7 && r.did128 > rows[i - 1].did128)));
  const groups = (await client.query(
    "SELECT idgen.group_uuid_key(grp) AS key, idgen.group_uuid_group(grp) AS grp, idgen.crc12('js_order') AS crc FROM js_orders ORDER BY n")).rows;
  checkEqual('group_uuid keys 1..8 (bigint: strings) from the sequence, group crc12(\'js_order\')',
    groups.map((g) => [g.key, g.grp]), rows.map((r, i) => [String(i + 1), groups[0].crc]));
  checkEqual('the client reads the same key and group from the uuid string',
    rows.map((r) => [String(parseInt(r.grp.replace(/-/g, '').slice(0, 12), 16)), parseInt(r.grp.slice(15, 18), 16)]),
    groups.map((g) => [g.key, g.grp]));

  // ---- the strings as parameters -------------------------------------------------------------
  const match = 'SELECT n FROM js_orders WHERE comb = $1 AND v7 = $2 AND did = $3 AND did128 = $4 AND grp = $5';
  const r4 = rows[3];
  checkEqual('uuid and numeric strings as parameters find the row',
    (await client.query(match, [r4.comb, r4.v7, r4.did, r4.did128, r4.grp])).rows, [{ n: 4 }]);
  checkEqual('the id as a BigInt parameter finds the row too',
    (await client.query('SELECT n FROM js_orders WHERE did = $1', [BigInt(first.did)])).rows, [{ n: 1 }]);
  checkEqual('the id as a Number parameter does not: the server gets the rounded value',
    (await client.query('SELECT n, $1::numeric::text AS sent FROM js_orders WHERE did = $1', [asNumber])).rows, []);
  const upper = `{${r4.comb.toUpperCase()}}`;
  checkEqual('an upper-case braced uuid parameter is read and returned canonical',
    (await client.query('SELECT comb FROM js_orders WHERE comb = $1', [upper])).rows, [{ comb: r4.comb }]);
  const clientDid = '9876543210987654321098765432';
  const clientUuid = '0a1b2c3d-4e5f-4a6b-8c7d-8e9fa0b1c2d3';
  checkEqual('client-made uuid and 28-digit strings stored and returned unchanged',
    (await client.query('INSERT INTO js_orders (n, comb, did, note) VALUES ($1, $2, $3, $4) RETURNING comb, did',
      [9, clientUuid, clientDid, 'client ids'])).rows, [{ comb: clientUuid, did: clientDid }]);
  const bigText = (2n ** 128n - 1n).toString();
  checkEqual('a 39-digit numeric survives both ways as a string (uuid_to_numeric / numeric_to_uuid)',
    (await client.query('SELECT idgen.uuid_to_numeric($1) AS num, idgen.numeric_to_uuid($2) AS id',
      ['ffffffff-ffff-ffff-ffff-ffffffffffff', bigText])).rows[0],
    { num: bigText, id: 'ffffffff-ffff-ffff-ffff-ffffffffffff' });

  // node-pg's binary results: its binary numeric parser returns a float, and uuid and event_id
  // have no binary parser, so their raw bytes are decoded as UTF-8. Text mode (the default) is
  // the one to use with idgen's types.
  const binary = (await client.query({
    text: 'SELECT did, comb, did::text AS did_text FROM js_orders WHERE n = $1', values: [1], binary: true,
  })).rows[0];
  check('with binary: true the 28-digit id becomes a lossy Number (so keep the default text mode)',
    typeof binary.did === 'number' && BigInt(binary.did).toString() !== binary.did_text,
    `${typeof binary.did} ${binary.did}`);
  check('with binary: true a uuid comes back as its raw bytes in a string, not the canonical form',
    typeof binary.comb === 'string' && !UUID_RE.test(binary.comb), JSON.stringify(binary.comb));

  // ---- encoders ------------------------------------------------------------------------------
  const enc = (await client.query(
    'SELECT idgen.to_alphanumeric($1::numeric) AS a, idgen.to_hexadecimal($1::numeric) AS h, idgen.to_alphanumeric($2::uuid) AS ua',
    [first.did, first.comb])).rows[0];
  check('to_alphanumeric of the id: 16 characters; of a uuid: 22', enc.a.length === 16 && enc.ua.length === 22,
    JSON.stringify(enc));
  checkEqual('to_hexadecimal agrees with BigInt\'s own hex', BigInt(`0x${enc.h}`).toString(), first.did);
  checkEqual('alphanumeric_to_numeric / hexadecimal_to_numeric / alphanumeric_to_uuid give them back',
    (await client.query(
      'SELECT idgen.alphanumeric_to_numeric($1) AS a, idgen.hexadecimal_to_numeric($2) AS h, idgen.alphanumeric_to_uuid($3) AS u',
      [enc.a, enc.h.toLowerCase(), enc.ua])).rows[0], { a: first.did, h: first.did, u: first.comb });
  checkEqual('try_alphanumeric_to_numeric of untrusted text: null',
    (await client.query('SELECT idgen.try_alphanumeric_to_numeric($1) AS v', ['not-an-id'])).rows, [{ v: null }]);
  await checkError(client, 'an untyped parameter to the overloaded to_alphanumeric is ambiguous (cast it)', '42725',
    'SELECT idgen.to_alphanumeric($1)', [first.did]);

  // ---- public ids under an explicit key (a Buffer: sent as a binary bytea parameter) ---------
  const key = Buffer.from(Array.from({ length: 32 }, (_, i) => i));
  const otherKey = Buffer.alloc(16, 7);
  const pub = (await client.query(
    'SELECT idgen.public_id($1::bigint, $4) AS b, idgen.public_id($2::numeric, $4) AS d, idgen.public_id($3::uuid, $4) AS u',
    ['42', first.did, first.comb, key])).rows[0];
  check('public ids of a bigint, a 28-digit id and a uuid under a Buffer key are uuid strings',
    [pub.b, pub.d, pub.u].every((p) => UUID_RE.test(p)) && pub.u !== first.comb, JSON.stringify(pub));
  checkEqual('they decode back to \'42\', the same 28-digit string and the same uuid',
    (await client.query(
      'SELECT idgen.public_id_to_bigint($1, $4) AS b, idgen.public_id_to_numeric($2, $4) AS d, idgen.public_id_to_uuid($3, $4) AS u',
      [pub.b, pub.d, pub.u, key])).rows[0], { b: '42', d: first.did, u: first.comb });
  checkEqual('under another key they decode to null',
    (await client.query('SELECT idgen.public_id_to_bigint($1, $3) AS b, idgen.public_id_to_numeric($2, $3) AS d',
      [pub.b, pub.d, otherKey])).rows[0], { b: null, d: null });
  await checkError(client, 'a public-id key of 15 bytes', '22023',
    'SELECT idgen.public_id($1::bigint, $2)', ['1', Buffer.alloc(15)]);

  // ---- errors --------------------------------------------------------------------------------
  await checkError(client, 'malformed alphanumeric text to the strict decoder', '22P02',
    'SELECT idgen.alphanumeric_to_numeric($1)', ['bad!']);
  await checkError(client, 'comb_check of a version 1 uuid', '22023',
    'SELECT idgen.comb_check($1)', ['6ba7b810-9dad-11d1-80b4-00c04fd430c8']);
  await checkError(client, 'a 29-digit string into the distributed_id column', '22003',
    'INSERT INTO js_orders (n, did, note) VALUES ($1, $2, $3)', [10, `1${'0'.repeat(28)}`, 'too big']);
  await checkError(client, 'a negative value into the distributed_id domain', '23514',
    'INSERT INTO js_orders (n, did, note) VALUES ($1, $2, $3)', [10, '-1', 'negative']);
  await checkError(client, 'a duplicate client-supplied uuid', '23505',
    'INSERT INTO js_orders (n, comb, note) VALUES ($1, $2, $3)', [11, first.comb, 'duplicate']);

  // ---- event ids: a ledger filled by the trigger ---------------------------------------------
  await client.query(`
    CREATE TABLE js_ledger_events (ledger_id bigint NOT NULL, id idgen.event_id NOT NULL,
      event text NOT NULL, entities jsonb NOT NULL, meta jsonb NOT NULL DEFAULT '{}',
      data jsonb NOT NULL, PRIMARY KEY (ledger_id, id));
    CREATE TRIGGER ledger_append BEFORE INSERT ON js_ledger_events
      FOR EACH ROW EXECUTE FUNCTION idgen.ledger_append()`);
  const ledger = (await client.query("SELECT idgen.ledger_create('js_ledger_events', $1, $2) AS l",
    ['node-pg-test', 'events from node-postgres'])).rows[0].l;
  check('ledger_create returns the ledger id as a string (bigint)', typeof ledger === 'string', typeof ledger);
  const ids = [];
  for (let k = 0; k < 3; k += 1) {
    // Objects as parameters are JSON.stringify'd by node-pg.
    ids.push((await client.query(
      'INSERT INTO js_ledger_events (ledger_id, event, entities, meta, data) VALUES ($1, $2, $3, $4, $5) RETURNING id',
      [ledger, 'thing-created', { thing: [`t${k}`] }, { actor: 'node-pg' }, { k, name: 'ünïcode' }])).rows[0].id);
  }
  check('event ids come back as strings of 32 lower-case hex digits',
    ids.every((i) => typeof i === 'string' && HEX32_RE.test(i)), JSON.stringify(ids));
  checkEqual('ledger_verify accepts the ledger the driver\'s inserts built',
    (await client.query('SELECT (idgen.ledger_verify(id, event, entities, meta, data ORDER BY id)).valid AS v FROM js_ledger_events WHERE ledger_id = $1',
      [ledger])).rows, [{ v: true }]);
  const eid = ids[1];
  const dashed = `${eid.slice(0, 8)}-${eid.slice(8, 12)}-${eid.slice(12, 16)}-${eid.slice(16, 20)}-${eid.slice(20)}`.toUpperCase();
  checkEqual('an event id round-trips as a text parameter, plain or dashed upper-case',
    (await client.query('SELECT $1::idgen.event_id AS a, $2::idgen.event_id AS b', [eid, dashed])).rows[0], { a: eid, b: eid });
  checkEqual('without idgen on the search_path, id = $1 with the id as a string finds the event',
    (await client.query("SELECT data->>'k' AS k FROM js_ledger_events WHERE id = $1", [eid])).rows, [{ k: '1' }]);
  checkEqual('... and so do IN lists, ranges and min/max',
    (await client.query("SELECT count(*)::int AS n, min(id) = $1 AS first FROM js_ledger_events "
      + "WHERE id IN ($1, $2) OR (id > $1 AND id <= $2)", [ids[0], ids[1]])).rows, [{ n: 2, first: true }]);
  checkEqual('OPERATOR(idgen.=), written for idgen 0.1.0, still finds the event',
    (await client.query("SELECT data->>'k' AS k FROM js_ledger_events WHERE id OPERATOR(idgen.=) $1::idgen.event_id",
      [eid])).rows, [{ k: '1' }]);
  await checkError(client, 'a malformed event id text', '22P02', 'SELECT $1::idgen.event_id', ['0123-not-hex']);
  // A Buffer goes out as a binary parameter: with the event_id type inferred, event_id_recv reads it.
  const raw = Buffer.from(eid, 'hex');
  checkEqual('a 16-byte Buffer parameter is an event id in binary (event_id_recv)',
    (await client.query('SELECT $1::idgen.event_id AS id, pg_typeof($1::idgen.event_id)::text AS t', [raw])).rows[0],
    { id: eid, t: 'idgen.event_id' });
  checkEqual('the client decodes micros, checksum and ledger id from the bytes as the server does',
    [raw.readBigUInt64BE(0).toString(), String(raw.readUInt32BE(8)), String(raw.readUInt32BE(12))],
    Object.values((await client.query(
      'SELECT idgen.event_id_micros($1) AS m, idgen.event_id_checksum($1) AS c, idgen.event_id_ledger($1) AS l',
      [eid])).rows[0]));
  await checkError(client, 'a 15-byte Buffer as a binary event id', '08P01', 'SELECT $1::idgen.event_id', [raw.subarray(0, 15)]);
  await checkError(client, 'a 17-byte Buffer as a binary event id', '22P03', 'SELECT $1::idgen.event_id',
    [Buffer.concat([raw, Buffer.alloc(1)])]);
  checkEqual('idgen.event_id_to_bytea gives the same 16 bytes as a Buffer',
    (await client.query('SELECT idgen.event_id_to_bytea($1) AS b', [eid])).rows[0].b.equals(raw), true);

  // ---- idgen.ulid and idgen.typeid keys: the text is the id ----------------------------------
  await client.query(`
    CREATE TABLE js_ulid_orders (id idgen.ulid PRIMARY KEY DEFAULT idgen.ulid(), n int NOT NULL UNIQUE);
    CREATE TABLE js_typeid_users (
      id idgen.typeid PRIMARY KEY DEFAULT idgen.new_typeid('user') CHECK (idgen.typeid_prefix(id) = 'user'),
      n int NOT NULL UNIQUE)`);
  await textKeyChecks(client, 'idgen.ulid', 'js_ulid_orders', 'idgen.to_ulid(id::uuid)', ULID_RE);
  await textKeyChecks(client, 'idgen.typeid', 'js_typeid_users', "idgen.typeid('user', id::uuid)", TYPEID_RE);

  const user = (await client.query('SELECT id, id::uuid AS u FROM js_typeid_users WHERE n = 1')).rows[0];
  const other = `order_${user.id.split('_')[1]}`; // the same uuid under another prefix
  checkEqual('idgen.typeid: a TypeID of another prefix finds nothing (equal only with the same prefix)',
    (await client.query('SELECT n FROM js_typeid_users WHERE id = $1', [other])).rows, []);
  checkEqual("idgen.try_typeid_to_uuid($1, 'user'): null for an order_ id, the uuid for the user_ id",
    (await client.query("SELECT idgen.try_typeid_to_uuid($1, 'user') AS o, idgen.try_typeid_to_uuid($2, 'user') AS u",
      [other, user.id])).rows[0], { o: null, u: user.u });
  await checkError(client, "idgen.typeid_to_uuid($1, 'user') of an order_ id", '22023',
    "SELECT idgen.typeid_to_uuid($1, 'user')", [other]);
  await checkError(client, 'a client-made order_ id into the user table (its CHECK)', '23514',
    'INSERT INTO js_typeid_users (id, n) VALUES ($1, $2)', [other, 0]);
  await checkError(client, 'idgen.typeid($1): node-pg sends the parameter untyped, and a literal overload exists',
    '42P18', 'SELECT idgen.typeid($1)', ['user']);
  const made = (await client.query('SELECT idgen.typeid($1::text) AS a, idgen.new_typeid($1) AS b', ['user'])).rows[0];
  check('idgen.typeid($1::text) and idgen.new_typeid($1) make user_ TypeIDs (as strings)',
    [made.a, made.b].every((m) => typeof m === 'string' && TYPEID_RE.test(m)), JSON.stringify(made));

  // idgen's functions on the types' columns, with string parameters as node-pg sends them.
  const known = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
  await client.query('INSERT INTO js_ulid_orders (id, n) VALUES ($1, -1)', [known]);
  checkEqual('idgen.ulid_timestamp(id) and id::timestamptz on an idgen.ulid column (strings in, Date out)',
    (await client.query('SELECT idgen.ulid_timestamp(id) AS a, id::timestamptz AS b, idgen.to_ulid(id) AS t ' +
      'FROM js_ulid_orders WHERE id = $1', [known])).rows.map((r) => [r.a.getTime(), r.b.getTime(), r.t]),
    [[1469922850259, 1469922850259, known]]);
  await checkError(client, 'idgen.ulid_timestamp($1): an untyped parameter matches its uuid and idgen.ulid forms',
    '42P18', 'SELECT idgen.ulid_timestamp($1)', [known]);
  checkEqual('idgen.ulid_timestamp($1::idgen.ulid) with the ULID string',
    (await client.query('SELECT idgen.ulid_timestamp($1::idgen.ulid) AS a', [known])).rows[0].a.getTime(), 1469922850259);
  checkEqual("idgen.typeid_valid(id, $1) and LIKE $1 on an idgen.typeid column",
    (await client.query("SELECT count(*) FILTER (WHERE idgen.typeid_valid(id, $1)) AS v, " +
      "count(*) FILTER (WHERE id LIKE $2) AS l, count(*) AS n FROM js_typeid_users", ['user', 'user\\_%'])).rows
      .map((r) => [r.v === r.n, r.l === r.n]), [[true, true]]);
}

(async () => {
  const client = new Client({ application_name: 'idgen_node_pg' });
  try {
    await client.connect();
    await main(client);
  } catch (e) {
    failed += 1;
    console.log(`not ok - node-pg: the test stopped on ${e.code || e.name}: ${String(e.message).replace(/\s+/g, ' ')}`);
  } finally {
    await client.end().catch(() => {});
  }
  process.exitCode = failed ? 1 : 0;
})();
