# idgen-test: majors=all tier=full
# ALTER EXTENSION idgen UPDATE from every released version (CHANGELOG.md, install scripts) and
# every version with an update path to default_version: a database that the old version filled
# (every kind of idgen column, a ledger, registered groups) keeps every row, its defaults and its
# ledger's appends work after the update, and it has the same catalog fingerprint as a fresh
# install (test/fixtures/extension_fingerprint.sql) and passes the regression suite (sql/,
# expected/) run against it. UPDATE on a fresh install is a no-op, and the same harness runs on
# that database.
use strict;
use warnings;
use Cwd ();
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::RecursiveCopy;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use IdgenTest::AppDatabase qw(run_client);

my $node = PostgreSQL::Test::Cluster->new('update');
$node->init;
$node->start;

my $fingerprint_sql = slurp_file('test/fixtures/extension_fingerprint.sql');
my ($default_version) = slurp_file('idgen.control') =~ /^default_version\s*=\s*'([^']+)'/m;

$node->safe_psql('postgres', 'CREATE DATABASE fresh');
$node->safe_psql('fresh', 'CREATE EXTENSION idgen');
my $fresh = $node->safe_psql('fresh', $fingerprint_sql);
my $fresh_lines = () = $fresh =~ /^/mg;
my $members = () = $fresh =~ /^member /mg;

# The installed scripts must be the repository's: every sql/idgen--*.sql (released versions and
# upgrade scripts), the current version's, which make writes from sql/idgen.sql, and the direct
# update scripts it writes from the chain (the Makefile's UPDATE_SHORTCUTS).
my $sharedir = $node->config_data('--sharedir') . '/extension';
my @shortcuts = split ' ', `make -s --no-print-directory print-update-shortcuts`;
my @repo_scripts = sort((map { s{.*/}{}r } glob('sql/idgen--*.sql')),
	"idgen--$default_version.sql", @shortcuts);
my @installed_scripts = sort map { s{.*/}{}r } glob("$sharedir/idgen--*.sql");
is("@installed_scripts", "@repo_scripts",
	"installed extension scripts are the repository's (@repo_scripts)");
is(slurp_file("$sharedir/idgen--$default_version.sql"),
	"-- idgen $default_version, made by make from sql/idgen.sql: edit that file.\n"
	  . slurp_file('sql/idgen.sql'),
	"the installed idgen--$default_version.sql is sql/idgen.sql under its version line");

# Released versions: those with an install script other than the current one, and those the
# changelog lists without "(unreleased)"; plus every version that has an update path.
my %sources;
for (@repo_scripts, split /\n/, slurp_file('CHANGELOG.md'))
{
	$sources{$1} = 1 if /^idgen--([^-]+)\.sql$/;
	$sources{$1} = 1 if /^## ([0-9]\S*)(.*)$/ && $2 !~ /unreleased/;
}
$sources{$_} = 1 for split /\n/, $node->safe_psql(
	'fresh', qq{SELECT source FROM pg_extension_update_paths('idgen')
	WHERE target = '$default_version' AND source <> target AND path IS NOT NULL});
delete $sources{$default_version};
my @sources = sort keys %sources;
note("default_version $default_version; earlier versions to update from: @sources");

