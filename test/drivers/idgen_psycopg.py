#!/usr/bin/python3
"""idgen through psycopg 3 (Debian's python3-psycopg), as an application uses it.

Connects with the standard PG* environment variables (conninfo ''), creates tables with idgen
defaults, inserts through the driver with parameters and reads the ids back as psycopg's native
types: uuid.UUID for the uuids, decimal.Decimal for the 28-digit idgen.distributed_id (a domain
over numeric(28,0), which the server describes to clients as plain numeric), str for
idgen.event_id in text mode and bytes in binary mode (psycopg's fallback for a type it has no
loader for). Also: public ids under an explicit key, the encoders, binary send/recv of
idgen.event_id through adapters registered for it (parameters and COPY), SQLSTATEs as psycopg
exceptions, and tables keyed by idgen.ulid and idgen.typeid, whose ids are str both ways: lookups
and keyset pages with str parameters, through the primary key's index (EXPLAIN with the same
parameters), JSON, and a TypeID of another prefix finding nothing. Prints TAP lines; exits 1 if
any check failed.

Run by test/t/031_drivers.pl; by hand: PGHOST=... PGPORT=... /usr/bin/python3 this-file.
Needs CREATE on the current database (it creates the extension if it is missing).
"""

import decimal
import re
import sys
import uuid

import psycopg
from psycopg import errors
from psycopg.adapt import Dumper, Loader
from psycopg.pq import Format
from psycopg.types import TypeInfo
from psycopg.types.json import Jsonb

failed = 0


def check(name, condition, detail=""):
    global failed
    if condition:
        print(f"ok - psycopg: {name}")
    else:
        failed += 1
        detail = " ".join(str(detail).split())  # one line: server messages can span several
        print(f"not ok - psycopg: {name}" + (f" ({detail})" if detail else ""))
    sys.stdout.flush()


def check_eq(name, got, expected):
    check(name, got == expected, f"expected {expected!r}, got {got!r}")


def check_error(conn, name, sqlstate, exception, query, params=None, cursor=None):
    """The query fails with `exception` carrying `sqlstate`, and the connection stays usable."""
    try:
        (cursor or conn.cursor()).execute(query, params)
    except psycopg.Error as e:
        ok = isinstance(e, exception) and e.sqlstate == sqlstate
        alive = conn.execute("SELECT 1").fetchone() == (1,)
        check(f"{name}: {exception.__name__} with sqlstate {sqlstate}, connection still usable",
              ok and alive,
              f"got {type(e).__name__} sqlstate {e.sqlstate}: {e}; connection usable: {alive}")
    else:
        check(f"{name}: raises {sqlstate}", False, "no error")


HEX32 = re.compile(r"^[0-9a-f]{32}$")
ULID_TEXT = re.compile(r"^[0-7][0-9A-HJKMNP-TV-Z]{25}$")  # Crockford's base32, upper case
TYPEID_TEXT = re.compile(r"^user_[0-7][0-9a-hjkmnp-tv-z]{25}$")
TEXT_SELECT = "SELECT n, comb, v7, did, did128, grp, did::text FROM py_orders ORDER BY n"


class EventId:
    """What an application might map idgen.event_id to: its 16 bytes."""

    def __init__(self, raw):
        self.raw = bytes(raw)

    def __eq__(self, other):
        return isinstance(other, EventId) and self.raw == other.raw

    def __repr__(self):
        return f"EventId({self.raw.hex()})"


class EventIdBinaryDumper(Dumper):
    format = Format.BINARY
    oid = None  # set from the catalog once connected: the extension's type has no fixed oid

    def dump(self, obj):
        return obj.raw


class EventIdBinaryLoader(Loader):
    format = Format.BINARY

    def load(self, data):
        return EventId(data)


