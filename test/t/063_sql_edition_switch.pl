# idgen-test: majors=15 tier=full
# Moving a database between the editions, as docs/sql-edition.md says: a database that uses
# idgen_sql (installed by its owner, not a superuser) in defaults, a view, CHECKs, the group
# registry and a ledger is dumped (pg_dump -Fc), restored without the edition into a database
# where idgen (C) was created first, and everything is the same there: every row, the view, the
# registry, the ledger verifying; the defaults, CHECKs and the append trigger work on with idgen,
# and its Snowflake ids go on above the SQL edition's. Then back: the same database, dumped from
# idgen and restored onto idgen_sql, the same again.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('switch');
$node->init;
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'idgen'\nidgen.node_id = 7");
$node->start;
my $dir = PostgreSQL::Test::Utils::tempdir;
$node->safe_psql('postgres', q{
	CREATE ROLE app_owner LOGIN;
	CREATE DATABASE managed OWNER app_owner;
	CREATE DATABASE selfhosted OWNER app_owner;
	CREATE DATABASE managed_again OWNER app_owner;
});

sub as_owner
{
	my ($database, $sql) = @_;
	my ($status, $out, $err) = $node->psql($database, $sql, on_error_stop => 1,
		extra_params => [ '-U', 'app_owner' ]);
	die "as app_owner in $database: $err" if $status;
	return $out;
}

# The SQL edition, as a managed service's database owner installs it.
as_owner('managed', q{
	CREATE EXTENSION pgcrypto;
	CREATE EXTENSION idgen_sql;
	SELECT idgen.set_node_id(7);
});
my $schema = q{
CREATE SEQUENCE account_keys;
SELECT idgen.register_group('accounts', NULL, NULL);
CREATE TABLE accounts (
  id uuid PRIMARY KEY DEFAULT idgen.comb(),
  number bigint NOT NULL UNIQUE DEFAULT idgen.snowflake(),
  invoice idgen.distributed_id NOT NULL UNIQUE DEFAULT idgen.distributed_id(),
  tag uuid NOT NULL UNIQUE DEFAULT idgen.distributed_id128(),
  routed uuid NOT NULL UNIQUE DEFAULT idgen.group_uuid('accounts', nextval('account_keys'))
    CHECK (idgen.group_name(routed) = 'accounts'),
  name text NOT NULL CHECK (idgen.crc32c(name) > 0));
CREATE VIEW account_urls AS
  SELECT number, idgen.to_alphanumeric(invoice) AS url, idgen.to_hexadecimal(tag) AS hex,
         idgen.snowflake_node(number) AS node, idgen.group_uuid_key(routed) AS routed_key
  FROM accounts;
CREATE TABLE ledger_events (
  ledger_id bigint NOT NULL,
  id idgen.event_id NOT NULL,
  event text NOT NULL,
  entities jsonb NOT NULL,
  meta jsonb NOT NULL DEFAULT '{}',
  data jsonb NOT NULL,
  PRIMARY KEY (ledger_id, id));
CREATE TRIGGER ledger_append BEFORE INSERT ON ledger_events
  FOR EACH ROW EXECUTE FUNCTION idgen.ledger_append();
};
as_owner('managed', $schema);

# add_rows($database, $first, $count): accounts by their defaults, and events appended to the
# ledger (made first if there is none).
sub add_rows
{
	my ($database, $first, $count) = @_;
	as_owner($database, qq{
		INSERT INTO accounts (name) SELECT 'account ' || n FROM generate_series($first, $first + $count - 1) n;
		SELECT idgen.ledger_create('ledger_events', 'switch', 'moves between editions')
		WHERE NOT EXISTS (SELECT FROM ledger_events);
		INSERT INTO ledger_events (ledger_id, event, entities, data)
		SELECT (SELECT ledger_id FROM ledger_events LIMIT 1), 'account-opened',
		       jsonb_build_object('account', jsonb_build_array(n)), jsonb_build_object('n', n)
		FROM generate_series($first, $first + $count - 1) n;});
	return;
}

