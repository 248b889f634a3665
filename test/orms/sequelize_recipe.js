// idgen from Sequelize (6, on node-postgres): keys the database generates.
//
// defaultValue: sequelize.literal('idgen.comb()') makes the key the database's: sync() writes it as
// the column's DEFAULT and create() sends the call itself, then reads the row back with RETURNING.
// node-postgres hands numeric over as a string, so the 28-digit key keeps every digit, in the
// model and in JSON.stringify; Number() would round it.
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

let failed = 0;
function check(description, passed) {
  console.log(`${passed ? 'ok' : 'not ok'} - ${description}`);
  if (!passed) failed += 1;
}

// idgen.try_alphanumeric_to_numeric(text): the id of a URL id, NULL for anything else.
const byUrlId = (urlId) => ({ id: sequelize.fn('idgen.try_alphanumeric_to_numeric', urlId) });

async function main() {
  await sequelize.sync({ force: true });

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
