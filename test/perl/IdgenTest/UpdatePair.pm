# A primary and its streaming standby on an earlier release of idgen (built from git history,
# IdgenTest::Releases), each on its own copy of the installation, with data made by that release:
# the release's own application database (its test/fixtures/app_database.sql) and ids of every
# time-ordered generator next to a plain sequence (IdgenTest::IdOrder). And what the update tests
# do to them and check afterwards: put the version under test's files on a server, restart it,
# run ALTER EXTENSION idgen UPDATE in every database, and compare both servers.
package IdgenTest::UpdatePair;

use strict;
use warnings;
use Exporter 'import';
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes;
use IdgenTest::AppDatabase qw(app_snapshot);
use IdgenTest::IdOrder qw(create_id_tables load_ids check_ids);
use IdgenTest::Releases
  qw(installation_copy install_release install_current release_source current_version);

our @EXPORT_OK = qw(release_pair update_files update_databases error_text standby_health
  load_phase compare_servers mark_of);

# The databases idgen is in: postgres holds the id tables, app the release's application database.
my @databases = qw(postgres app);

# Ids per phase: 2 sessions x 4 000 ids per generator, in INSERTs of 2 000.
my %load = (sessions => 2, ids => 4_000, batch => 2_000);

# release_pair($from): the pair on release $from, the standby streaming and caught up, with the
# phase 'old' of ids made. Returns the pair (a hash: from, to, primary, standby, and their
# installations' copies, the id set, the phases so far, the standby's log offset at its start).
sub release_pair
{
	my ($from) = @_;
	my $tag = $from =~ tr/./_/r;
	my %pair = (from => $from, to => current_version(), phases => []);
	$pair{started} = Time::HiRes::time();
	for my $role (qw(primary standby))
	{
		$pair{"${role}_install"} = installation_copy("${role}_$tag");
		install_release($pair{"${role}_install"}, $from);
	}
	my $primary = $pair{primary} = PostgreSQL::Test::Cluster->new("primary_$tag",
		install_path => $pair{primary_install}{path});
	$primary->init(allows_streaming => 1);
	$primary->append_conf('postgresql.conf', "shared_preload_libraries = 'idgen'\nidgen.node_id = 1");
	$primary->start;
	$primary->safe_psql('postgres', 'CREATE EXTENSION idgen; CREATE DATABASE app');
	my ($status, undef, $err) = $primary->psql('app', undef,
		extra_params => [ '-v', 'ON_ERROR_STOP=1', '-f',
			release_source($from) . '/test/fixtures/app_database.sql' ]);
	is($status, 0, "$from: the release's application database, made by its own library and scripts")
	  or diag($err);
	$pair{set} = create_id_tables($primary, 'ids', 0);
	load_phase(\%pair, 'old');

	$primary->backup('base');
	my $standby = $pair{standby} = PostgreSQL::Test::Cluster->new("standby_$tag",
		install_path => $pair{standby_install}{path});
	$standby->init_from_backup($primary, 'base', has_streaming => 1);
	$standby->start;
	$pair{standby_log_start} = 0;
	ok(_streaming($standby),
		"$from: the standby (idgen $from preloaded, as on the primary) is streaming");
	$primary->wait_for_catchup($standby);
	is( $primary->safe_psql('app', q{SELECT extversion FROM pg_extension WHERE extname = 'idgen'}),
		$from, "$from: the databases are on idgen $from");
	return \%pair;
}

# _streaming($standby): whether the standby is in recovery and its WAL receiver streams (polled).
sub _streaming
{
	my ($standby) = @_;
	return $standby->poll_query_until('postgres',
		q{SELECT pg_is_in_recovery() AND status = 'streaming' FROM pg_stat_wal_receiver});
}

# update_files($pair, $role): puts the version under test's idgen files on that server's
# installation while it runs (as a package update or make install does); restarts it unless
# restart => 0. A standby must stream again afterwards.
sub update_files
{
	my ($pair, $role, %options) = @_;
	install_current($pair->{"${role}_install"});
	return if defined $options{restart} && !$options{restart};
	$pair->{$role}->restart;
	ok(_streaming($pair->{standby}), "$pair->{from}: the standby streams again after the restart")
	  if $role eq 'standby';
	return;
}

# update_databases($pair): ALTER EXTENSION idgen UPDATE in every database on the primary.
# Returns the errors ('' when every update succeeded).
sub update_databases
{
	my ($pair) = @_;
	my $errors = '';
	for my $db (@databases)
	{
		my ($status, undef, $err) = $pair->{primary}->psql($db, 'ALTER EXTENSION idgen UPDATE',
			extra_params => [ '-v', 'VERBOSITY=verbose' ]);
		$errors .= $err if $status != 0;
	}
	return $errors;
}