def main():
    conn = psycopg.connect("", autocommit=True, application_name="idgen_psycopg")
    print(f"# psycopg {psycopg.__version__} ({psycopg.pq.__impl__} implementation, libpq "
          f"{psycopg.pq.version()}), server {conn.info.parameter_status('server_version')}")
    conn.execute("CREATE EXTENSION IF NOT EXISTS idgen")
    conn.execute("SET search_path = public")  # as applications have it: idgen is not on it
    conn.execute("DROP TABLE IF EXISTS py_orders, py_ledger_events, py_copy, py_ulid_orders, py_typeid_users")
    conn.execute("DROP SEQUENCE IF EXISTS py_order_key")
    conn.execute("""
        CREATE SEQUENCE py_order_key;
        CREATE TABLE py_orders (
          n int PRIMARY KEY,
          comb uuid NOT NULL UNIQUE DEFAULT idgen.comb(),
          v7 uuid NOT NULL UNIQUE DEFAULT idgen.uuidv7(),
          did idgen.distributed_id NOT NULL UNIQUE DEFAULT idgen.distributed_id(),
          did128 uuid NOT NULL UNIQUE DEFAULT idgen.distributed_id128(),
          grp uuid NOT NULL UNIQUE DEFAULT idgen.group_uuid('py_order', nextval('py_order_key')),
          note text NOT NULL)""")

    # ---- insert through the driver, read the defaults back -------------------------------
    cur = conn.cursor()
    cur.execute("INSERT INTO py_orders (n, note) VALUES (%s, %s) RETURNING comb, v7, did, did128, grp",
                (1, "first"))
    returned = cur.fetchone()
    cur.executemany("INSERT INTO py_orders (n, note) VALUES (%s, %s)",
                    [(n, f"order {n}") for n in range(2, 9)])
    rows = conn.execute(TEXT_SELECT).fetchall()
    check_eq("8 rows inserted with parameters, every id from its default", len(rows), 8)
    check_eq("RETURNING gives the same ids as a later SELECT", returned, rows[0][1:6])
    _, comb, v7, did, did128, grp, did_text = rows[0]
    check("uuid columns (comb, uuidv7, distributed_id128, group_uuid) come back as uuid.UUID",
          all(isinstance(r[i], uuid.UUID) for r in rows for i in (1, 2, 4, 5)),
          repr([type(x).__name__ for x in rows[0]]))
    check_eq("comb is a version 4 RFC uuid", (comb.variant, comb.version), (uuid.RFC_4122, 4))
    check_eq("uuidv7 is a version 7 RFC uuid", (v7.variant, v7.version), (uuid.RFC_4122, 7))
    check_eq("group_uuid is a version 8 RFC uuid", (grp.variant, grp.version), (uuid.RFC_4122, 8))
    check_eq("distributed_id128: version nibble 7, variant bit 0 (Architect.Identities)",
             ((did128.int >> 76) & 0xF, (did128.int >> 63) & 1), (7, 0))

    # The 28-digit DistributedId: the domain reaches the client as numeric (oid 1700).
    check_eq("distributed_id (a domain) is described to the client as numeric, oid 1700",
             cur.execute("SELECT did FROM py_orders LIMIT 1").description[0].type_code, 1700)
    check("distributed_id comes back as decimal.Decimal",
          all(isinstance(r[3], decimal.Decimal) for r in rows), type(did).__name__)
    check("every Decimal has all 28 digits, exponent 0, equal to the server's text form",
          all(str(r[3]) == r[6] and len(r[3].as_tuple().digits) == 28 and r[3].as_tuple().exponent == 0
              for r in rows), repr(rows[0][3]) + " vs " + rows[0][6])
    check("a float would lose digits of these ids (so Decimal is what keeps them)",
          any(int(float(r[3])) != int(r[3]) for r in rows))
    check("ids from one session increase with insert order: uuidv7, distributed_id, distributed_id128",
          all(sorted(rows, key=lambda r, i=i: r[i]) == rows for i in (2, 3, 4)))
    server = conn.execute("""SELECT idgen.group_uuid_key(grp), idgen.group_uuid_group(grp),
                                    idgen.crc12('py_order') FROM py_orders ORDER BY n""").fetchall()
    check_eq("group_uuid keys 1..8 from the sequence, group crc12('py_order'), as the server decodes",
             server, [(k, server[0][2], server[0][2]) for k in range(1, 9)])
    check_eq("the client decodes the same key and group from uuid.UUID's bits",
             [(r[5].int >> 80, (r[5].int >> 64) & 0xFFF) for r in rows], [s[:2] for s in server])

    # ---- the Python values as parameters -----------------------------------------------
    match = "SELECT n FROM py_orders WHERE comb = %s AND v7 = %s AND did = %s AND did128 = %s AND grp = %s"
    check_eq("uuid.UUID and Decimal parameters find the row (text parameters)",
             conn.execute(match, rows[3][1:6]).fetchall(), [(4,)])
    bcur = conn.cursor(binary=True)
    bcur.execute(match.replace("%s", "%b"), rows[5][1:6])
    check_eq("the same as binary parameters (uuid and numeric send/recv)", bcur.fetchall(), [(6,)])
    check_eq("a Python int of the DistributedId's value works as a parameter too (sent as numeric)",
             conn.execute("SELECT n FROM py_orders WHERE did = %s", [int(did)]).fetchall(), [(1,)])
    bcur.execute(TEXT_SELECT)
    check_eq("a binary cursor returns the same uuid.UUID and Decimal values", bcur.fetchall(), rows)

    client_uuid = uuid.uuid4()
    client_did = decimal.Decimal("9876543210987654321098765432")
    cur.execute("INSERT INTO py_orders (n, comb, did, note) VALUES (%s, %s, %s, %s) RETURNING comb, did, did::text",
                (9, client_uuid, client_did, "client ids"))
    back = cur.fetchone()
    check_eq("client-made uuid.UUID and 28-digit Decimal stored and returned unchanged",
             back, (client_uuid, client_did, "9876543210987654321098765432"))
    big = decimal.Decimal(2**128 - 1)  # 39 digits: more than decimal's default context precision
    check_eq("a 39-digit numeric survives both ways (uuid_to_numeric / numeric_to_uuid)",
             conn.execute("SELECT idgen.uuid_to_numeric(%s), idgen.numeric_to_uuid(%s)",
                          [uuid.UUID(int=2**128 - 1), big]).fetchone(),
             (big, uuid.UUID(int=2**128 - 1)))
    check_eq("uuid_to_numeric of a generated id equals the Python uuid's integer",
             int(conn.execute("SELECT idgen.uuid_to_numeric(%s)", [comb]).fetchone()[0]), comb.int)

    # ---- encoders ------------------------------------------------------------------------
    alnum, hexa, ualnum, uhex = conn.execute(
        "SELECT idgen.to_alphanumeric(%s), idgen.to_hexadecimal(%s), "
        "idgen.to_alphanumeric(%s), idgen.to_hexadecimal(%s)",
        [did, did, comb, comb]).fetchone()
    check("to_alphanumeric of a Decimal parameter: 16 characters, of a uuid.UUID: 22",
          len(alnum) == 16 and len(ualnum) == 22, f"{alnum!r}, {ualnum!r}")
    check_eq("to_hexadecimal agrees with Python's own hex of the Decimal and the uuid",
             (int(hexa, 16), uhex), (int(did), comb.hex.upper()))
    check_eq("alphanumeric_to_numeric / hexadecimal_to_numeric give the same Decimal back",
             conn.execute("SELECT idgen.alphanumeric_to_numeric(%s), idgen.hexadecimal_to_numeric(%s)",
                          [alnum, hexa.lower()]).fetchone(), (did, did))
    check_eq("alphanumeric_to_uuid / hexadecimal_to_uuid give the same uuid.UUID back",
             conn.execute("SELECT idgen.alphanumeric_to_uuid(%s), idgen.hexadecimal_to_uuid(%s)",
                          [ualnum, uhex]).fetchone(), (comb, comb))
    check_eq("the row is found by its alphanumeric id as a parameter",
             conn.execute("SELECT n FROM py_orders WHERE did = idgen.alphanumeric_to_numeric(%s)",
                          [alnum]).fetchall(), [(1,)])
    check_eq("try_alphanumeric_to_numeric of untrusted text: None",
             conn.execute("SELECT idgen.try_alphanumeric_to_numeric(%s)", ["not-an-id"]).fetchone(), (None,))
    check_error(conn, "a str parameter to the overloaded to_alphanumeric is ambiguous (cast it)",
                "42725", errors.AmbiguousFunction, "SELECT idgen.to_alphanumeric(%s)", [str(did)])

    # ---- public ids under an explicit key --------------------------------------------------
    key = bytes(range(32))
    other_key = bytes(range(100, 116))
    pub_big, pub_num, pub_uuid = conn.execute(
        "SELECT idgen.public_id(%s::bigint, %s), idgen.public_id(%s, %s), idgen.public_id(%s, %s)",
        [42, key, did, key, comb, key]).fetchone()
    check("public ids of a bigint, a Decimal and a uuid.UUID under a bytes key are uuid.UUID",
          all(isinstance(p, uuid.UUID) for p in (pub_big, pub_num, pub_uuid)) and pub_uuid != comb)
    check_eq("they decode back to 42, the same Decimal and the same uuid.UUID",
             conn.execute("SELECT idgen.public_id_to_bigint(%s, %s), idgen.public_id_to_numeric(%s, %s), "
                          "idgen.public_id_to_uuid(%s, %s)",
                          [pub_big, key, pub_num, key, pub_uuid, key]).fetchone(), (42, did, comb))
    check_eq("under another key the bigint and numeric public ids decode to None",
             conn.execute("SELECT idgen.public_id_to_bigint(%s, %s), idgen.public_id_to_numeric(%s, %s)",
                          [pub_big, other_key, pub_num, other_key]).fetchone(), (None, None))
    text_form = conn.execute("SELECT idgen.to_alphanumeric(idgen.public_id(%s, %s))", [did, key]).fetchone()[0]
    check_eq("the 22-character public id decodes back to the Decimal",
             conn.execute("SELECT idgen.public_id_to_numeric(idgen.alphanumeric_to_uuid(%s), %s)",
                          [text_form, key]).fetchone(), (did,))
    check_eq("bigint and DistributedId of one value share a public id (int vs Decimal parameter)",
             conn.execute("SELECT idgen.public_id(%s::bigint, %s) = idgen.public_id(%s, %s)",
                          [12345, key, decimal.Decimal(12345), key]).fetchone(), (True,))

    # ---- errors as psycopg exceptions ------------------------------------------------------
    check_error(conn, "malformed alphanumeric text to the strict decoder", "22P02",
                errors.InvalidTextRepresentation, "SELECT idgen.alphanumeric_to_numeric(%s)", ["bad!"])
    check_error(conn, "a public-id key of 15 bytes", "22023", errors.InvalidParameterValue,
                "SELECT idgen.public_id(%s::bigint, %s)", [1, bytes(15)])
    check_error(conn, "comb_check of a version 1 uuid.UUID", "22023", errors.InvalidParameterValue,
                "SELECT idgen.comb_check(%s)", [uuid.UUID("6ba7b810-9dad-11d1-80b4-00c04fd430c8")])
    check_error(conn, "a 29-digit Decimal into the distributed_id column", "22003",
                errors.NumericValueOutOfRange, "INSERT INTO py_orders (n, did, note) VALUES (%s, %s, %s)",
                [10, decimal.Decimal(10**28), "too big"])
    check_error(conn, "a negative Decimal into the distributed_id domain", "23514", errors.CheckViolation,
                "INSERT INTO py_orders (n, did, note) VALUES (%s, %s, %s)", [10, decimal.Decimal(-1), "negative"])
    check_error(conn, "a group_uuid key of 2^48", "22003", errors.NumericValueOutOfRange,
                "SELECT idgen.group_uuid(%s, %s)", ["py_order", 2**48])
    check_error(conn, "a duplicate client-supplied uuid", "23505", errors.UniqueViolation,
                "INSERT INTO py_orders (n, comb, note) VALUES (%s, %s, %s)", [11, comb, "duplicate"])

    # ---- event ids: a ledger filled by the trigger ---------------------------------------
    conn.execute("""
        CREATE TABLE py_ledger_events (ledger_id bigint NOT NULL, id idgen.event_id NOT NULL,
          event text NOT NULL, entities jsonb NOT NULL, meta jsonb NOT NULL DEFAULT '{}',
          data jsonb NOT NULL, PRIMARY KEY (ledger_id, id));
        CREATE TRIGGER ledger_append BEFORE INSERT ON py_ledger_events
          FOR EACH ROW EXECUTE FUNCTION idgen.ledger_append()""")
    ledger = conn.execute("SELECT idgen.ledger_create('py_ledger_events', %s, %s)",
                          ["psycopg-test", "events from psycopg"]).fetchone()[0]
    check("ledger_create returns the ledger id as a Python int", isinstance(ledger, int), repr(ledger))
    ids = []
    for k in range(3):
        cur.execute("INSERT INTO py_ledger_events (ledger_id, event, entities, meta, data) "
                    "VALUES (%s, %s, %s, %s, %s) RETURNING id",
                    (ledger, "thing-created", Jsonb({"thing": [f"t{k}"]}), Jsonb({"actor": "psycopg"}),
                     Jsonb({"k": k, "name": "ünïcode"})))
        ids.append(cur.fetchone()[0])
    check("event ids come back as str in text mode: 32 lower-case hex digits",
          all(isinstance(i, str) and HEX32.match(i) for i in ids), repr(ids))
    check_eq("ledger_verify accepts the ledger the driver's inserts built",
             conn.execute("SELECT (idgen.ledger_verify(id, event, entities, meta, data ORDER BY id)).valid "
                          "FROM py_ledger_events WHERE ledger_id = %s", [ledger]).fetchone(), (True,))
    eid = ids[1]
    dashed = str(uuid.UUID(eid)).upper()
    check_eq("an event id round-trips as a text parameter, plain or dashed upper-case",
             conn.execute("SELECT %s::idgen.event_id, %s::idgen.event_id", [eid, dashed]).fetchone(), (eid, eid))
    check_eq("without idgen on the search_path, id = %s with the id as a str finds the event",
             conn.execute("SELECT data->>'k' FROM py_ledger_events WHERE id = %s", [eid]).fetchall(), [("1",)])
    check_eq("... and so do IN lists, ranges and min/max",
             conn.execute("SELECT count(*), min(id) = %s FROM py_ledger_events "
                          "WHERE id IN (%s, %s) OR (id > %s AND id <= %s)",
                          [ids[0], ids[0], ids[1], ids[0], ids[1]]).fetchone(), (2, True))
    check_eq("OPERATOR(idgen.=), written for idgen 0.1.0, still finds the event",
             conn.execute("SELECT data->>'k' FROM py_ledger_events WHERE id OPERATOR(idgen.=) %s::idgen.event_id",
                          [eid]).fetchall(), [("1",)])
    check_error(conn, "a malformed event id text", "22P02", errors.InvalidTextRepresentation,
                "SELECT %s::idgen.event_id", ["0123-not-hex"])

    # Binary mode, nothing registered: psycopg has no loader for the type and hands over bytes.
    bcur.execute("SELECT id, idgen.event_id_to_bytea(id), id::text AS hex FROM py_ledger_events "
                 "WHERE ledger_id = %b ORDER BY id", [ledger])
    brows = bcur.fetchall()
    check("in a binary cursor an event id comes back as bytes of length 16 (no loader: raw send output)",
          all(isinstance(r[0], bytes) and len(r[0]) == 16 for r in brows), repr(brows[0][0]))
    check("those bytes are event_id_send's 16 bytes: equal to event_id_to_bytea and to the hex text",
          all(r[0] == r[1] == bytes.fromhex(r[2]) for r in brows) and [r[2] for r in brows][1:] == ids)
    raw = next(r[0] for r in brows if r[2] == eid)
    check_eq("the client decodes micros, checksum and ledger id from the bytes as the server does",
             (int.from_bytes(raw[:8], "big"), int.from_bytes(raw[8:12], "big"), int.from_bytes(raw[12:], "big")),
             conn.execute("SELECT idgen.event_id_micros(%s), idgen.event_id_checksum(%s), idgen.event_id_ledger(%s)",
                          [eid, eid, eid]).fetchone())
    check_eq("bytes as a parameter are bytea: the explicit bytea cast makes the event id",
             conn.execute("SELECT idgen.bytea_to_event_id(%s), %s::idgen.event_id", [raw, raw]).fetchone(), (eid, eid))

    # Binary mode with adapters registered for the type, as an application would map it.
    info = TypeInfo.fetch(conn, "idgen.event_id")
    check("TypeInfo.fetch finds idgen.event_id", info is not None and info.oid > 0, repr(info))
    EventIdBinaryDumper.oid = info.oid
    conn.adapters.register_dumper(EventId, EventIdBinaryDumper)  # for %b parameters
    conn.adapters.register_dumper(None, EventIdBinaryDumper)  # by oid, for COPY's set_types
    conn.adapters.register_loader(info.oid, EventIdBinaryLoader)
    # A cursor takes a copy of the connection's adapters when it is made: new cursors from here.
    bcur, cur = conn.cursor(binary=True), conn.cursor()
    value = EventId(raw)
    bcur.execute("SELECT %b, %b::text, pg_typeof(%b)::text", [value, value, value])
    check_eq("an EventId sent with the event_id oid in binary (event_id_recv) comes back equal",
             bcur.fetchone(), (value, eid, "idgen.event_id"))
    check_eq("a binary EventId parameter finds the ledger row",
             conn.execute("SELECT data->>'k' FROM py_ledger_events WHERE id OPERATOR(idgen.=) %b",
                          [value]).fetchall(), [("1",)])
    check_error(conn, "15 bytes sent as a binary event_id", "08P01", errors.ProtocolViolation,
                "SELECT %b", [EventId(raw[:15])])
    check_error(conn, "17 bytes sent as a binary event_id", "22P03", errors.InvalidBinaryRepresentation,
                "SELECT %b", [EventId(raw + b"\0")])

    # COPY in binary: event_id_recv and event_id_send per row, next to uuid and numeric.
    conn.execute("CREATE TABLE py_copy (ev idgen.event_id, u uuid, d idgen.distributed_id)")
    copy_rows = [(EventId(bytes.fromhex(i)), r[1], r[3]) for i, r in zip(ids, rows)]
    with cur.copy("COPY py_copy FROM STDIN (FORMAT BINARY)") as copy:
        copy.set_types([info.oid, "uuid", "numeric"])
        for row in copy_rows:
            copy.write_row(row)
    check_eq("COPY FROM STDIN (FORMAT BINARY) stores event ids, uuids and 28-digit ids exactly",
             conn.execute("SELECT ev::text, u, d::text FROM py_copy ORDER BY ev").fetchall(),
             [(i, r[1], r[6]) for i, r in zip(ids, rows)])
    with cur.copy("COPY (SELECT ev, u, d FROM py_copy ORDER BY ev) TO STDOUT (FORMAT BINARY)") as copy:
        copy.set_types([info.oid, "uuid", "numeric"])
        copied = list(copy.rows())
    check_eq("COPY TO STDOUT (FORMAT BINARY) reads them back as EventId, uuid.UUID and Decimal",
             copied, copy_rows)

    # ---- idgen.ulid and idgen.typeid keys: the text is the id ------------------------------
    conn.execute("""
        CREATE TABLE py_ulid_orders (id idgen.ulid PRIMARY KEY DEFAULT idgen.ulid(), n int NOT NULL UNIQUE);
        CREATE TABLE py_typeid_users (
          id idgen.typeid PRIMARY KEY DEFAULT idgen.new_typeid('user') CHECK (idgen.typeid_prefix(id) = 'user'),
          n int NOT NULL UNIQUE)""")
    # (type, table, the server's text of the key from its uuid, the text's pattern)
    for kind, table, text_of_uuid, pattern in (
            ("idgen.ulid", "py_ulid_orders", "idgen.to_ulid(id::uuid)", ULID_TEXT),
            ("idgen.typeid", "py_typeid_users", "idgen.typeid('user', id::uuid)", TYPEID_TEXT)):
        text_key_checks(conn, kind, table, text_of_uuid, pattern)

    users = [r[0] for r in conn.execute("SELECT id FROM py_typeid_users ORDER BY id LIMIT 2")]
    other = "order_" + users[0].split("_")[1]  # the same uuid under another prefix
    check_eq("idgen.typeid: a TypeID of another prefix finds nothing (equal only with the same prefix)",
             conn.execute("SELECT n FROM py_typeid_users WHERE id = %s", [other]).fetchall(), [])
    check_eq("idgen.try_typeid_to_uuid(text, 'user'): None for an order_ id, the uuid for the user_ id",
             conn.execute("SELECT idgen.try_typeid_to_uuid(%s, 'user'), idgen.try_typeid_to_uuid(%s, 'user')",
                          [other, users[0]]).fetchone(),
             (None, conn.execute("SELECT id::uuid FROM py_typeid_users WHERE id = %s", [users[0]]).fetchone()[0]))
    check_error(conn, "idgen.typeid_to_uuid(text, 'user') of an order_ id", "22023", errors.InvalidParameterValue,
                "SELECT idgen.typeid_to_uuid(%s, 'user')", [other])
    check_error(conn, "a client-made order_ id into the user table (its CHECK)", "23514", errors.CheckViolation,
                "INSERT INTO py_typeid_users (id, n) VALUES (%s, %s)", [other, 0])
    check_error(conn, "idgen.typeid(%s): a str parameter is untyped and a literal overload exists",
                "42P18", errors.IndeterminateDatatype, "SELECT idgen.typeid(%s)", ["user"])
    made = conn.execute("SELECT idgen.typeid(%s::text), idgen.new_typeid(%s)", ["user", "user"]).fetchone()
    check("idgen.typeid(%s::text) and idgen.new_typeid(%s) make user_ TypeIDs (as str)",
          all(isinstance(m, str) and TYPEID_TEXT.match(m) for m in made), repr(made))

    bcur = conn.cursor(binary=True)
    bcur.execute("SELECT u.id, u.id::uuid, t.id, t.id::uuid FROM py_ulid_orders u, py_typeid_users t "
                 "WHERE u.n = 1 AND t.n = 1")
    ulid_raw, ulid_uuid, typeid_raw, typeid_uuid = bcur.fetchone()
    check_eq("in a binary cursor (no loader): an idgen.ulid is its uuid's 16 bytes, an idgen.typeid "
             "those then the prefix",
             (ulid_raw, typeid_raw), (ulid_uuid.bytes, typeid_uuid.bytes + b"user"))
    binary_loader_checks(conn)

    conn.close()
    return failed


