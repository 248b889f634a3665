# idgen-test: majors=15 tier=full
# docs/migrating.md's path from random (v4) uuid keys to UUIDv7 and COMB, run as the page prints
# it: customers and orders keyed by gen_random_uuid(), with foreign keys, CHECKs, an index and a
# view. Checked: every row, key and reference kept; the constraints, index and view work with old
# and new rows; new ids unique, of their version, never equal to an old one; what the page says of
# ordering (the share of old rows that sort above the new ones under ORDER BY id DESC, the
# v7-first query and its index) and of the index (measured, printed); a plain sequence next to them
# repeats nothing.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest::Migrating qw(migration_blocks);

my ($switch, $ordering) = migration_blocks('uuid-v4');
ok(defined $ordering, 'docs/migrating.md has the two blocks of the uuid v4 path');

my $node = PostgreSQL::Test::Cluster->new('uuid_v4');
$node->init;
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'idgen'");
$node->start;

sub run_block
{
	my ($sql, $what) = @_;
	my ($ret, $out, $err) = $node->psql('app', $sql, on_error_stop => 1);
	is($ret, 0, $what) or diag($err);
	return $out;
}

$node->safe_psql('postgres', 'CREATE DATABASE app');
$node->safe_psql('app', q{
	CREATE EXTENSION idgen;
	CREATE TABLE customers (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), name text NOT NULL CHECK (length(name) > 2));
	CREATE TABLE orders (
	  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
	  customer_id uuid NOT NULL REFERENCES customers,
	  total numeric NOT NULL CHECK (total >= 0),
	  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
	  kind text NOT NULL DEFAULT 'old');
	CREATE INDEX orders_customer ON orders (customer_id);
	CREATE TABLE events (seq bigserial PRIMARY KEY, order_id uuid NOT NULL REFERENCES orders);
	CREATE VIEW customer_orders AS
	  SELECT c.id AS customer_id, c.name, count(o.id) AS orders, coalesce(sum(o.total), 0) AS total
	  FROM customers c LEFT JOIN orders o ON o.customer_id = c.id GROUP BY c.id;
	INSERT INTO customers (name) SELECT 'customer ' || i FROM generate_series(1, 2000) i;
	INSERT INTO orders (customer_id, total) SELECT c.id, i % 70 FROM customers c, generate_series(1, 100) i;
	INSERT INTO events (order_id) SELECT id FROM orders;
	CREATE TABLE old_ids AS SELECT id FROM customers UNION ALL SELECT id FROM orders;
	-- the same rows' ids in a table of its own: the index growth measured below
	CREATE TABLE v4_then_v7 (id uuid PRIMARY KEY);
	INSERT INTO v4_then_v7 SELECT id FROM orders;
	CREATE TABLE v7_only (id uuid PRIMARY KEY);
	VACUUM ANALYZE;
});
my %before = (
	customers => $node->safe_psql('app', q{SELECT md5(string_agg(format('%s/%s', id, name), ',' ORDER BY id)) FROM customers}),
	orders => $node->safe_psql('app', q{SELECT md5(string_agg(format('%s/%s/%s', id, customer_id, total), ',' ORDER BY id)) FROM orders}),
	events => $node->safe_psql('app', 'SELECT max(seq) FROM events'));

run_block($switch, "the page's switch runs as printed");

$node->safe_psql('app', q{
	INSERT INTO customers (name) SELECT 'new customer ' || i FROM generate_series(1, 1000) i;
	WITH o AS (INSERT INTO orders (customer_id, total, kind)
	           SELECT c.id, 3, 'new' FROM customers c, generate_series(1, 20) WHERE c.name LIKE 'new%' RETURNING id)
	INSERT INTO events (order_id) SELECT id FROM o;
	ANALYZE;
});
is($node->safe_psql('app', q{
	SELECT count(*) FILTER (WHERE idgen.uuid_version(id) <> 7), count(DISTINCT id), count(*) FILTER (WHERE id IN (SELECT id FROM old_ids))
	FROM orders WHERE kind = 'new'}),
	'0|20000|0', '20 000 new orders: UUIDv7 ids, unique, none equal to an old id');
is($node->safe_psql('app', q{
	SELECT count(*) FILTER (WHERE NOT idgen.comb_valid(id, at => clock_timestamp(), tolerance => '1 hour')), count(DISTINCT id),
	       count(*) FILTER (WHERE id IN (SELECT id FROM old_ids))
	FROM customers WHERE name LIKE 'new%'}),
	'0|1000|0', '1 000 new customers: COMB ids of the current minute, unique, none equal to an old id');
