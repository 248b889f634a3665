# idgen-test: majors=15 tier=full
# docs/migrating.md, "From pg-ulid or pgx_ulid": a schema keyed by pg-ulid's ulid type (built from
# ../shared/peers/pg-ulid-*.tar.xz against the installation under test and cached by
# test/lib/peers.sh), with foreign keys (one cascading, one into a composite primary
# key), CHECKs (one on the id's time through pg-ulid's id::timestamp), a secondary index and a
# view, filled by pg-ulid's gen_ulid(), converted by the page's SQL blocks exactly as printed.
# Afterwards: every column is idgen.ulid, every row and the view hold the same text in the same
# order, pg-ulid is gone, the keys cascade and refuse, the CHECKs refuse, the indexes serve
# lookups by literal text, idgen's functions and casts take the column, and new ids sort last.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest::Migrating qw(migration_blocks installation_with_peer peer_archive);

# A copy of the installation under test (with its idgen), with pg-ulid built and installed.
my $copy = installation_with_peer('pg_ulid', peer_archive('pg-ulid'));
ok(-f "$copy->{root}" . `$ENV{PG_CONFIG} --pkglibdir` =~ s/\n//r . '/ulid.so',
	'pg-ulid is built from its archive (test/lib/peers.sh)');

my @blocks = migration_blocks('pg-ulid');
is(scalar @blocks, 2, 'the section shows the schema and the conversion');
my ($schema, $conversion) = @blocks;

my $node = PostgreSQL::Test::Cluster->new('pg_ulid', install_path => $copy->{path});
$node->init;
$node->start;
my $db = 'postgres';
sub sql
{
	my ($query) = @_;
	return $node->safe_psql($db, $query);
}

sql('CREATE EXTENSION idgen');
sql($schema);
my $columns_of = q{SELECT string_agg(a.attrelid::regclass || '.' || a.attname, ', '
                  ORDER BY a.attrelid::regclass || '.' || a.attname)
FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
WHERE a.atttypid = to_regtype('TYPE') AND a.attnum > 0 AND c.relkind = 'r'};
is(sql($columns_of =~ s/TYPE/public.ulid/r),
	'customers.id, order_lines.order_id, orders.customer_id, orders.id',
	"the page's schema has four columns of pg-ulid's type");
# Ids made by pg-ulid; one customer with a known ULID, whose orders the checks below look up.
sql(q{
INSERT INTO customers (id, email) VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV', 'known@example.com');
INSERT INTO customers (email) SELECT 'c' || g || '@example.com' FROM generate_series(1, 300) g;
INSERT INTO orders (customer_id, total) SELECT c.id, g FROM customers c, generate_series(1, 3) g;
INSERT INTO order_lines SELECT o.id, g, 'sku-' || g FROM orders o, generate_series(1, 2) g;
ANALYZE;
});

# Everything the conversion must keep, as text in key order (pg-ulid's order, then idgen's).
my $snapshot = q{
SELECT (SELECT md5(string_agg(id::text || ' ' || email, ',' ORDER BY id)) FROM customers),
       (SELECT md5(string_agg(id::text || ' ' || customer_id::text || ' ' || total, ',' ORDER BY id)) FROM orders),
       (SELECT md5(string_agg(order_id::text || ' ' || line || ' ' || sku, ',' ORDER BY order_id, line)) FROM order_lines),
       (SELECT md5(string_agg(email || ' ' || order_id::text || ' ' || placed_at || ' ' || total, ','
                   ORDER BY order_id)) FROM order_totals),
       (SELECT count(*) FROM order_lines)};
my $constraints = q{
SELECT string_agg(conrelid::regclass || ' ' || conname || ' ' || contype::text, ', '
                  ORDER BY conrelid::regclass::text, conname)
FROM pg_constraint WHERE connamespace = 'public'::regnamespace};
my $indexes = q{
SELECT string_agg(indexrelid::regclass::text, ', ' ORDER BY indexrelid::regclass::text)
FROM pg_index WHERE indrelid::regclass::text IN ('customers', 'orders', 'order_lines')};
my %before = (
	snapshot => sql($snapshot),
	constraints => sql($constraints),
	indexes => sql($indexes),
	max_id => sql('SELECT max(id::text) FROM orders'));

my ($status, $out, $err) = $node->psql($db, $conversion, on_error_stop => 1);
is($status, 0, "the page's conversion runs as printed") or diag($err);
unlike($err, qr/ERROR|WARNING/, 'without an error or a warning');