# What an updated database holds from before the update: rows of every kind of idgen column made
# by the old version's generators and defaults, a ledger appended through its trigger, and
# registered groups, one of whose tables is dropped before the update.
my $old_data = q{
CREATE SCHEMA app;
SET search_path = app, public;
CREATE SEQUENCE person_key;
CREATE TABLE person (id uuid PRIMARY KEY DEFAULT idgen.group_uuid('upgrade.person', nextval('app.person_key')), name text);
CREATE TABLE orders (id uuid PRIMARY KEY DEFAULT idgen.comb(), v7 uuid DEFAULT idgen.uuidv7(), n int);
CREATE TABLE invoices (id idgen.distributed_id PRIMARY KEY DEFAULT idgen.distributed_id(),
                       wide uuid DEFAULT idgen.distributed_id128(), n int);
CREATE TABLE ledger_events (ledger_id bigint NOT NULL, id idgen.event_id NOT NULL, event text NOT NULL,
  entities jsonb NOT NULL, meta jsonb NOT NULL DEFAULT '{}', data jsonb NOT NULL, PRIMARY KEY (ledger_id, id));
CREATE TRIGGER ledger_append BEFORE INSERT ON ledger_events FOR EACH ROW EXECUTE FUNCTION idgen.ledger_append();
CREATE TABLE gone (id uuid);
SELECT idgen.register_group('upgrade.person', 4001, 'app.person'), idgen.register_group('upgrade.gone', 4002, 'app.gone');
-- A migrating role as docs/group-uuid.md told before 0.3.0 (which revokes it: it could lock the
-- registry that every DROP reads).
GRANT INSERT, UPDATE ON idgen.groups TO upgrade_migrator;
DROP TABLE gone;
INSERT INTO person (name) SELECT 'p' || g FROM generate_series(1, 1000) g;
INSERT INTO orders (n) SELECT g FROM generate_series(1, 1000) g;
INSERT INTO invoices (n) SELECT g FROM generate_series(1, 1000) g;
SELECT idgen.ledger_create('app.ledger_events', 'before the update', 'made by the old version') AS ledger \gset
INSERT INTO ledger_events (ledger_id, event, entities, data)
SELECT :ledger, 'e' || g, '{}', jsonb_build_object('g', g) FROM generate_series(1, 100) g;
};
my $data_state = q{
SELECT 'person ' || md5(string_agg(t::text, '|' ORDER BY t.id)) FROM app.person t;
SELECT 'orders ' || md5(string_agg(t::text, '|' ORDER BY t.id)) FROM app.orders t;
SELECT 'invoices ' || md5(string_agg(t::text, '|' ORDER BY t.id)) FROM app.invoices t;
SELECT 'ledger ' || md5(string_agg(t::text, '|' ORDER BY t.ledger_id, t.id)) FROM app.ledger_events t;
SELECT 'ledger valid ' || (v).valid || ' ' || (v).events
FROM (SELECT idgen.ledger_verify(id, event, entities, meta, data ORDER BY id) v FROM app.ledger_events) s;
};
my $after_update = q{
INSERT INTO app.person (name) VALUES ('after');
INSERT INTO app.orders (n) VALUES (0);
INSERT INTO app.invoices (n) VALUES (0);
SELECT idgen.group_uuid_group(p.id) = 4001, (SELECT count(*) = 1001 FROM app.orders), (SELECT count(*) = 1001 FROM app.invoices)
FROM app.person p WHERE name = 'after';
INSERT INTO app.ledger_events (ledger_id, event, entities, data)
SELECT ledger_id, 'after the update', '{}', '{}' FROM app.ledger_events LIMIT 1;
SELECT (v).valid || ' ' || (v).events
FROM (SELECT idgen.ledger_verify(id, event, entities, meta, data ORDER BY id) v FROM app.ledger_events) s;
SELECT string_agg(name || ':' || coalesce(target::text, ''), ' ' ORDER BY group_id) FROM idgen.groups;
-- The regression suite runs on this database next, with a registry of its own.
DELETE FROM idgen.groups WHERE name LIKE 'upgrade.%';
};

# The same checks as a fresh install: the pg_regress suite (the Makefile's REGRESS, sql/ and
# expected/), run in an existing database. setup.sql creates the extension, so the copy run here
# says IF NOT EXISTS (and expects the notice); the rest of setup.sql pins the whole SQL surface.
my @regress_tests = split ' ', `make -s --no-print-directory print-regress`;
ok(@regress_tests && slurp_file('sql/setup.sql') =~ /^CREATE EXTENSION idgen;$/m,
	'the regression harness: the Makefile lists the tests (' . scalar(@regress_tests)
	  . ') and sql/setup.sql starts with CREATE EXTENSION idgen;');
# regress_in($db): the suite against $db; returns "N of N" (passed of run).
sub regress_in
{
	my ($db) = @_;
	# Absolute: pg_regress runs in it (the framework's temporary directories are relative on 16+).
	my $dir = Cwd::abs_path(PostgreSQL::Test::Utils::tempdir);
	mkdir "$dir/test";
	PostgreSQL::Test::RecursiveCopy::copypath($_, "$dir/$_") for qw(sql expected test/vectors docs);
	for (
		[ 'sql/setup.sql', "CREATE EXTENSION IF NOT EXISTS idgen;" ],
		[
			'expected/setup.out',
			"CREATE EXTENSION IF NOT EXISTS idgen;\nNOTICE:  extension \"idgen\" already exists, skipping"
		])
	{
		my ($file, $replacement) = @$_;
		my $text = slurp_file("$dir/$file");
		$text =~ s/^CREATE EXTENSION idgen;$/$replacement/m;
		open my $fh, '>', "$dir/$file" or die "$dir/$file: $!";
		print $fh $text;
		close $fh;
	}
	# pg_regress reads test/vectors/ and docs/public-id.md relative to its working directory (\copy
	# in the scripts).
	my ($out, $err) = ('', '');
	my $finished = IPC::Run::run(
		[
			$ENV{PG_REGRESS}, "--inputdir=$dir", "--outputdir=$dir",
			'--use-existing', "--dbname=$db", '--host=' . $node->host,
			'--port=' . $node->port, @regress_tests
		],
		'>', \$out, '2>', \$err,
		init => sub { chdir $dir or die "chdir $dir: $!" });
	# 15's format ("test name ... ok") and 16's and later ("ok 1 - name", "not ok 1 - name").
	my $ok = () = $out =~ /^(?:test| ) +\w+ +\.\.\. ok|^ok \d+ +[-+] /mg;
	my $bad = () = $out =~ /^(?:test| ) +\w+ +\.\.\. (?:FAILED|failed)|^not ok \d+ +[-+] /mg;
	$bad++ if !$finished && !$bad;
	if ($bad || !$ok)
	{
		diag($out . $err);
		diag(slurp_file("$dir/regression.diffs")) if -f "$dir/regression.diffs";
	}
	return "$ok of " . ($ok + $bad);
}
my $all = scalar(@regress_tests) . ' of ' . scalar(@regress_tests);

