// idgen from Sequelize (6, on node-postgres): keys the database generates.
//
// defaultValue: sequelize.literal('idgen.comb()') makes the key the database's: sync() writes it as
// the column's DEFAULT and create() sends the call itself, then reads the row back with RETURNING.
// node-postgres hands numeric over as a string, so the 28-digit key keeps every digit, in the
// model and in JSON.stringify; Number() would round it. The text keys' columns have idgen's types
// idgen.ulid and idgen.typeid (a type name as a string), whose values come back as the ULID or
// TypeID text, a string, which is also what where clauses compare with.
'use strict';

const { Sequelize, DataTypes, Op } = require('sequelize');

// Sequelize wants connection settings; take the libpq variables the tests set.
const sequelize = new Sequelize(process.env.PGDATABASE || 'postgres', process.env.PGUSER || 'postgres', null, {
  dialect: 'postgres',
  host: process.env.PGHOST,
  port: process.env.PGPORT,
  logging: false,
});

const Order = sequelize.define('Order', {
  id: { type: DataTypes.UUID, primaryKey: true, defaultValue: sequelize.literal('idgen.comb()') },
  customer: { type: DataTypes.TEXT, allowNull: false },
}, { tableName: 'sequelize_orders', timestamps: false });

const Invoice = sequelize.define('Invoice', {
  id: {
    type: 'idgen.distributed_id',
    primaryKey: true,
    defaultValue: sequelize.literal('idgen.distributed_id()'),
  },
  total: { type: DataTypes.DECIMAL(12, 2), allowNull: false },
}, { tableName: 'sequelize_invoices', timestamps: false });

const Shipment = sequelize.define('Shipment', {
  id: { type: 'idgen.ulid', primaryKey: true, defaultValue: sequelize.literal('idgen.ulid()') },
  parcel: { type: DataTypes.INTEGER, allowNull: false },
}, { tableName: 'sequelize_shipments', timestamps: false });

const User = sequelize.define('User', {
  id: { type: 'idgen.typeid', primaryKey: true, defaultValue: sequelize.literal("idgen.new_typeid('user')") },
  name: { type: DataTypes.TEXT, allowNull: false },
}, { tableName: 'sequelize_users', timestamps: false });

// Every row, a page at a time: WHERE id > the last id seen ORDER BY id LIMIT size.
async function keysetPages(model, size) {
  const pages = [await model.findAll({ order: [['id', 'ASC']], limit: size })];
  while (pages[pages.length - 1].length === size) {
    const last = pages[pages.length - 1][size - 1].id;
    pages.push(await model.findAll({ where: { id: { [Op.gt]: last } }, order: [['id', 'ASC']], limit: size }));
  }
  return pages;
}

let failed = 0;
function check(description, passed) {
  console.log(`${passed ? 'ok' : 'not ok'} - ${description}`);
  if (!passed) failed += 1;
}

// idgen.try_alphanumeric_to_numeric(text): the id of a URL id, NULL for anything else.
const byUrlId = (urlId) => ({ id: sequelize.fn('idgen.try_alphanumeric_to_numeric', urlId) });

