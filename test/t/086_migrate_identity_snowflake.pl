# idgen-test: majors=15 tier=full
# docs/migrating.md's path from bigserial and identity keys to idgen.snowflake(), run as the page
# prints it: accounts keyed by bigserial, invoices by an identity column GENERATED ALWAYS whose
# last values were set 10 s ahead of the Snowflake clock (keys copied from another Snowflake
# system), with foreign keys, CHECKs, an index and a view. Checked: every row, key and reference
# kept; the identity and its sequence gone, bigserial's sequence dropped as the page says; foreign
# keys, CHECKs, the index and the view work; every new id above every old one and unique, before
# and after a crash; a plain sequence next to them repeats nothing; and an id too far ahead is
# refused by the page's reservation (22003), which leaves the default as it was. And a
# reservation made before idgen is preloaded holds once it is.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest::Migrating qw(migration_blocks);

my ($setup, $switch) = migration_blocks('identity-snowflake');
ok(defined $switch, 'docs/migrating.md has the two blocks of the identity path');

my $node = PostgreSQL::Test::Cluster->new('identity');
$node->init;
$node->start;

sub run_block
{
	my ($db, $sql, $what) = @_;
	my ($ret, $out, $err) = $node->psql($db, $sql, on_error_stop => 1);
	is($ret, 0, $what) or diag($err);
	return ($out, $err);
}

my $schema = q{
	CREATE TABLE accounts (id bigserial PRIMARY KEY, email text NOT NULL UNIQUE CHECK (email LIKE '%@%'));
	CREATE TABLE invoices (
	  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	  account_id bigint NOT NULL REFERENCES accounts,
	  amount numeric NOT NULL CHECK (amount > 0));
	CREATE INDEX invoices_account ON invoices (account_id);
	CREATE TABLE audit (seq bigserial PRIMARY KEY, invoice_id bigint NOT NULL REFERENCES invoices);
	CREATE VIEW account_balances AS
	  SELECT a.id, a.email, coalesce(sum(i.amount), 0) AS balance
	  FROM accounts a LEFT JOIN invoices i ON i.account_id = a.id GROUP BY a.id;
	INSERT INTO accounts (email) SELECT 'user' || i || '@example.com' FROM generate_series(1, 1000) i;
	INSERT INTO invoices (account_id, amount) SELECT 1 + i % 1000, 1 + i % 90 FROM generate_series(1, 3000) i;
};
$node->safe_psql('postgres', 'CREATE DATABASE app; CREATE DATABASE far');
$node->safe_psql($_, $schema) for qw(app far);

# The page's set-up, then the restart it asks for.
run_block('app', $setup, "the page's server set-up runs as printed");
$node->safe_psql('far', 'CREATE EXTENSION idgen');
$node->restart;

# Invoices copied from another Snowflake system: the identity's last values, up to 10 s ahead of
# the Snowflake clock ('far': 2 minutes ahead, more than the reservation allows).
$node->safe_psql('app', q{
	INSERT INTO invoices (id, account_id, amount) OVERRIDING SYSTEM VALUE
	SELECT idgen.snowflake_bound(clock_timestamp() + interval '10 s') + i, 1, 5 FROM generate_series(1, 3) i;
	INSERT INTO audit (invoice_id) SELECT id FROM invoices;
	CREATE TABLE old_ids AS SELECT 'accounts' AS t, id FROM accounts UNION ALL SELECT 'invoices', id FROM invoices;});
$node->safe_psql('far', q{
	INSERT INTO invoices (id, account_id, amount) OVERRIDING SYSTEM VALUE
	VALUES (idgen.snowflake_bound(clock_timestamp() + interval '2 minutes'), 1, 5);});

my %before = (
	accounts => $node->safe_psql('app', q{SELECT md5(string_agg(format('%s/%s', id, email), ',' ORDER BY id)) FROM accounts}),
	invoices => $node->safe_psql('app', q{SELECT md5(string_agg(format('%s/%s/%s', id, account_id, amount), ',' ORDER BY id)) FROM invoices}),
	audit => $node->safe_psql('app', 'SELECT max(seq) FROM audit'));

# Too far ahead: the reservation refuses, the transaction ends, nothing changed.
my (undef, undef, $refused) = $node->psql('far', $switch);
like($refused, qr/ERROR:  id \d+ is too far ahead of the clock/, 'ids 2 minutes ahead: the reservation refuses them');
is($node->safe_psql('far', q{SELECT pg_get_expr(adbin, adrelid) FROM pg_attrdef WHERE adrelid = 'accounts'::regclass}),
	q{nextval('accounts_id_seq'::regclass)}, 'and the switch did not happen');

run_block('app', $switch, "the page's switch runs as printed");
is($node->safe_psql('app', q{
	SELECT string_agg(c.relname || ':' || a.attidentity::text || ':' || coalesce(pg_get_expr(d.adbin, d.adrelid), ''), ' ' ORDER BY c.relname)
	FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
	LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
	WHERE c.relname IN ('accounts', 'invoices') AND a.attname = 'id'}),
	'accounts::idgen.snowflake() invoices::idgen.snowflake()', 'both keys default to idgen.snowflake(), neither is an identity');
is($node->safe_psql('app', q{SELECT count(*) FROM pg_class WHERE relkind = 'S' AND relname IN ('accounts_id_seq', 'invoices_id_seq')}),
	'0', "the identity's sequence went with it, bigserial's was dropped");

