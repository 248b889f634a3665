# A major-version upgrade as operators do it: pg_upgrade of a server (idgen preloaded) whose
# database uses every idgen type, domain, default, index, the group registry and two ledgers
# (test/fixtures/app_database.sql), from the installation IDGEN_OLD_INSTALL names to the one this
# test runs on. Rows, indexes, defaults, constraints, the registry and ledger_verify are identical
# afterwards (test/fixtures/app_snapshot.sql), and every generator and the ledgers go on. The
# tables keyed by idgen.ulid and idgen.typeid keep every row's text and partition (visits is
# hash-partitioned by its ULID), their indexes answer lookups by literal text as before
# (test/fixtures/app_lookups.sql), and their defaults go on above the old server's ids.
# The upgraded server's wall clock is 20 s behind the old one's (libfaketime; pg_upgrade itself
# runs on the real clock), both with idgen.node_id = 1: the old server fills tables in the same
# database with ids of every generator (snowflake, uuidv7, ulid, typeid, distributed_id,
# distributed_id128, and a plain sequence next to them) from 3 concurrent sessions, the upgraded
# one fills them again, and no INSERT is refused, no id is repeated, and every generator's ids
# made after the upgrade sort above every id made before it.
# Run by test/run-all.sh for each supported upgrade path, with idgen installed in both.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest::AppDatabase qw(create_app_database app_snapshot error_of);
use IdgenTest::IdOrder qw(create_id_tables load_ids check_ids);
use IdgenTest::ShiftedClock qw(start_shifted wait_for_shift);

# A node seen through one of its databases, for IdgenTest::IdOrder, which works in a node's
# postgres database: its SQL and sessions go to that database instead.
{

	package DatabaseOfNode;    ## no critic (Modules::RequireFilenameMatchesPackage): a class of this script only

	sub new
	{
		my ($class, $node, $dbname) = @_;
		return bless { node => $node, dbname => $dbname }, $class;
	}

	sub safe_psql
	{
		my ($self, undef, @rest) = @_;
		return $self->{node}->safe_psql($self->{dbname}, @rest);
	}

	sub connstr
	{
		my ($self) = @_;
		return $self->{node}->connstr($self->{dbname});
	}

	sub installed_command
	{
		my ($self, @rest) = @_;
		return $self->{node}->installed_command(@rest);
	}
}

my $old_install = $ENV{IDGEN_OLD_INSTALL}
  or die "IDGEN_OLD_INSTALL must name the installation to upgrade from";
my $old = PostgreSQL::Test::Cluster->new('old', install_path => $old_install);
my $new = PostgreSQL::Test::Cluster->new('new');
my $path = $old->pg_version->major . ' to ' . $new->pg_version->major;

# Both clusters alike, as pg_upgrade requires; PostgreSQL 18 turned data checksums on by default.
my @initdb = ('--encoding=UTF8', '--locale=C');
my @old_initdb = @initdb;
push @old_initdb, '--data-checksums' if $old->pg_version < 18 && $new->pg_version >= 18;
$old->init(extra => \@old_initdb);
$new->init(extra => \@initdb);
for my $node ($old, $new)
{
	$node->append_conf('postgresql.conf', "shared_preload_libraries = 'idgen'\nidgen.node_id = 1");
}

$old->start;
create_app_database($old, 'app');
# The id tables, in the application database (before its snapshot, which lists their defaults).
my $old_app = DatabaseOfNode->new($old, 'app');
my $set = create_id_tables($old_app, 'upgrade', 0);
my $before = app_snapshot($old, 'app');
# lookups($node): which index (and partition) answers each lookup by a ULID or TypeID literal, and
# how many rows it finds.
my $lookups_sql = slurp_file('test/fixtures/app_lookups.sql');
sub lookups
{
	my ($node) = @_;
	my @found = $node->safe_psql('app', $lookups_sql) =~ /Index Scan using (\S+)|(rows \d+(?: in \S+)?)/g;
	return join ', ', grep { defined } @found;
}
my $old_lookups = lookups($old);
my $old_last = $old->safe_psql('app',
	'SELECT (SELECT id FROM events_v7 ORDER BY id DESC LIMIT 1), '
	  . '(SELECT max(id) FROM invoices), (SELECT id FROM shipments ORDER BY id DESC LIMIT 1)');
# The old server's ids, last, so that they are as recent as can be when the new server starts.
load_ids($old_app, $set, 'old');
$old->stop;

# pg_upgrade (of 18 and later) writes its reports into the new data directory.
command_ok(
	[
		$new->installed_command('pg_upgrade'), '--no-sync',
		'--old-datadir' => $old->data_dir,
		'--new-datadir' => $new->data_dir,
		'--old-bindir' => $old->config_data('--bindir'),
		'--new-bindir' => $new->config_data('--bindir'),
		'--socketdir' => $new->host,
		'--old-port' => $old->port,
		'--new-port' => $new->port
	],
	"$path: pg_upgrade succeeds");

# pg_upgrade ran the new cluster on the real clock; from now on it runs 20 s behind: far more
# than pg_upgrade takes, so the load below runs while the old server's ids are ahead of the clock.
ok(start_shifted($new, -20),
	"$path: the upgraded server runs with its clock 20 s behind the old one's");
my $after = app_snapshot($new, 'app');
is($after, $before,
	"$path: rows, registry, indexes, defaults, constraints and the event trigger are identical");
like($before, qr/^rows ledger_status 2 /m, "$path: the snapshot covers both ledgers");
is( $new->safe_psql('app', 'SELECT bool_and(valid) FROM ledger_status'),
	't', "$path: ledger_verify says valid for every ledger after the upgrade");