# snapshot($database): every row, the view, the registry and the ledger's verification, as text.
my $snapshot_sql = q{
	SELECT 'accounts ' || md5(string_agg(format('%s %s %s %s %s %s', id, number, invoice, tag, routed, name), ',' ORDER BY number)) FROM accounts
	UNION ALL SELECT 'view ' || md5(string_agg(format('%s %s %s %s %s', number, url, hex, node, routed_key), ',' ORDER BY number)) FROM account_urls
	UNION ALL SELECT 'groups ' || string_agg(format('%s=%s', name, group_id), ' ' ORDER BY name) FROM idgen.groups
	UNION ALL SELECT 'ledger ' || md5(string_agg(format('%s %s %s %s', ledger_id, id, event, data), ',' ORDER BY id)) FROM ledger_events
	UNION ALL SELECT 'verified ' || (idgen.ledger_verify(id, event, entities, meta, data ORDER BY id)).valid::text FROM ledger_events
	UNION ALL SELECT 'count ' || count(*) FROM accounts};

add_rows('managed', 1, 300);
my $before = as_owner('managed', $snapshot_sql);
like($before, qr/^verified true$/m, 'the SQL edition\'s ledger verifies');
like($before, qr/^count 300$/m, 'the SQL edition filled the table');

# move($from, $to, $edition_left_out): pg_dump, then pg_restore of everything but the edition,
# its schema idgen (which CREATE EXTENSION made in the target) and the editions' own state in
# idgen_internal, but the group registry's rows (the same table in both).
sub move
{
	my ($from, $to, $left_out) = @_;
	my $dump = "$dir/$from.dump";
	$node->command_ok([ 'pg_dump', '-Fc', '-d', $node->connstr($from), '-f', $dump ],
		"pg_dump of $from");
	my $list = `pg_restore -l $dump`;
	my @kept = grep {
		!/EXTENSION (- )?\Q$left_out\E\b/
		  && !/ SCHEMA (- )?idgen /
		  && !(/idgen_internal/ && !/TABLE DATA idgen_internal groups/)
	} split /\n/, $list;
	PostgreSQL::Test::Utils::append_to_file("$dir/$to.list", join("\n", @kept) . "\n");
	$node->command_ok(
		[ 'pg_restore', '--exit-on-error', '-L', "$dir/$to.list", '-d', $node->connstr($to), $dump ],
		"pg_restore into $to without $left_out");
	return;
}

# To the C edition: created by a superuser first.
$node->safe_psql('selfhosted', 'CREATE EXTENSION idgen');
move('managed', 'selfhosted', 'idgen_sql');
is(as_owner('selfhosted', $snapshot_sql), $before, 'on idgen, everything is as it was');
is(as_owner('selfhosted',
	q{SELECT extname FROM pg_extension WHERE extname LIKE 'idgen%' ORDER BY 1}), 'idgen',
	'and the database has the C edition only');
my $sql_max = as_owner('managed', 'SELECT max(number) FROM accounts');
add_rows('selfhosted', 301, 300);
my $after_c = as_owner('selfhosted', $snapshot_sql);
like($after_c, qr/^verified true$/m, 'idgen appends to the ledger the SQL edition began, and it verifies');
like($after_c, qr/^count 600$/m, 'idgen\'s defaults fill the table on');
is(as_owner('selfhosted', "SELECT count(*) FROM accounts WHERE split_part(name, ' ', 2)::int > 300 AND number <= $sql_max"),
	'0', 'every Snowflake id idgen made is above the SQL edition\'s');
is(as_owner('selfhosted', "SELECT count(DISTINCT idgen.snowflake_node(number)) FROM accounts"), '1',
	'with the same node number');

# And back to the SQL edition.
as_owner('managed_again', q{
	CREATE EXTENSION pgcrypto;
	CREATE EXTENSION idgen_sql;
	SELECT idgen.set_node_id(7);
});
move('selfhosted', 'managed_again', 'idgen');
is(as_owner('managed_again', $snapshot_sql), $after_c, 'back on idgen_sql, everything is as it was');
add_rows('managed_again', 601, 100);
my $after_sql = as_owner('managed_again', $snapshot_sql);
like($after_sql, qr/^verified true$/m, 'the SQL edition appends to the ledger idgen continued');
like($after_sql, qr/^count 700$/m, 'and its defaults fill the table on');
is(as_owner('managed_again', 'SELECT count(*) FROM accounts WHERE number IN (SELECT number FROM accounts GROUP BY 1 HAVING count(*) > 1)'),
	'0', 'no Snowflake id twice');

$node->stop;
done_testing();