# error_text($node, $dbname, $sql): everything psql said on stderr about the SQL (verbose:
# SQLSTATE, message, detail, hint), '' when it succeeded.
sub error_text
{
	my ($node, $dbname, $sql) = @_;
	my ($status, undef, $err) =
	  $node->psql($dbname, $sql, extra_params => [ '-v', 'VERBOSITY=verbose' ]);
	return $status == 0 ? '' : $err =~ s/^psql:<stdin>:\d+: //mgr;    # where psql read it
}

# standby_health($pair): what shows the standby stopped, or is not in recovery and streaming:
# lines of its log since it started (the startup process ending, a PANIC, an unknown resource
# manager) and the state; '' when it streams and never stopped but for the restarts it was given.
sub standby_health
{
	my ($pair) = @_;
	my $log = slurp_file($pair->{standby}->logfile);
	my @bad = grep { /startup process .*(exited|terminated)|PANIC|resource manager with ID/ }
	  split /\n/, $log;
	push @bad, 'not in recovery and streaming' unless _streaming($pair->{standby});
	return join "\n", @bad;
}

# load_phase($pair, $phase): the primary makes ids of every generator and plain sequence values
# in phase $phase; returns the number of failed INSERTs.
sub load_phase
{
	my ($pair, $phase, %options) = @_;
	push @{ $pair->{phases} }, $phase;
	return load_ids($pair->{primary}, $pair->{set}, $phase, %load, %options);
}

# _id_tables_digest($node): each id table's count and md5 of its ordered ids.
sub _id_tables_digest
{
	my ($node, $set) = @_;
	my @tables = map { map { $_->[0] } @{ $_->{tables} } } @{ $set->{generators} };
	return $node->safe_psql('postgres',
		join ";\n", map {
			"SELECT '$_ ' || count(*) || ' ' || md5(coalesce(string_agg(id::text, ',' ORDER BY id::text), '')) FROM $_"
		} @tables);
}

# mark_of($node): the server's durable mark (idgen.generator_status, 0.3.0 and later).
sub mark_of
{
	my ($node) = @_;
	return $node->safe_psql('postgres',
		q{SELECT mark FROM idgen.generator_status() WHERE generator = 'uuidv7'});
}

# compare_servers($pair, $what): after the update: the primary makes the phase 'new' of ids; then
# both servers are on the version under test in every database, the standby caught up with
# everything (the application database's snapshot and the id tables identical to the primary's,
# the primary's generator mark replayed), it never stopped, and the ids of every phase sort after
# those of the phases before it, for every generator and the plain sequence.
sub compare_servers
{
	my ($pair, $what) = @_;
	my ($from, $to, $primary, $standby) = @$pair{qw(from to primary standby)};
	is(load_phase($pair, 'new'), 0, "$from: ids after the update: no INSERT failed");
	$primary->wait_for_catchup($standby);
	for my $db (@databases)
	{
		is( $standby->safe_psql($db,
				q{SELECT extversion FROM pg_extension WHERE extname = 'idgen'}),
			$to, "$from: database $db is on idgen $to, on the standby too");
	}
	is( $standby->safe_psql('postgres', 'SHOW idgen.library_version') . ' '
		  . $primary->safe_psql('postgres', 'SHOW idgen.library_version'),
		"$to $to", "$from: both servers run idgen's library $to");
	is(app_snapshot($standby, 'app'), app_snapshot($primary, 'app'),
		"$from: standby and primary: the application database's snapshots are identical");
	is(_id_tables_digest($standby, $pair->{set}), _id_tables_digest($primary, $pair->{set}),
		"$from: standby and primary: the id tables are identical");
	my $mark = mark_of($primary);
	ok($mark ne '' && mark_of($standby) eq $mark,
		"$from: the standby replayed the primary's generator mark ($mark)");
	is(standby_health($pair), '', "$from: the standby never stopped ($what)");
	my @phases = @{ $pair->{phases} };
	check_ids($primary, $pair->{set}, "$from -> $to, $what", [ $phases[0] ],
		map { [ $phases[$_], "phase $phases[$_ - 1]" ] } 1 .. $#phases);
	note(sprintf('%s -> %s, %s: %.1f s', $from, $to, $what, Time::HiRes::time() - $pair->{started}));
	return;
}

1;
