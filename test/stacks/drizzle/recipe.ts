// idgen from Drizzle ORM (0.45, on node-postgres), with the tables made by drizzle-kit.
//
// schema.ts declares one table per key family, the key filled by the column's DEFAULT
// (.default(sql`idgen.comb()`)); `drizzle-kit generate` writes the SQL and `drizzle-kit migrate`
// applies it before this program runs. Inserts leave the key out and read it back with
// .returning(). Every key stays a string in the application: node-postgres hands uuid, bigint,
// numeric, idgen.ulid and idgen.typeid over as text, and schema.ts's custom types keep it so.
// Drizzle's own bigint() reads a Snowflake id as a rounded number or as a BigInt that
// JSON.stringify refuses; the checks below show both, next to the string that works.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateDrizzleJson, generateMigration } from 'drizzle-kit/api';
import { asc, eq, gt, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { bigint, customType, numeric, pgTable, text } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { z } from 'zod';
import { events, invoices, orders, posts, shipments, users } from './schema';

const pool = new pg.Pool(); // the libpq variables: PGHOST, PGPORT, PGUSER, PGDATABASE
const db = drizzle({ client: pool });

let failed = 0;
function check(description: string, passed: boolean) {
  console.log(`${passed ? 'ok' : 'not ok'} - ${description}`);
  if (!passed) failed += 1;
}

// What a failed query raised: Drizzle wraps node-postgres's error, whose code is the SQLSTATE.
async function raised(query: Promise<unknown>): Promise<{ code?: string; message: string } | null> {
  return query.then(() => null, (error) => error.cause ?? error);
}

// Every row, a page at a time: WHERE id > the last id seen ORDER BY id LIMIT size.
async function keysetPages<Row extends { id: string }>(
  size: number, page: (after: string | undefined) => Promise<Row[]>) {
  const pages = [await page(undefined)];
  while (pages[pages.length - 1].length === size) pages.push(await page(pages[pages.length - 1][size - 1].id));
  return pages;
}

// The database's own text of a key, to compare the application's value with.
async function idText(table: string, id: string): Promise<string> {
  const { rows } = await pool.query(`SELECT id::text FROM ${table} WHERE id = $1`, [id]);
  return rows[0]?.id;
}

// A migrations folder as drizzle-kit generate writes one: meta/_journal.json and the SQL.
function migrationsFolder(statements: string[]): string {
  const folder = mkdtempSync(join(tmpdir(), 'drizzle-'));
  mkdirSync(join(folder, 'meta'));
  writeFileSync(join(folder, '0000_naive.sql'), statements.join('\n--> statement-breakpoint\n'));
  writeFileSync(join(folder, 'meta', '_journal.json'), JSON.stringify({
    version: '7',
    dialect: 'postgresql',
    entries: [{ idx: 0, version: '7', when: Date.now(), tag: '0000_naive', breakpoints: true }],
  }));
  return folder;
}

async function migrationTraps() {
  const { rows } = await pool.query(`
    SELECT attrelid::regclass::text AS "table", format_type(atttypid, atttypmod) AS type,
           pg_get_expr(adbin, adrelid) AS "default"
    FROM pg_attribute JOIN pg_attrdef ON (adrelid, adnum) = (attrelid, attnum)
    WHERE attname = 'id' AND attrelid::regclass::text IN ('orders', 'events', 'shipments', 'users', 'posts', 'invoices')
    ORDER BY 1`);
  check('Drizzle: drizzle-kit made each key with its idgen type and DEFAULT',
    rows.map((r) => `${r.table} ${r.type} ${r.default}`).join('\n') === [
      'events uuid idgen.uuidv7()',
      'invoices idgen.distributed_id idgen.distributed_id()',
      'orders uuid idgen.comb()',
      'posts bigint idgen.snowflake()',
      'shipments idgen.ulid idgen.ulid()',
      "users idgen.typeid idgen.new_typeid('user'::text)",
    ].join('\n'));

  // The trap: the type's name as one string, as SQL would write it.
  const naiveType = customType<{ data: string }>({ dataType: () => 'idgen.distributed_id' });
  const naiveInvoices = pgTable('naive_invoices', {
    id: naiveType('id').primaryKey().default(sql`idgen.distributed_id()`),
  });
  const naive = await generateMigration(generateDrizzleJson({}), generateDrizzleJson({ naiveInvoices }));
  check('drizzle-kit: a customType named \'idgen.distributed_id\' is written as one quoted name, "idgen.distributed_id"',
    naive.join().includes('"id" "idgen.distributed_id" PRIMARY KEY'));
  const folder = migrationsFolder(naive);
  const cli = spawnSync('node_modules/.bin/drizzle-kit', ['migrate'], {
    cwd: fileURLToPath(new URL('.', import.meta.url)),
    env: { ...process.env, DRIZZLE_OUT: folder },
    encoding: 'utf8',
  });
  check('drizzle-kit: migrate then exits 1 and prints no error',
    cli.status === 1 && !/does not exist|error/i.test(cli.stdout + cli.stderr));
  const error = await raised(migrate(db, { migrationsFolder: folder }));
  check('Drizzle: drizzle-orm\'s migrate() of the same migration throws the server\'s error (42704)',
    error?.code === '42704' && error.message === 'type "idgen.distributed_id" does not exist');
  rmSync(folder, { recursive: true });
  const fixed = await generateMigration(generateDrizzleJson({}), generateDrizzleJson({ invoices }));
  check('drizzle-kit: the dataType idgen"."distributed_id is written "idgen"."distributed_id", the type',
    fixed.join().includes('"id" "idgen"."distributed_id" PRIMARY KEY DEFAULT idgen.distributed_id()'));
}

async function uuidKeys() {
  const inserted = await db.insert(orders)
    .values([{ customer: 'ada' }, { customer: 'grace' }, { customer: 'linus' }]).returning();
  check('Drizzle: the COMB keys are read back after the insert, as uuid strings of version 4',
    inserted.every((o) => /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(o.id)));
  const [{ valid }] = await db.select({ valid: sql<boolean>`bool_and(idgen.comb_valid(${orders.id}))` }).from(orders);
  check('Drizzle: they are COMBs of this minute (idgen.comb_valid)', valid === true);
  const order = inserted[1];
  check('Drizzle: the row is found by its key, which is the stored value',
    (await db.select().from(orders).where(eq(orders.id, order.id)))[0]?.customer === 'grace'
    && order.id === await idText('orders', order.id));
  // The short URL form, 22 characters, decoded by the try_ form: NULL, so no row, for bad text.
  const byUrlId = (urlId: string) => db.select().from(orders)
    .where(eq(orders.id, sql`idgen.try_alphanumeric_to_uuid(${urlId})`));
  const [{ urlId }] = await db.select({ urlId: sql<string>`idgen.to_alphanumeric(${orders.id})` })
    .from(orders).where(eq(orders.id, order.id));
  check('Drizzle: the 22-character URL id (idgen.to_alphanumeric) finds the order',
    urlId.length === 22 && (await byUrlId(urlId))[0]?.id === order.id);
  check('Drizzle: a malformed URL id finds nothing, without an error', (await byUrlId('not-an-id')).length === 0);
  const pages = await keysetPages(2, (after) => db.select().from(orders)
    .where(after === undefined ? undefined : gt(orders.id, after)).orderBy(asc(orders.id)).limit(2));
  const all = await db.select().from(orders).orderBy(asc(orders.id));
  check('Drizzle: keyset pages (id > the last id, ordered by id) give every order once, in key order',
    pages.map((p) => p.length).join() === '2,1' && pages.flat().map((o) => o.id).join() === all.map((o) => o.id).join());

  const made = await db.insert(events).values([{ kind: 'a' }, { kind: 'b' }, { kind: 'c' }]).returning();
  check('Drizzle: the UUIDv7 keys are read back as uuid strings of version 7, increasing',
    made.every((e) => /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(e.id))
    && made[0].id < made[1].id && made[1].id < made[2].id);
  const [{ eventUrlId }] = await db.select({ eventUrlId: sql<string>`idgen.to_alphanumeric(${events.id})` })
    .from(events).where(eq(events.id, made[2].id));
  const found = await db.select().from(events).where(eq(events.id, sql`idgen.try_alphanumeric_to_uuid(${eventUrlId})`));
  check('Drizzle: an event is found by its URL id', found[0]?.kind === 'c');
  const eventPages = await keysetPages(2, (after) => db.select().from(events)
    .where(after === undefined ? undefined : gt(events.id, after)).orderBy(asc(events.id)).limit(2));
  check('Drizzle: keyset pages of events give every event once, in creation order',
    eventPages.flat().map((e) => e.kind).join() === 'a,b,c');
}

async function textKeys() {
  const shipped = await db.insert(shipments).values([0, 1, 2, 3, 4, 5, 6].map((parcel) => ({ parcel }))).returning();
  check('Drizzle: the ULID keys are read back as strings, the 26-character text the database holds',
    shipped.every((s) => /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/.test(s.id))
    && shipped[3].id === await idText('shipments', shipped[3].id));
  check('Drizzle: a shipment is found by its ULID text',
    (await db.select().from(shipments).where(eq(shipments.id, shipped[3].id)))[0]?.parcel === 3);
  const pages = await keysetPages(3, (after) => db.select().from(shipments)
    .where(after === undefined ? undefined : gt(shipments.id, after)).orderBy(asc(shipments.id)).limit(3));
  check('Drizzle: keyset pages of shipments give every shipment once, in creation order',
    pages.map((p) => p.length).join() === '3,3,1' && pages.flat().map((s) => s.parcel).join() === '0,1,2,3,4,5,6');
  const typed = await raised(db.select().from(shipments).where(eq(shipments.id, 'not-a-ulid')));
  check('Drizzle: malformed ULID text as the key raises 22P02', typed?.code === '22P02');
  const byText = (text: string) => db.select().from(shipments)
    .where(eq(shipments.id, sql`idgen.try_ulid_to_uuid(${text})::idgen.ulid`));
  check('Drizzle: through idgen.try_ulid_to_uuid it finds nothing, without an error, and the real text finds the row',
    (await byText('not-a-ulid')).length === 0 && (await byText(shipped[5].id))[0]?.parcel === 5);

  const people = await db.insert(users).values([{ name: 'ada' }, { name: 'grace' }, { name: 'linus' }]).returning();
  check('Drizzle: the TypeID keys are read back as strings, the text the database holds',
    people.every((u) => /^user_[0-7][0-9a-hjkmnp-tv-z]{25}$/.test(u.id))
    && people[1].id === await idText('users', people[1].id));
  check('Drizzle: a user is found by its TypeID text',
    (await db.select().from(users).where(eq(users.id, people[1].id)))[0]?.name === 'grace');
  const userPages = await keysetPages(2, (after) => db.select().from(users)
    .where(after === undefined ? undefined : gt(users.id, after)).orderBy(asc(users.id)).limit(2));
  check('Drizzle: keyset pages of users give every user once, in creation order',
    userPages.map((p) => p.length).join() === '2,1' && userPages.flat().map((u) => u.name).join() === 'ada,grace,linus');
  const orderId = `order_${people[1].id.split('_')[1]}`; // the same uuid, another prefix
  const byTypeId = (text: string) => db.select().from(users).where(eq(users.id, sql`idgen.try_typeid(${text}, 'user')`));
  check('Drizzle: a TypeID of another prefix, or malformed text, finds no user through idgen.try_typeid',
    (await byTypeId(orderId)).length === 0 && (await byTypeId('not an id')).length === 0
    && (await byTypeId(people[1].id))[0]?.name === 'grace');
  const refused = await raised(db.insert(users).values({ id: orderId, name: 'not a user' }));
  check('Drizzle: the CHECK refuses an order_ id as a user\'s key (23514)', refused?.code === '23514');

  // Validating ids at the API's edge with Zod 4. z.uuid() is an RFC 9562 uuid (version 1 to 8,
  // variant 10): a ULID's uuid has random bits there, a DistributedId128 never has the variant.
  const { rows: [other] } = await pool.query(
    "SELECT idgen.ulid_to_uuid('01ARZ3NDEKTSV4RRFFQ69G5FAV')::text AS ulid, idgen.distributed_id128()::text AS did128");
  check(`Zod: z.uuid() refuses a ULID as uuid (${other.ulid}) and a DistributedId128`,
    !z.uuid().safeParse(other.ulid).success && !z.uuid().safeParse(other.did128).success);
  const { rows: asUuid } = await pool.query('SELECT id::uuid::text AS id FROM shipments');
  check('Zod: z.guid() (any 8-4-4-4-12 hex) accepts both, and every shipment\'s uuid',
    [other.ulid, other.did128, ...asUuid.map((r) => r.id)].every((id) => z.guid().safeParse(id).success));
  check('Zod: z.ulid() accepts the ULID keys; a TypeID needs a regex of its own',
    shipped.every((s) => z.ulid().safeParse(s.id).success)
    && people.every((u) => z.string().regex(/^user_[0-7][0-9a-hjkmnp-tv-z]{25}$/).safeParse(u.id).success));
}

// The posts table as Drizzle's own bigint() would read it.
const postsAsNumber = pgTable('posts', {
  id: bigint('id', { mode: 'number' }).primaryKey(),
  title: text('title').notNull(),
});
const postsAsBigInt = pgTable('posts', {
  id: bigint('id', { mode: 'bigint' }).primaryKey(),
  title: text('title').notNull(),
});
// The invoices table with numeric({ mode: 'number' }).
const invoicesAsNumber = pgTable('invoices', { id: numeric('id', { mode: 'number' }).primaryKey() });

async function numberKeys() {
  const written = await db.insert(posts)
    .values([...Array(10).keys()].map((k) => ({ title: `post ${k}` }))).returning();
  check('Drizzle: the Snowflake keys are read back as strings, above 2^53, the text the database holds',
    written.every((p) => /^[0-9]{18,19}$/.test(p.id) && BigInt(p.id) > 2n ** 53n)
    && written[4].id === await idText('posts', written[4].id));
  const post = written[4];
  const [{ urlId }] = await db.select({ urlId: sql<string>`idgen.to_alphanumeric(${posts.id})` })
    .from(posts).where(eq(posts.id, post.id));
  const byUrlId = (text: string) => db.select().from(posts)
    .where(eq(posts.id, sql`idgen.try_alphanumeric_to_bigint(${text})`));
  check('Drizzle: the 11-character URL id finds the post; a malformed one nothing, without an error',
    urlId.length === 11 && (await byUrlId(urlId))[0]?.title === 'post 4' && (await byUrlId('not-an-id')).length === 0);
  const pages = await keysetPages(4, (after) => db.select().from(posts)
    .where(after === undefined ? undefined : gt(posts.id, after)).orderBy(asc(posts.id)).limit(4));
  check('Drizzle: keyset pages of posts give every post once, in creation order',
    pages.map((p) => p.length).join() === '4,4,2'
    && pages.flat().map((p) => p.id).join() === written.map((p) => p.id).join());

  const asNumbers = await db.select().from(postsAsNumber).orderBy(asc(postsAsNumber.id));
  check('Drizzle: bigint({ mode: \'number\' }) reads different Snowflake ids as one number',
    new Set(asNumbers.map((p) => p.id)).size < written.length);
  const inexact = written.find((p) => String(Number(p.id)) !== p.id)!; // (nearly every one)
  const byNumber = await db.select().from(postsAsNumber).where(eq(postsAsNumber.id, Number(inexact.id)));
  // The number's text is another integer, a few hundred away at most: no row, or another post's.
  check('Drizzle: looking a post up by its id as that number misses the post, and raises no error',
    byNumber.every((p) => p.title !== inexact.title));
  const asBigInts = await db.select().from(postsAsBigInt).orderBy(asc(postsAsBigInt.id));
  let thrown = '';
  try { JSON.stringify(asBigInts[0]); } catch (error) { thrown = `${error}`; }
  check('Drizzle: bigint({ mode: \'bigint\' }) is exact, but JSON.stringify throws: Do not know how to serialize a BigInt',
    String(asBigInts[4].id) === post.id && thrown === 'TypeError: Do not know how to serialize a BigInt');
  check('Drizzle: the string key goes to JSON with every digit',
    JSON.stringify(post) === `{"id":"${await idText('posts', post.id)}","title":"post 4"}`);
  // JSON that PostgreSQL builds: node-postgres parses json with JSON.parse, ids become numbers.
  const { rows: docs } = await db.execute<{ doc: { id: number } }>(sql`SELECT row_to_json(p) AS doc FROM posts p`);
  check('row_to_json: JSON.parse makes the ids numbers, different ids one number',
    new Set(docs.map((r) => r.doc.id)).size < written.length);
  const { rows: exact } = await db.execute<{ doc: { id: string } }>(
    sql`SELECT json_build_object('id', p.id::text, 'title', p.title) AS doc FROM posts p ORDER BY p.id`);
  check('row_to_json: json_build_object(\'id\', id::text, ...) keeps each id, a string',
    exact.map((r) => r.doc.id).join() === written.map((p) => p.id).join());

  const billed = await db.insert(invoices)
    .values([{ total: '120.50' }, { total: '80.00' }, { total: '42.00' }]).returning();
  const invoice = billed[0];
  check('Drizzle: the 28-digit keys are read back as strings, the text the database holds',
    billed.every((i) => /^[0-9]{28}$/.test(i.id)) && invoice.id === await idText('invoices', invoice.id));
  check('Drizzle: Number() would round it, and numeric({ mode: \'number\' }) does',
    BigInt(Number(invoice.id)) !== BigInt(invoice.id)
    && (await db.select().from(invoicesAsNumber).orderBy(asc(invoicesAsNumber.id)))
      .every((i, k) => BigInt(i.id) !== BigInt(billed[k].id)));
  const [{ invoiceUrlId }] = await db.select({ invoiceUrlId: sql<string>`idgen.to_alphanumeric(${invoices.id})` })
    .from(invoices).where(eq(invoices.id, invoice.id));
  const byInvoiceUrlId = (text: string) => db.select().from(invoices)
    .where(eq(invoices.id, sql`idgen.try_alphanumeric_to_numeric(${text})`));
  check('Drizzle: the 16-character URL id finds the invoice; a malformed one nothing, without an error',
    invoiceUrlId.length === 16 && (await byInvoiceUrlId(invoiceUrlId))[0]?.id === invoice.id
    && (await byInvoiceUrlId('not-an-id')).length === 0);
  const invoicePages = await keysetPages(2, (after) => db.select().from(invoices)
    .where(after === undefined ? undefined : gt(invoices.id, after)).orderBy(asc(invoices.id)).limit(2));
  check('Drizzle: keyset pages of invoices give every invoice once, in creation order',
    invoicePages.flat().map((i) => i.total).join() === '120.50,80.00,42.00');
  check('Drizzle: JSON.stringify writes the 28-digit key as a string, every digit',
    JSON.stringify(invoice) === `{"id":"${await idText('invoices', invoice.id)}","total":"120.50"}`);
  const { rows: [row] } = await db.execute<{ doc: { id: number } }>(
    sql`SELECT row_to_json(i) AS doc FROM invoices i WHERE i.id = ${invoice.id}`);
  check('row_to_json: JSON.parse rounds the 28-digit key', BigInt(row.doc.id) !== BigInt(invoice.id));
  check('Zod: z.coerce.number() takes a Snowflake id and rounds it without an error; a digit regex keeps it',
    String(z.coerce.number().parse(inexact.id)) !== inexact.id
    && z.string().regex(/^[0-9]{1,19}$/).parse(inexact.id) === inexact.id);
}

async function main() {
  await migrationTraps();
  await uuidKeys();
  await textKeys();
  await numberKeys();
}

main()
  .catch((error) => {
    console.log(`not ok - the recipe raised ${error}`);
    failed += 1;
  })
  .finally(async () => {
    await pool.end();
    process.exitCode = failed ? 1 : 0;
  });
