# idgen-test: majors=15,18 tier=full
# docs/migrating.md's path from pgEdge's snowflake extension to idgen.snowflake() with the same
# node number, run as the page prints it. pgEdge's extension (2.6.0, built from its archive in
# ../shared/peers against the PostgreSQL under test) fills a table on node 7 with ids that run
# ahead of the clock (INCREMENT BY 4096, as pgEdge documents for Hibernate: each call takes the next
# ms), and takes ids in a transaction that rolls back; then the page's steps switch the table's
# default to idgen.snowflake(). Checked: every row, key and reference kept; foreign keys, CHECKs,
# the index and the view work; no idgen id equals or falls below an id pgEdge made (the table's and
# the rolled-back ones), before and after a crash; a plain sequence next to them repeats nothing;
# pgEdge's extension drops once nothing uses it. As a control, the same switch without
# idgen.snowflake_reserve_through makes ids equal to pgEdge's. Then the same path in the SQL
# edition, in a database of its own.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest::Migrating qw(migration_blocks installation_with_peer);

my ($setup, $switch, $cleanup) = migration_blocks('pgedge');
ok(defined $cleanup, 'docs/migrating.md has the three blocks of the pgEdge path');

my $copy = installation_with_peer('pgedge', 'pgedge-snowflake-2.6.0-ebbdae8.tar.xz');
my $node = PostgreSQL::Test::Cluster->new('pgedge', install_path => $copy->{path});
$node->init;
$node->append_conf('postgresql.conf', 'snowflake.node = 7');
$node->start;

# run_block($db, $sql, $what): one block of the page in a psql session, stopping at its first error.
sub run_block
{
	my ($db, $sql, $what) = @_;
	my ($ret, $out, $err) = $node->psql($db, $sql, on_error_stop => 1);
	is($ret, 0, $what) or diag($err);
	return $out;
}

# The shop's schema, keyed by pgEdge: customers and order lines by plain sequences (the lines' is
# the plain sequence measured next to the generators), orders by snowflake.nextval.
my $schema = q{
	CREATE EXTENSION snowflake;
	CREATE TABLE customers (id bigserial PRIMARY KEY, name text NOT NULL CHECK (name <> ''));
	CREATE SEQUENCE orders_id_seq;
	CREATE TABLE orders (
	  id bigint PRIMARY KEY DEFAULT snowflake.nextval('orders_id_seq'),
	  customer_id bigint NOT NULL REFERENCES customers,
	  total numeric NOT NULL CHECK (total >= 0),
	  made_by text NOT NULL DEFAULT 'pgedge');
	CREATE INDEX orders_customer ON orders (customer_id);
	CREATE TABLE order_lines (
	  id bigserial PRIMARY KEY,
	  order_id bigint NOT NULL REFERENCES orders ON DELETE CASCADE,
	  qty integer NOT NULL CHECK (qty > 0));
	CREATE VIEW order_totals AS
	  SELECT o.id, o.customer_id, o.total, count(l.id) AS lines
	  FROM orders o LEFT JOIN order_lines l ON l.order_id = o.id GROUP BY o.id;
	INSERT INTO customers (name) SELECT 'customer ' || i FROM generate_series(1, 100) i;
};
# pgEdge's ids, $ahead of them one ms apart ahead of the clock (INCREMENT BY 4096), then 2000 at
# its usual increment, and 300 taken by a transaction that rolls back (pgedge_ids records the
# table's and the last of those, the sequence's last value).
sub fill_with_pgedge
{
	my ($db, $ahead) = @_;
	$node->safe_psql($db, qq{
		ALTER SEQUENCE orders_id_seq INCREMENT BY 4096;
		INSERT INTO orders (customer_id, total) SELECT 1 + i % 100, i % 50 FROM generate_series(1, $ahead) i;
		ALTER SEQUENCE orders_id_seq INCREMENT BY 1;
		INSERT INTO orders (customer_id, total) SELECT 1 + i % 100, i % 50 FROM generate_series(1, 2000) i;
		INSERT INTO order_lines (order_id, qty) SELECT id, 1 + id % 5 FROM orders;
		CREATE TABLE pgedge_ids AS SELECT id FROM orders;
	});
	$node->safe_psql($db, q{
		BEGIN;
		INSERT INTO orders (customer_id, total) SELECT 1, 1 FROM generate_series(1, 300);
		ROLLBACK;
		INSERT INTO pgedge_ids SELECT last_value FROM orders_id_seq;
	});
	return;
}

