// The tables of the Drizzle recipe, one per idgen key family, each key filled by the column's
// DEFAULT. drizzle-kit generate writes them as SQL, drizzle-kit migrate applies it.
import { sql } from 'drizzle-orm';
import { check, customType, integer, numeric, pgTable, text, uuid } from 'drizzle-orm/pg-core';

// drizzle-kit writes a custom type's name in double quotes as ONE name: 'idgen.distributed_id'
// becomes "idgen.distributed_id", a type that does not exist (and drizzle-kit migrate then exits
// 1 without a word). Written idgen"."distributed_id, it comes out as "idgen"."distributed_id".
const idgenType = (name: string) => `idgen"."${name}`;

// idgen.distributed_id (28 digits) reaches node-postgres as numeric, which it hands over as a
// string: keep it one. (numeric({ mode: 'number' }) would round it.)
export const distributedId = customType<{ data: string; driverData: string }>({
  dataType: () => idgenType('distributed_id'),
});

// A Snowflake id is a bigint above 2^53. Drizzle's bigint() reads it as a number (rounded) or a
// BigInt (which JSON.stringify refuses); node-postgres gives int8 as a string: keep that.
export const snowflakeId = customType<{ data: string; driverData: string }>({
  dataType: () => 'bigint',
});

// idgen.ulid and idgen.typeid read and write their text: the id is a string.
export const ulid = customType<{ data: string; driverData: string }>({
  dataType: () => idgenType('ulid'),
});
export const typeid = customType<{ data: string; driverData: string }>({
  dataType: () => idgenType('typeid'),
});

export const orders = pgTable('orders', {
  id: uuid('id').primaryKey().default(sql`idgen.comb()`),
  customer: text('customer').notNull(),
});

export const events = pgTable('events', {
  id: uuid('id').primaryKey().default(sql`idgen.uuidv7()`),
  kind: text('kind').notNull(),
});

export const shipments = pgTable('shipments', {
  id: ulid('id').primaryKey().default(sql`idgen.ulid()`),
  parcel: integer('parcel').notNull(),
});

export const users = pgTable('users', {
  id: typeid('id').primaryKey().default(sql`idgen.new_typeid('user')`),
  name: text('name').notNull(),
}, (table) => [check('users_id_prefix', sql`idgen.typeid_prefix(${table.id}) = 'user'`)]);

export const posts = pgTable('posts', {
  id: snowflakeId('id').primaryKey().default(sql`idgen.snowflake()`),
  title: text('title').notNull(),
});

export const invoices = pgTable('invoices', {
  id: distributedId('id').primaryKey().default(sql`idgen.distributed_id()`),
  total: numeric('total', { precision: 12, scale: 2 }).notNull(),
});