ok(@sources, "there are earlier versions to update from (@sources)");
$node->safe_psql('postgres', 'CREATE ROLE upgrade_migrator');
my $k = 0;
for my $from (@sources)
{
	my $db = 'updated_' . ++$k;
	my $path = $node->safe_psql('fresh',
		qq{SELECT path FROM pg_extension_update_paths('idgen') WHERE source = '$from' AND target = '$default_version'}
	);
	ok($path ne '', "released version $from has an update path to $default_version ($path)")
	  or next;
	$node->safe_psql('postgres', "CREATE DATABASE $db");
	$node->safe_psql($db, "CREATE EXTENSION idgen VERSION '$from'");
	# Data made with the old version, in schema app (the regression suite below uses public).
	$node->safe_psql($db, $old_data);
	my $before = $node->safe_psql($db, $data_state);
	# A version with a generator mark (0.3.0 on) had it in schema idgen.
	my $mark_before = $node->safe_psql($db,
		q{SELECT pg_sequence_last_value(to_regclass('idgen.generator_mark')) || ' '
		         || pg_sequence_last_value(to_regclass('idgen.generator_mark_origin'))});
	my ($update_status, undef, $update_err) = $node->psql($db, 'ALTER EXTENSION idgen UPDATE');
	is($update_status, 0, "update from $from along $path succeeds");
	like(
		$update_err,
		qr/WARNING:  privileges on idgen\.groups revoked: INSERT from upgrade_migrator, UPDATE from upgrade_migrator.*HINT:  To let the roles that could register groups do so again: GRANT EXECUTE ON FUNCTION idgen\.register_group\(text, integer, regclass\) TO upgrade_migrator;$/s,
		"update from $from: the registry writer's INSERT and UPDATE on idgen.groups are revoked, with a warning naming the grant that replaces them"
	);
	is( $node->safe_psql(
			$db,
			q{SELECT has_table_privilege('upgrade_migrator', 'idgen.groups', 'INSERT, UPDATE, DELETE, TRUNCATE'),
			         has_table_privilege('upgrade_migrator', 'idgen.groups', 'SELECT'),
			         has_function_privilege('upgrade_migrator', 'idgen.register_group(text, integer, regclass)', 'EXECUTE')}
		),
		'f|t|f',
		"update from $from: the writer keeps SELECT on the registry, and registers only once granted EXECUTE");
	if ($mark_before eq '')
	{
		# The ids the old version made (UUIDv7, DistributedId, DistributedId128) all lie below the
		# database's generator mark that the update starts, which names this server as its writer.
		is( $node->safe_psql(
				$db, q{
SELECT count(*) FILTER (WHERE (extract(epoch FROM t) * 1000)::bigint >= m.last_value),
       bool_and(o.last_value = (SELECT system_identifier FROM pg_control_system()))
FROM (SELECT idgen.uuid_timestamp(v7) FROM app.orders
      UNION ALL SELECT idgen.distributed_id_timestamp(id) FROM app.invoices
      UNION ALL SELECT idgen.distributed_id128_timestamp(wide) FROM app.invoices) ids(t),
     idgen_internal.generator_mark m, idgen_internal.generator_mark_origin o}),
			'0|t',
			"update from $from: every id made before the update lies below the database's new generator mark, which this server wrote"
		);
	}
	else
	{
		is( $node->safe_psql(
				$db, q{SELECT m.last_value || ' ' || o.last_value
FROM idgen_internal.generator_mark m, idgen_internal.generator_mark_origin o}),
			$mark_before,
			"update from $from: the database's generator mark and its origin keep their values ($mark_before)");
	}
	is($node->safe_psql($db, q{SELECT extversion FROM pg_extension WHERE extname = 'idgen'}),
		$default_version, "update from $from along $path: extversion is now $default_version");
	is($node->safe_psql($db, $data_state),
		$before,
		"update from $from: every row made before it is unchanged (md5 of each table's ordered rows; the ledger verifies)"
	);
	is( $node->safe_psql($db, $after_update),
		"t|t|t\ntrue 102\nupgrade.person:app.person upgrade.gone:",
		"update from $from: defaults keep working, the ledger takes appends after its old tail, and a target of a table dropped before the update is cleared"
	);
	is($node->safe_psql($db, $fingerprint_sql),
		$fresh,
		"update from $from: the SQL surface equals a fresh install's ($fresh_lines catalog lines, $members member objects)"
	);
	is(regress_in($db), $all, "update from $from: the regression suite passes on the updated database");
}