def docs_python_block(first_line):
    """The ```python block of docs/drivers.md that starts with first_line, as printed there."""
    with open("docs/drivers.md", encoding="utf-8") as f:
        blocks = re.findall(r"^```python\n(.*?)^```$", f.read(), re.S | re.M)
    found = [b for b in blocks if b.startswith(first_line + "\n")]
    if len(found) != 1:
        raise RuntimeError(f"docs/drivers.md has {len(found)} python blocks starting {first_line!r}")
    return found[0]


def binary_loader_checks(conn):
    """docs/drivers.md's loaders, run as printed: binary cursors give the text cursors' str."""
    namespace = {}
    exec(docs_python_block("# idgen.ulid and idgen.typeid as str in psycopg's binary cursors"), namespace)
    values = """
        SELECT u, t FROM (VALUES
          ('01ARZ3NDEKTSV4RRFFQ69G5FAV'::idgen.ulid, 'user_01h455vb4pex5vsknk084sn02q'::idgen.typeid),
          ('00000000000000000000000000', '00000000000000000000000000'),
          ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ', (repeat('z', 63) || '_7zzzzzzzzzzzzzzzzzzzzzzzzz')::idgen.typeid),
          (NULL, NULL)) v(u, t)
        UNION ALL SELECT id, idgen.new_typeid('user_group') FROM py_ulid_orders
        UNION ALL SELECT gen_random_uuid()::idgen.ulid, idgen.typeid('a', gen_random_uuid())::idgen.typeid
          FROM generate_series(1, 500)"""
    conn.execute("CREATE TEMP TABLE py_binary_ids AS " + values)
    query = "SELECT u, t FROM py_binary_ids ORDER BY u NULLS LAST, t"
    as_text = conn.execute(query).fetchall()
    check("without the loaders, a binary cursor gives bytes",
          all(isinstance(v, bytes) for v in conn.cursor(binary=True).execute(query).fetchone()))
    namespace["register_idgen_loaders"](conn)
    bcur = conn.cursor(binary=True)
    as_binary = bcur.execute(query).fetchall()
    check_eq(f"with docs/drivers.md's loaders, a binary cursor gives the text cursor's str ({len(as_text)} rows: "
             "the edges, an empty and a 63-character prefix, NULLs)", as_binary, as_text)
    check("... and they are str", all(isinstance(v, str) for row in as_binary[:-1] for v in row), repr(as_binary[:2]))
    check_eq("a binary cursor's ids find their rows as str parameters",
             [bcur.execute("SELECT count(*) FROM py_binary_ids WHERE u = %s AND t = %s", row).fetchone()[0]
              for row in as_binary[:3]], [1, 1, 1])