is( $new->safe_psql(
		'app', q{SET enable_seqscan = off; SELECT count(*) FROM ledger_events
		 WHERE id OPERATOR(idgen.=) (SELECT last_id FROM ledger_audits ORDER BY ledger_id LIMIT 1)}),
	'1', "$path: the upgraded indexes answer an event id lookup");
like($before, qr/^rows users 31 .*^rows sessions 32 .*^rows visits 72 .*^rows visits_0 .*^rows visits_3 \d+ /ms,
	"$path: the snapshot covers the ULID and TypeID tables, each partition of the ULID-partitioned one on its own");
like(
	$old_lookups,
	qr/^sessions_pkey, rows 1, users_pkey, rows 1, sessions_user_hash, rows 2, (visits_\d)_pkey, rows 1 in \1, (?:visits_\d_user_id_idx, ){4}rows 42$/,
	"$path: before the upgrade, lookups by a ULID and a TypeID literal use the primary keys, the hash index on a TypeID and one partition's key"
);
is(lookups($new), $old_lookups,
	"$path: after the upgrade the same indexes and partition answer the lookups by ULID and TypeID literal and find the same rows"
);

# Generation goes on: every default, above what the old server made where ids are ordered.
$new->safe_psql(
	'app', q{
	INSERT INTO person (name) VALUES ('after');
	INSERT INTO orders (customer) VALUES ('after');
	INSERT INTO tickets (title) VALUES ('after');
	INSERT INTO events_v7 (payload) VALUES ('after');
	INSERT INTO shipments DEFAULT VALUES;
	INSERT INTO invoices (amount) VALUES (1);
	INSERT INTO ledger_events (ledger_id, event, entities, data)
	  SELECT ledger_id, 'after the upgrade', '{}', '{}' FROM ledgers;
	INSERT INTO users (name) VALUES ('after');
	INSERT INTO sessions (user_id, label) SELECT id, 'after' FROM users WHERE name = 'after';
	INSERT INTO visits (user_id, page) SELECT id, '/after' FROM users WHERE name = 'after';});
# The ULID and TypeID defaults: above every generated id of the old server, the prefix CHECK still
# applied, and the new visit found by its text (routed and pruned to the same partition).
is( $new->safe_psql(
		'app', q{
SELECT idgen.typeid_prefix(u.id) || ' ' || (u.id > ALL (SELECT id FROM users WHERE name ~ '^u[0-9]+$'))
  || ' ' || (s.id > ALL (SELECT id FROM sessions WHERE label <> 'after'))
  || ' ' || (v.id > ALL (SELECT id FROM visits WHERE page = '/generated'))
FROM users u JOIN sessions s ON s.user_id = u.id JOIN visits v ON v.user_id = u.id WHERE u.name = 'after';
SELECT id AS new_visit FROM visits WHERE page = '/after' \gset
SET enable_seqscan = off;
SELECT count(*) FROM visits WHERE id = :'new_visit';
SELECT count(*) FROM users WHERE id = (SELECT id::text FROM users WHERE name = 'after')::idgen.typeid;}),
	"user true true true\n1\n1",
	"$path: idgen.new_typeid('user') and idgen.ulid() defaults continue above the old server's ids, and the new rows are found by their text");
like(error_of($new, 'app', q{INSERT INTO users (id, name) VALUES (idgen.new_typeid('post'), 'wrong prefix')}),
	qr/^23514: new row for relation "users" violates check constraint "users_id_is_a_user"/,
	"$path: the CHECK on the TypeID prefix still refuses another prefix");
my ($v7, $invoice, $shipment) = split /\|/, $old_last;
is( $new->safe_psql(
		'app', qq{SELECT (SELECT id FROM events_v7 WHERE payload = 'after') > '$v7'
		  AND (SELECT max(id) FROM invoices) > '$invoice'
		  AND (SELECT count(*) FROM shipments WHERE id > '$shipment') = 1}),
	't', "$path: uuidv7, distributed_id and distributed_id128 continue above the old server's ids");
is( $new->safe_psql(
		'app', q{SELECT idgen.group_name(id) || ' ' || (idgen.group_target(id) IS NOT NULL)
		 FROM person WHERE name = 'after'}),
	'person true', "$path: group_uuid still resolves its registered group and target");
is( $new->safe_psql(
		'app', q{SELECT string_agg(valid::text || ' ' || events, ',' ORDER BY ledger_id)
		 FROM ledger_status}),
	'true 32,true 32', "$path: both ledgers take an append after the upgrade and stay valid");
is($new->safe_psql('app', 'SELECT idgen.generator_scope()'),
	'server', "$path: the upgraded server loads idgen preloaded");

# The id tables filled again on the upgraded server, its clock still 20 s behind.
ok(wait_for_shift($new, -20), "$path: the upgraded server's clock is still 20 s behind");
# How far its clock is behind the old server's last Snowflake id as its load starts (a figure,
# not a check).
note(
	"$path: the upgraded server's clock is "
	  . $new->safe_psql(
		'app', q{SELECT round(extract(epoch FROM
		  (SELECT max(idgen.snowflake_timestamp(id)) FROM upgrade_snowflake) - clock_timestamp()), 2)})
	  . ' s behind the old server\'s last Snowflake id');
my $new_app = DatabaseOfNode->new($new, 'app');
load_ids($new_app, $set, 'new');
check_ids($new_app, $set, "$path: pg_upgrade to a server 20 s behind",
	[ 'old' ], [ 'new', 'the upgrade' ]);

$new->stop;
done_testing();