async function main() {
  await sequelize.sync({ force: true });
  // A migration's addConstraint: the users table holds user_ TypeIDs only.
  await sequelize.getQueryInterface().addConstraint('sequelize_users', {
    type: 'check',
    fields: ['id'],
    where: sequelize.where(sequelize.fn('idgen.typeid_prefix', sequelize.col('id')), 'user'),
  });

  const order = await Order.create({ customer: 'ada' });
  check('Sequelize: the COMB key is read back after the insert, as a uuid string of version 4',
    /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(order.id));
  const [[{ valid }]] = await sequelize.query('SELECT idgen.comb_valid(?) AS valid', { replacements: [order.id] });
  check('Sequelize: the key is a COMB of this minute (idgen.comb_valid)', valid === true);
  check('Sequelize: the row is found by its key', (await Order.findByPk(order.id)).customer === 'ada');

  const invoice = await Invoice.create({ total: '120.50' });
  check('Sequelize: the 28-digit key is read back as a string with every digit',
    typeof invoice.id === 'string' && /^[0-9]{28}$/.test(invoice.id));
  const [[stored]] = await sequelize.query(
    'SELECT id::text AS sql_text, idgen.to_alphanumeric(id) AS url_id FROM sequelize_invoices WHERE id = ?',
    { replacements: [invoice.id] });
  check('Sequelize: it equals the stored value digit for digit', invoice.id === stored.sql_text);
  check('Sequelize: Number() would round it', String(BigInt(Math.round(Number(invoice.id)))) !== stored.sql_text);

  const found = await Invoice.findOne({ where: byUrlId(stored.url_id) });
  check('Sequelize: the short URL id finds the invoice', found !== null && found.id === invoice.id);
  check('Sequelize: a malformed URL id finds nothing, without an error',
    (await Invoice.findOne({ where: byUrlId('not-an-id') })) === null);
  const recent = await Invoice.count({ where: { id: { [Op.gte]: sequelize.fn('idgen.distributed_id_bound', sequelize.literal("now() - interval '1 hour'")) } } });
  check('Sequelize: idgen.distributed_id_bound gives the last hour\'s invoices', recent === 1);

  const document = JSON.stringify({ order: order.id, invoice: invoice.id });
  check('Sequelize: JSON.stringify writes both keys as strings, the 28 digits exact',
    document === `{"order":"${order.id}","invoice":"${stored.sql_text}"}`);

  const shipments = [];
  for (let k = 0; k < 7; k += 1) shipments.push(await Shipment.create({ parcel: k }));
  const [ulidTexts] = await sequelize.query(
    'SELECT idgen.to_ulid(id::uuid) AS text FROM sequelize_shipments ORDER BY parcel');
  check('Sequelize: the ULID keys are read back as strings, the 26-character text the database holds',
    shipments.map((s) => s.id).join() === ulidTexts.map((r) => r.text).join()
    && shipments.every((s) => /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/.test(s.id)));
  check('Sequelize: a shipment is found by its ULID text', (await Shipment.findByPk(shipments[3].id)).parcel === 3);
  let pages = await keysetPages(Shipment, 3);
  check('Sequelize: keyset pages (id > the last id, ordered by id) give every shipment once, in order',
    pages.map((p) => p.length).join() === '3,3,1' && pages.flat().map((s) => s.parcel).join() === '0,1,2,3,4,5,6');

  const users = [];
  for (const name of ['ada', 'grace', 'linus']) users.push(await User.create({ name }));
  const [typeidTexts] = await sequelize.query(
    "SELECT idgen.typeid('user', id::uuid) AS text FROM sequelize_users ORDER BY id");
  check('Sequelize: the TypeID keys are read back as strings, the text the database holds',
    users.map((u) => u.id).join() === typeidTexts.map((r) => r.text).join()
    && users.every((u) => /^user_[0-7][0-9a-hjkmnp-tv-z]{25}$/.test(u.id)));
  check('Sequelize: a user is found by its TypeID text', (await User.findByPk(users[1].id)).name === 'grace');
  pages = await keysetPages(User, 2);
  check('Sequelize: keyset pages of users give every user once, in order',
    pages.map((p) => p.length).join() === '2,1' && pages.flat().map((u) => u.name).join() === 'ada,grace,linus');
  const orderId = `order_${users[1].id.split('_')[1]}`; // the same uuid, another prefix
  check('Sequelize: a TypeID of another prefix finds no user', (await User.findByPk(orderId)) === null);
  const refused = await User.create({ id: orderId, name: 'not a user' }).then(() => null, (error) => error);
  check('Sequelize: the CHECK refuses an order_ id as a user\'s key', refused?.parent?.code === '23514');
}

main()
  .catch((error) => {
    console.log(`not ok - Sequelize: the recipe raised ${error.name}: ${error.message}`);
    failed += 1;
  })
  .finally(async () => {
    await sequelize.close();
    process.exitCode = failed ? 1 : 0;
  });