# new_rows($label): 2 000 accounts and 4 000 invoices through the defaults, audited through the plain
# sequence.
sub new_rows
{
	my ($label) = @_;
	$node->safe_psql('app', qq{
		INSERT INTO accounts (email) SELECT '$label' || i || '\@example.com' FROM generate_series(1, 2000) i;
		WITH i AS (INSERT INTO invoices (account_id, amount)
		           SELECT a.id, 7 FROM accounts a, generate_series(1, 2) WHERE a.email LIKE '$label%' RETURNING id)
		INSERT INTO audit (invoice_id) SELECT id FROM i;});
	return;
}
new_rows('new');
is($node->safe_psql('app', q{
	SELECT count(*) FILTER (WHERE a.id <= (SELECT max(id) FROM old_ids)), count(DISTINCT a.id), count(*) FILTER (WHERE o.id IS NOT NULL)
	FROM (SELECT id FROM accounts WHERE email LIKE 'new%' UNION ALL
	      SELECT i.id FROM invoices i JOIN accounts a ON a.id = i.account_id WHERE a.email LIKE 'new%') a
	LEFT JOIN old_ids o USING (id)}),
	'0|6000|0', '6 000 new ids, all above every old id of both tables (those 10 s ahead too), none equal to one');

is($node->safe_psql('app', q{SELECT md5(string_agg(format('%s/%s', id, email), ',' ORDER BY id)) FROM accounts WHERE email NOT LIKE 'new%'}),
	$before{accounts}, 'the old accounts are unchanged');
is($node->safe_psql('app', q{SELECT md5(string_agg(format('%s/%s/%s', i.id, i.account_id, i.amount), ',' ORDER BY i.id)) FROM invoices i JOIN accounts a ON a.id = i.account_id WHERE a.email NOT LIKE 'new%'}),
	$before{invoices}, 'the old invoices are unchanged');
my ($ret, $o, $e) = $node->psql('app', 'INSERT INTO invoices (account_id, amount) VALUES (-5, 1)');
like($e, qr/violates foreign key constraint/, 'the foreign key still refuses an unknown account');
($ret, $o, $e) = $node->psql('app', q{INSERT INTO invoices (account_id, amount) VALUES (1, 0)});
like($e, qr/violates check constraint/, 'the CHECK still refuses an amount of 0');
($ret, $o, $e) = $node->psql('app', q{INSERT INTO accounts (email) VALUES ('user1@example.com')});
like($e, qr/duplicate key value violates unique constraint "accounts_email_key"/, 'the unique email still refuses a repeat');
is($node->safe_psql('app', q{INSERT INTO invoices (id, account_id, amount) VALUES (4000000, 1, 1) RETURNING id}),
	'4000000', 'an explicit id is taken now that the identity is gone');
is($node->safe_psql('app', q{SELECT count(*), sum(balance) = (SELECT sum(amount) FROM invoices) FROM account_balances}),
	'3000|t', 'the view reads old and new accounts and invoices');
like($node->safe_psql('app', q{SET enable_seqscan = off; EXPLAIN (COSTS OFF) SELECT * FROM invoices WHERE account_id = 5}),
	qr/invoices_account/, 'the index on account_id serves lookups');

my $last = $node->safe_psql('app', 'SELECT greatest((SELECT max(id) FROM accounts), (SELECT max(id) FROM invoices))');
$node->stop('immediate');
$node->start;
new_rows('crash');
is($node->safe_psql('app', qq{
	SELECT count(*) FILTER (WHERE id <= $last) FROM (
	  SELECT id FROM accounts WHERE email LIKE 'crash%' UNION ALL
	  SELECT i.id FROM invoices i JOIN accounts a ON a.id = i.account_id WHERE a.email LIKE 'crash%') n}),
	'0', 'after a crash, 6 000 more ids, all above every earlier one');
is($node->safe_psql('app', qq{SELECT count(*) = count(DISTINCT seq) AND min(seq) FILTER (WHERE invoice_id > $last) > $before{audit} FROM audit}),
	't', 'the plain sequence next to them repeated nothing either');

$node->stop;

# The reservation taken before idgen is preloaded (backend scope: the database's mark records it)
# holds once it is: the server's generators adopt it before their first id there, and keep it
# across a crash.
my $early = PostgreSQL::Test::Cluster->new('early');
$early->init;
$early->start;
$early->safe_psql('postgres', 'CREATE EXTENSION idgen');
my $ahead = $early->safe_psql('postgres', q{SELECT idgen.snowflake_bound(clock_timestamp() + interval '20 s') + 4095});
is($early->safe_psql('postgres', qq{SELECT idgen.generator_scope(), idgen.snowflake_reserve_through($ahead) > $ahead}),
	'backend|t', 'without idgen preloaded, the reservation of an id 20 s ahead is taken');
$early->append_conf('postgresql.conf', "shared_preload_libraries = 'idgen'\nidgen.node_id = 1");
$early->restart;
is($early->safe_psql('postgres', qq{SELECT idgen.generator_scope(), min(id) > $ahead FROM (SELECT idgen.snowflake() AS id FROM generate_series(1, 1000)) s}),
	'server|t', 'preloaded, the first ids are above it');
$early->stop('immediate');
$early->start;
is($early->safe_psql('postgres', qq{SELECT min(id) > $ahead FROM (SELECT idgen.snowflake() AS id FROM generate_series(1, 1000)) s}),
	't', 'and after a crash');
$early->stop;
done_testing();