def text_key_checks(conn, kind, table, text_of_uuid, pattern):
    """A table keyed by idgen.ulid or idgen.typeid, through psycopg: the ids are str both ways."""
    cur = conn.cursor()
    cur.execute(f"INSERT INTO {table} (n) VALUES (%s) RETURNING id", [1])
    returned = cur.fetchone()[0]
    cur.executemany(f"INSERT INTO {table} (n) VALUES (%s)", [(n,) for n in range(2, 11)])
    rows = conn.execute(f"SELECT id, {text_of_uuid}, n FROM {table} ORDER BY n").fetchall()
    ids = [r[0] for r in rows]
    check(f"{kind}: 10 rows from the column DEFAULT, read back as str matching the format",
          len(rows) == 10 and all(isinstance(i, str) and pattern.match(i) for i in ids), repr(ids[:2]))
    check_eq(f"{kind}: RETURNING gives the first id; each str equals {text_of_uuid}",
             [returned] + [r[0] for r in rows], [rows[0][0]] + [r[1] for r in rows])
    check_eq(f"{kind}: ORDER BY id is insert order, and the order of the str ids",
             [r[0] for r in conn.execute(f"SELECT id FROM {table} ORDER BY id")], sorted(ids))
    check_eq(f"{kind}: ... so ids of one session increase with insert order", sorted(ids), ids)

    # search_path is public: the comparison operators live in pg_catalog, so no cast is needed.
    check_eq(f"{kind}: WHERE id = %s with the text as a str parameter finds the row",
             conn.execute(f"SELECT n FROM {table} WHERE id = %s", [ids[3]]).fetchall(), [(4,)])
    if kind == "idgen.ulid":
        check_eq("idgen.ulid: the lower-case text finds it too (ULID text is read in either case)",
                 conn.execute(f"SELECT n FROM {table} WHERE id = %s", [ids[3].lower()]).fetchall(), [(4,)])
        as_uuid = conn.execute(f"SELECT id::uuid FROM {table} WHERE n = 4").fetchone()[0]
        check_eq("idgen.ulid: a uuid.UUID parameter finds it with a cast, %s::idgen.ulid",
                 conn.execute(f"SELECT n FROM {table} WHERE id = %s::idgen.ulid", [as_uuid]).fetchall(), [(4,)])
        check_error(conn, "idgen.ulid = a uuid.UUID parameter without the cast", "42883",
                    errors.UndefinedFunction, f"SELECT n FROM {table} WHERE id = %s", [as_uuid])
        check_eq("idgen.ulid: untrusted text through try_ulid_to_uuid(%s)::idgen.ulid: the row, or none",
                 [conn.execute(f"SELECT n FROM {table} WHERE id = idgen.try_ulid_to_uuid(%s)::idgen.ulid",
                               [t]).fetchall() for t in (ids[3], "not-a-ulid")], [[(4,)], []])
        check_eq("idgen.ulid: min(id) and max(id) are the first and the last id",
                 conn.execute(f"SELECT min(id), max(id) FROM {table}").fetchone(), (ids[0], ids[-1]))
    malformed = "01ARZ3NDEKTSV4RRFFQ69G5FAI" if kind == "idgen.ulid" else ids[3].upper()  # I; upper case
    check_error(conn, f"{kind}: malformed text as the parameter", "22P02", errors.InvalidTextRepresentation,
                f"SELECT n FROM {table} WHERE id = %s", [malformed])
    check_error(conn, f"{kind}: a str sent as %b is typed text, and {kind} = text has no operator",
                "42883", errors.UndefinedFunction, f"SELECT n FROM {table} WHERE id = %b", [ids[3]])

    # Keyset pagination: the first page, then WHERE id > the last id seen, 3 rows a page.
    pages = [conn.execute(f"SELECT id FROM {table} ORDER BY id LIMIT %s", [3]).fetchall()]
    while len(pages[-1]) == 3:
        pages.append(conn.execute(f"SELECT id FROM {table} WHERE id > %s ORDER BY id LIMIT %s",
                                  [pages[-1][-1][0], 3]).fetchall())
    seen = [r[0] for page in pages for r in page]
    check_eq(f"{kind}: keyset pages (WHERE id > %s ORDER BY id LIMIT 3) give every row once, in order",
             ([len(page) for page in pages], seen), ([3, 3, 3, 1], sorted(ids)))

    json_doc, json_row = conn.execute(f"SELECT to_jsonb(k), row_to_json(k) FROM {table} k WHERE id = %s",
                                      [ids[0]]).fetchone()
    check_eq(f"{kind}: to_jsonb and row_to_json show the id as its text",
             (json_doc, json_row), ({"id": ids[0], "n": 1}, {"id": ids[0], "n": 1}))

    # The lookup with the same str parameter uses the primary key's index once the table is big
    # enough for the planner to care.
    conn.execute(f"INSERT INTO {table} (n) SELECT g FROM generate_series(11, 5000) g")
    conn.execute(f"ANALYZE {table}")
    for what, query, params in (
            ("WHERE id = %s", f"SELECT n FROM {table} WHERE id = %s", [ids[3]]),
            ("WHERE id > %s ORDER BY id LIMIT 3", f"SELECT n FROM {table} WHERE id > %s ORDER BY id LIMIT 3",
             [ids[3]])):
        plan = "\n".join(r[0] for r in conn.execute("EXPLAIN " + query, params))
        check(f"{kind}: EXPLAIN {what} with a str parameter: an index scan of {table}_pkey",
              re.search(rf"Index (Only )?Scan using {table}_pkey on {table}\b", plan) is not None
              and "Seq Scan" not in plan, plan)
    check_eq(f"{kind}: ... and the lookup still finds its row among 5000",
             conn.execute(f"SELECT n FROM {table} WHERE id = %s", [ids[3]]).fetchall(), [(4,)])


if __name__ == "__main__":
    try:
        sys.exit(1 if main() else 0)
    except Exception as e:  # a crash mid-run is one more failure, reported as TAP
        print(f"not ok - psycopg: the test stopped on {type(e).__name__}: {' '.join(str(e).split())}")
        sys.exit(1)