is(sql($columns_of =~ s/TYPE/idgen.ulid/r),
	'customers.id, order_lines.order_id, orders.customer_id, orders.id',
	'every key and reference is idgen.ulid');
is(sql(q{SELECT count(*) FROM pg_extension WHERE extname = 'ulid'}) . sql(q{SELECT count(*) FROM pg_type WHERE typname = 'ulid' AND typnamespace <> 'idgen'::regnamespace}),
	'00', "pg-ulid's extension and type are gone");
is(sql($snapshot), $before{snapshot}, 'every row and the view: the same text in the same order');
is(sql($constraints), $before{constraints}, 'the same constraints, by name');
is(sql($indexes), $before{indexes}, 'the same indexes');
is(sql(q{SELECT count(*) FROM pg_index WHERE NOT indisvalid}), '0', 'every index valid');

# The keys: a missing customer is refused, a deleted one cascades to its orders and their lines.
my ($ret, $stdout, $stderr) = $node->psql($db,
	q{INSERT INTO orders (customer_id, total) VALUES ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ', 1)});
like($stderr, qr/violates foreign key constraint "orders_customer_id_fkey"/, 'the foreign key refuses a missing customer');
($ret, $stdout, $stderr) = $node->psql($db,
	q{INSERT INTO order_lines VALUES ('01ARZ3NDEKTSV4RRFFQ69G5FAV', 1, 'x')});
like($stderr, qr/violates foreign key constraint "order_lines_order_id_fkey"/, 'and a missing order');
is(sql(q{DELETE FROM customers WHERE id = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
       SELECT count(*) FROM orders o JOIN order_lines l ON l.order_id = o.id
       WHERE o.customer_id = '01ARZ3NDEKTSV4RRFFQ69G5FAV'}),
	'0', "deleting a customer cascades to its orders and their lines");
is(sql('SELECT count(*) FROM order_lines'), $before{snapshot} =~ /\|(\d+)$/ ? $1 - 6 : -1,
	'six lines went with the customer (three orders of two lines)');

# The CHECKs: the id's time through idgen's cast, and the untouched one.
($ret, $stdout, $stderr) = $node->psql($db,
	q{INSERT INTO orders (id, customer_id, total) SELECT '00000000000000000000000000', id, 1 FROM customers LIMIT 1});
like($stderr, qr/violates check constraint "orders_made_since_2020"/, 'the CHECK on the id\'s time refuses a 1970 ULID');
($ret, $stdout, $stderr) = $node->psql($db,
	q{INSERT INTO orders (customer_id, total) SELECT id, -1 FROM customers LIMIT 1});
like($stderr, qr/violates check constraint "orders_total_check"/, 'the other CHECK still refuses');

# Lookups by literal text through the indexes; idgen's functions and casts on the column.
my $customer = sql('SELECT min(id) FROM customers');
my $plan = sql(qq{SET enable_seqscan = off; SET enable_bitmapscan = off;
	EXPLAIN (COSTS OFF) SELECT * FROM orders WHERE customer_id = '$customer'});
like($plan, qr/Index Scan using orders_customer_id/, 'the secondary index serves a lookup by text');
$plan = sql(qq{SET enable_seqscan = off;
	EXPLAIN (COSTS OFF) SELECT * FROM orders WHERE id >= idgen.ulid_bound(now() - interval '1 hour')::idgen.ulid});
like($plan, qr/orders_pkey/, 'the primary key serves the ULID bound');
is(sql(qq{SELECT count(*) FROM orders WHERE customer_id = '$customer'}), '3', 'a customer\'s orders by text');
is(sql(q{SELECT count(*) FROM orders WHERE idgen.ulid_timestamp(id) IS DISTINCT FROM id::timestamptz
       OR idgen.ulid_timestamp(id) > now() OR idgen.to_ulid(id) <> id::text}),
	'0', 'idgen.ulid_timestamp, the cast to timestamptz and idgen.to_ulid take the column');
is(sql(q{SELECT count(*) FROM order_totals v JOIN orders o ON o.id = v.order_id
       WHERE v.placed_at <> (o.id::timestamptz AT TIME ZONE 'UTC')}), '0', 'the view reads the new column');

# New ids from the default sort after every id pg-ulid made.
my $new = sql(q{INSERT INTO customers (email) VALUES ('new@example.com') RETURNING id});
cmp_ok($new, 'gt', $before{max_id}, 'a new id sorts after the ids pg-ulid made');
is(sql(qq{INSERT INTO orders (customer_id, total) VALUES ('$new', 5) RETURNING (id > '$before{max_id}')::text}),
	'true', 'and so does a new order\'s');

$node->stop;
done_testing();