$node->safe_psql('postgres', 'CREATE DATABASE shop; CREATE DATABASE control; CREATE DATABASE shop_sql');
$node->safe_psql($_, $schema) for qw(shop control shop_sql);
fill_with_pgedge('shop', 20000);
is($node->safe_psql('shop', q{
	SELECT count(*) = 22000 AND count(*) FILTER (WHERE snowflake.get_node(id) = 7) = 22000
	       AND max(id) < (SELECT max(id) FROM pgedge_ids)
	       AND to_timestamp(snowflake.get_epoch(max(id))) > clock_timestamp() + interval '10 s'
	FROM orders}),
	't', "pgEdge made the shop's 22 000 order ids on node 7, the last ones more than 10 s ahead of the clock");
# The control: pgEdge's ids up to 15 s ahead in another database, taken before idgen makes any id.
fill_with_pgedge('control', 15000);

# The page's set-up (once per server), then the restart it asks for.
my $shown = run_block('shop', $setup, "the page's server set-up runs as printed");
like($shown, qr/^7$/m, 'SHOW snowflake.node shows pgEdge\'s node number');
$node->safe_psql('control', 'CREATE EXTENSION idgen');
$node->restart;

# Control: idgen on pgEdge's node number without the reservation makes ids pgEdge made.
my $repeated = $node->safe_psql('control', q{
	SELECT count(*) FROM (SELECT idgen.snowflake() AS id FROM generate_series(1, 20000)) n
	JOIN pgedge_ids USING (id)});
cmp_ok($repeated, '>', 0, "without idgen.snowflake_reserve_through, idgen repeats pgEdge's ids ($repeated of 20 000)");

# The switch, as printed, while the clock is still behind pgEdge's last ids.
my $digest = q{SELECT md5(string_agg(format('%s/%s/%s', id, customer_id, total), ',' ORDER BY id)) FROM orders};
my %before = (
	orders => $node->safe_psql('shop', 'SELECT count(*) FROM orders'),
	lines => $node->safe_psql('shop', 'SELECT count(*) FROM order_lines'),
	last_line => $node->safe_psql('shop', 'SELECT max(id) FROM order_lines'),
	digest => $node->safe_psql('shop', $digest));
is($node->safe_psql('shop', q{SELECT max(id) > idgen.snowflake_bound(clock_timestamp() + interval '5 s') FROM pgedge_ids}),
	't', "pgEdge's largest id still leads the clock by more than 5 s at the switch");
run_block('shop', $switch, "the page's switch runs as printed");
is($node->safe_psql('shop', q{SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef WHERE adrelid = 'orders'::regclass AND adnum = 1}),
	'idgen.snowflake()', "orders' default is idgen.snowflake()");

# new_orders($n, $label): $n orders through the default (and a line each, through the plain
# sequence), made by one statement.
sub new_orders
{
	my ($n, $label) = @_;
	$node->safe_psql('shop', qq{
		WITH o AS (INSERT INTO orders (customer_id, total, made_by)
		           SELECT 1 + i % 100, i % 7, '$label' FROM generate_series(1, $n) i RETURNING id)
		INSERT INTO order_lines (order_id, qty) SELECT id, 2 FROM o});
	return;
}
new_orders(5000, 'idgen');
is($node->safe_psql('shop', q{
	SELECT count(*) FILTER (WHERE o.id <= (SELECT max(id) FROM pgedge_ids)),
	       count(*) FILTER (WHERE p.id IS NOT NULL),
	       count(*) FILTER (WHERE idgen.snowflake_node(o.id) <> 7), count(DISTINCT o.id)
	FROM orders o LEFT JOIN pgedge_ids p USING (id) WHERE o.made_by = 'idgen'}),
	'0|0|0|5000', "5 000 idgen ids, node 7: none at or below pgEdge's largest id (rolled-back ones included), none equal to one");