# A dump of a 0.3.0 database restored where idgen is newer (docs/upgrading.md): 0.4.0 moved the
# registry's table and the generator mark to schema idgen_internal, so the dump's data for
# idgen.groups and idgen.generator_mark has nowhere to go in a fresh install; the documented way
# installs the dump's version first, restores, then updates, and keeps both.
$node->safe_psql('postgres', 'CREATE DATABASE dumped_030');
$node->safe_psql(
	'dumped_030', q{
CREATE EXTENSION idgen VERSION '0.3.0';
SELECT idgen.register_group('dumped', 1234);
SELECT setval('idgen.generator_mark', 1800000000000), setval('idgen.generator_mark_origin', 42);});
my $dump_dir = PostgreSQL::Test::Utils::tempdir;
my ($dumped, undef, $dump_err) =
  run_client($node, 'pg_dump', '-Fc', '-f', "$dump_dir/dumped_030.dump", 'dumped_030');
ok($dumped, 'a 0.3.0 database is dumped') or diag($dump_err);
my $carried = q{SELECT (SELECT string_agg(name || '=' || group_id, ',') FROM idgen.groups) || ' '
  || (SELECT last_value FROM idgen_internal.generator_mark) || ' '
  || (SELECT last_value FROM idgen_internal.generator_mark_origin)};
$node->safe_psql('postgres', 'CREATE DATABASE naive_030');
my (undef, undef, $naive_err) =
  run_client($node, 'pg_restore', '-d', 'naive_030', "$dump_dir/dumped_030.dump");
like(
	$naive_err,
	qr/^(?=.*relation "idgen.generator_mark" does not exist)(?=.*cannot copy to view "groups")/s,
	'restored into a fresh database, the 0.3.0 dump\'s mark and registry find no place (as docs/upgrading.md warns)');
$node->safe_psql('postgres', 'CREATE DATABASE restored_030');
$node->safe_psql('restored_030', "CREATE EXTENSION idgen VERSION '0.3.0'");
my (undef, undef, $restore_err) =
  run_client($node, 'pg_restore', '-d', 'restored_030', "$dump_dir/dumped_030.dump");
is(join(' ', $restore_err =~ /(ERROR: .*)/g), 'ERROR:  schema "idgen" already exists',
	'restored into a database with idgen 0.3.0 installed first: the one harmless error of 010');
$node->safe_psql('restored_030', 'ALTER EXTENSION idgen UPDATE');
is($node->safe_psql('restored_030', $carried), 'dumped=1234 1800000000000 42',
	'... and updated, it keeps the dumped registry, mark and origin');

# UPDATE on a fresh install: succeeds, says it is already there, changes nothing.
my %notices;
for my $update ('ALTER EXTENSION idgen UPDATE', "ALTER EXTENSION idgen UPDATE TO '$default_version'")
{
	my ($status, undef, $err) = $node->psql('fresh', $update);
	my $notice = $err =~ s/^psql:<stdin>:\d+: //r;    # where psql read the statement
	$notices{"$status $notice"} = 1;
}
is( join('|', keys %notices),
	qq{0 NOTICE:  version "$default_version" of extension "idgen" is already installed},
	"ALTER EXTENSION idgen UPDATE (and UPDATE TO '$default_version') on a fresh install succeeds with the notice 'already installed'"
);
ok( $node->safe_psql('fresh', $fingerprint_sql) eq $fresh && $members > 100 && $fresh !~ /ERROR/,
	"that no-op changes nothing: the same $fresh_lines-line catalog fingerprint ($members member objects)");
is(regress_in('fresh'), $all,
	'the regression suite passes on that updated fresh database (the harness an updated database goes through)');

done_testing();