is($node->safe_psql('app', q{SELECT md5(string_agg(format('%s/%s', id, name), ',' ORDER BY id)) FROM customers WHERE name NOT LIKE 'new%'}),
	$before{customers}, 'the old customers are unchanged');
is($node->safe_psql('app', q{SELECT md5(string_agg(format('%s/%s/%s', id, customer_id, total), ',' ORDER BY id)) FROM orders WHERE kind = 'old'}),
	$before{orders}, 'the old orders are unchanged');
my ($ret, $o, $e) = $node->psql('app', q{INSERT INTO orders (customer_id, total) VALUES (gen_random_uuid(), 1)});
like($e, qr/violates foreign key constraint/, 'the foreign key still refuses an unknown customer');
($ret, $o, $e) = $node->psql('app', q{INSERT INTO customers (name) VALUES ('ab')});
like($e, qr/violates check constraint/, 'the CHECK still refuses a short name');
is($node->safe_psql('app', q{SELECT count(*), sum(orders) FROM customer_orders}), '3000|220000',
	'the view reads old and new customers with their orders');
like($node->safe_psql('app', q{SET enable_seqscan = off; EXPLAIN (COSTS OFF) SELECT * FROM orders WHERE customer_id = '6dc0a8d2-22a7-4c53-a480-87ba5619e948'}),
	qr/orders_customer/, 'the index on customer_id serves lookups');
is($node->safe_psql('app', qq{SELECT count(*) = count(DISTINCT seq) AND min(seq) FILTER (WHERE order_id IN (SELECT id FROM orders WHERE kind = 'new')) > $before{events} FROM events}),
	't', 'the plain sequence next to them repeated nothing');

# Ordering: how many old orders sort above every new one under ORDER BY id DESC (the page: about
# 99.4 % in 2026), and the v7-first query puts the new ones first, in time order, from its index.
my $above = $node->safe_psql('app', q{
	SELECT round(100.0 * count(*) FILTER (WHERE id > (SELECT id FROM orders WHERE kind = 'new' ORDER BY id DESC LIMIT 1)) / count(*), 1)
	FROM orders WHERE kind = 'old'});
cmp_ok($above, '>', 98.5, "ORDER BY id DESC: $above % of the old orders come before every new one");
my $first = run_block($ordering, "the page's ordering block runs as printed");
is($node->safe_psql('app', q{
	SELECT bool_and(kind = 'new') FROM orders WHERE id IN (
	  SELECT id FROM orders ORDER BY idgen.uuid_version(id) = 7 DESC, id DESC LIMIT 20)}),
	't', 'the v7-first query returns new orders first');
is($node->safe_psql('app', q{
	SELECT bool_and(a.created_at >= b.created_at) FROM
	  (SELECT id, created_at, row_number() OVER (ORDER BY idgen.uuid_version(id) = 7 DESC, id DESC) AS n FROM orders WHERE kind = 'new') a
	  JOIN (SELECT created_at, row_number() OVER (ORDER BY idgen.uuid_version(id) = 7 DESC, id DESC) AS n FROM orders WHERE kind = 'new') b
	  ON b.n = a.n + 1}),
	't', 'in time order (newest first)');
like($node->safe_psql('app', q{EXPLAIN (COSTS OFF) SELECT id FROM orders ORDER BY idgen.uuid_version(id) = 7 DESC, id DESC LIMIT 20}),
	qr/Index Only Scan Backward using orders_v7_first|Index Scan Backward using orders_v7_first/, 'from the page\'s index, scanned backward');

# The index, measured: the same number of UUIDv7 rows added to a table of v4 rows and to an empty
# table (the page's figures come from this measurement).
$node->safe_psql('app', q{
	CREATE TABLE growth AS SELECT pg_relation_size('v4_then_v7_pkey') AS before;
	INSERT INTO v4_then_v7 SELECT idgen.uuidv7() FROM generate_series(1, 200000);
	INSERT INTO v7_only SELECT idgen.uuidv7() FROM generate_series(1, 200000);});
my ($mixed, $alone) = split /\|/, $node->safe_psql('app', q{
	SELECT (pg_relation_size('v4_then_v7_pkey') - before) / 8192, pg_relation_size('v7_only_pkey') / 8192 FROM growth});
note("200 000 UUIDv7 rows grew a primary key of 200 000 v4 rows by $mixed pages, an empty one's to $alone pages");
cmp_ok($mixed, '>', $alone, 'new ids in the middle of old random ones take more index pages than at the right edge');

$node->stop;
done_testing();