# Data, constraints, index and view.
is($node->safe_psql('shop', 'SELECT count(*) FROM orders'), $before{orders} + 5000, 'every order kept, 5 000 new');
is($node->safe_psql('shop', "$digest WHERE made_by = 'pgedge'"), $before{digest}, "pgEdge's rows are unchanged");
my ($ret, $out, $err) = $node->psql('shop', 'INSERT INTO orders (customer_id, total) VALUES (100000, 1)');
like($err, qr/violates foreign key constraint/, 'the foreign key to customers still refuses an unknown customer');
($ret, $out, $err) = $node->psql('shop', 'INSERT INTO orders (customer_id, total) VALUES (1, -1)');
like($err, qr/violates check constraint/, 'the CHECK still refuses a negative total');
($ret, $out, $err) = $node->psql('shop', 'INSERT INTO order_lines (order_id, qty) VALUES (1, 1)');
like($err, qr/violates foreign key constraint/, 'order lines still refuse an unknown order');
is($node->safe_psql('shop', q{
	SELECT count(*), sum(lines) FROM order_totals}),
	($before{orders} + 5000) . '|' . ($before{lines} + 5000),
	'the view reads old and new orders with their lines');
like($node->safe_psql('shop', q{SET enable_seqscan = off; EXPLAIN (COSTS OFF) SELECT * FROM orders WHERE customer_id = 5}),
	qr/orders_customer/, 'the index on customer_id serves lookups');

# A crash: idgen starts after its durable mark, which the reservation raised.
my $last = $node->safe_psql('shop', 'SELECT max(id) FROM orders');
$node->stop('immediate');
$node->start;
new_orders(5000, 'after crash');
is($node->safe_psql('shop', qq{
	SELECT count(*) FILTER (WHERE id <= $last), count(DISTINCT id)
	FROM orders WHERE made_by = 'after crash'}),
	'0|5000', 'after a crash, 5 000 more ids, all above every earlier one');
is($node->safe_psql('shop', qq{
	SELECT count(*) = count(DISTINCT id) AND min(id) FILTER (WHERE order_id IN (SELECT id FROM orders WHERE made_by <> 'pgedge'))
	       > $before{last_line}
	FROM order_lines}),
	't', 'the plain sequence next to them repeated nothing either, across the crash');

# pgEdge's extension goes, as the page says.
run_block('shop', $cleanup, "the page's clean-up runs as printed: pgEdge's sequence and extension dropped");
new_orders(100, 'after drop');
is($node->safe_psql('shop', q{SELECT count(DISTINCT id) FROM orders WHERE made_by = 'after drop'}), '100', 'ids go on without pgEdge');

# The SQL edition: the same table and steps in a database of its own. Its node number is
# idgen.set_node_id (the set-up block's server settings are the C edition's); its generator is the
# database's sequence, which a crash keeps.
fill_with_pgedge('shop_sql', 20000);
$node->safe_psql('shop_sql', 'CREATE EXTENSION pgcrypto; CREATE EXTENSION idgen_sql; SELECT idgen.set_node_id(7)');
is($node->safe_psql('shop_sql', q{SELECT max(id) > idgen.snowflake_bound(clock_timestamp() + interval '5 s') FROM pgedge_ids}),
	't', "SQL edition: pgEdge's largest id leads the clock by more than 5 s at the switch");
run_block('shop_sql', $switch, "SQL edition: the page's switch runs as printed");
$node->safe_psql('shop_sql', q{INSERT INTO orders (customer_id, total, made_by) SELECT 1, 1, 'idgen_sql' FROM generate_series(1, 3000)});
$node->stop('immediate');
$node->start;
$node->safe_psql('shop_sql', q{INSERT INTO orders (customer_id, total, made_by) SELECT 1, 1, 'after crash' FROM generate_series(1, 3000)});
is($node->safe_psql('shop_sql', q{
	SELECT count(*) FILTER (WHERE o.id <= (SELECT max(id) FROM pgedge_ids)),
	       count(DISTINCT o.id), count(*) FILTER (WHERE idgen.snowflake_node(o.id) <> 7)
	FROM orders o WHERE made_by <> 'pgedge'}),
	'0|6000|0', "SQL edition: 6 000 ids on node 7, before and after a crash, none at or below pgEdge's");
run_block('shop_sql', $cleanup, "SQL edition: the page's clean-up runs as printed");

$node->stop;
done_testing();
