# idgen-test: majors=15,18 tier=full
# idgen_sql's generators (snowflake, distributed_id, distributed_id128, their state a sequence per
# generator in idgen_internal) never hand out an id twice nor one that sorts at or below an id
# committed before, with a plain sequence measured next to them, through:
#  - the wall clock stepping 6 s back while the server runs (libfaketime; CLOCK_MONOTONIC stays
#    real, as when NTP steps the clock);
#  - a backend killed with SIGKILL (the postmaster reinitialises and runs crash recovery);
#  - a crash (immediate stop) and a restart with the clock 8 s behind;
#  - pg_dump and pg_restore into a new database, made with the clock 30 s behind, where
#    Snowflake ids wait for the node number (a dump does not carry it);
#  - sessions that jump the sequences to the clock at once (4 sessions, each inserting rows one
#    by one, so that most calls find their tick behind the clock).
# Loads come from 3 concurrent sessions (INSERTs of 1000 rows, each its own transaction) before
# and after each event; the checks count, per generator, repeats over all phases and ids of a
# phase at or below the largest id of the phases before it.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest::Sessions qw(run_scripts_concurrently);
use IdgenTest::ShiftedClock qw(start_shifted crash_and_restart_shifted shift_clock kill_a_backend);

my @generators = (
	[ snowflake => 'bigint', 'idgen.snowflake()' ],
	[ distributed_id => 'idgen.distributed_id', 'idgen.distributed_id()' ],
	[ distributed_id128 => 'uuid', 'idgen.distributed_id128()' ],
	[ sequence => 'bigint', q{nextval('plain_seq')} ]);

my $node = PostgreSQL::Test::Cluster->new('sql_edition_generators');
$node->init;
# The framework turns restart_after_crash off; a killed backend must make the server reinitialise.
$node->append_conf('postgresql.conf', "restart_after_crash = on\n");
ok(start_shifted($node, 0), 'the server runs under libfaketime, its clock not shifted yet');
$node->safe_psql('postgres', 'CREATE EXTENSION pgcrypto; CREATE EXTENSION idgen_sql');
$node->safe_psql('postgres', 'SELECT idgen.set_node_id(1)');
$node->safe_psql('postgres',
	join(";\n",
		'CREATE SEQUENCE plain_seq',
		map { "CREATE TABLE ids_$_->[0] (id $_->[1] NOT NULL DEFAULT $_->[2], phase text NOT NULL)" }
		  @generators));

my @phases;

# load($dbname, $phase, $sessions, $rows, $batch): fills every table from concurrent sessions.
sub load
{
	my ($dbname, $phase, %options) = @_;
	my $sessions = $options{sessions} // 3;
	my $rows = $options{rows} // 6000;
	my $batch = $options{batch} // 1000;
	my $script = "SET statement_timeout = '60s';\n";
	for (1 .. $rows / $batch)
	{
		$script .=
		  "INSERT INTO ids_$_->[0] (phase) SELECT '$phase' FROM generate_series(1, $batch);\n"
		  for @generators;
	}
	my $errors = run_scripts_concurrently($node, $dbname, [ ($script) x $sessions ], 300);
	is(join('', @$errors), '', "phase $phase: $sessions sessions insert without error");
	push @phases, $phase;
	return;
}

# check($dbname, $what): per generator, no id twice over all phases and no id of the last phase at
# or below an id of the phases before it (the largest by ORDER BY: uuid has no max() on 15).
sub check
{
	my ($dbname, $what) = @_;
	my $last = $phases[-1];
	for my $generator (@generators)
	{
		my $table = "ids_$generator->[0]";
		my ($rows, $repeats, $inversions) = split /\|/, $node->safe_psql(
			$dbname, qq{
			SELECT count(*), count(*) - count(DISTINCT id),
			       count(*) FILTER (WHERE phase = '$last'
			                        AND id <= (SELECT id FROM $table WHERE phase <> '$last'
			                                  ORDER BY id DESC LIMIT 1))
			FROM $table});
		is("$repeats|$inversions", '0|0',
			"$what: $generator->[0], $rows ids: $repeats repeated, $inversions at or below an earlier one");
	}
	return;
}

load('postgres', 'start');

# The clock steps 6 s back while the server runs.
ok(shift_clock($node, -6), 'the clock steps 6 s back');
load('postgres', 'stepped_back');
check('postgres', 'after a 6 s clock step back');

# A backend killed with SIGKILL: every process ends, crash recovery.
my ($pid, $log) = kill_a_backend($node);
like($log, qr/server process \(PID $pid\) was terminated by signal 9/, 'a backend was killed with SIGKILL');
load('postgres', 'backend_killed');
check('postgres', 'after a backend was killed');

# A crash and a restart with the clock 8 s behind.
ok(crash_and_restart_shifted($node, -8), 'crash, restart with the clock 8 s behind');
load('postgres', 'crashed');
check('postgres', 'after a crash and a restart 8 s behind');

# Sessions that take the jump path at once: rows inserted one by one, so most calls find the
# sequence behind the clock and jump it under the lock.
load('postgres', 'one_by_one', sessions => 4, rows => 3000, batch => 1);
check('postgres', 'single-row inserts from 4 sessions');

# pg_dump and pg_restore into a new database, on a clock 30 s behind.
my $dump = $node->basedir . '/ids.dump';
$node->command_ok([ 'pg_dump', '-Fc', '-f', $dump, '-d', $node->connstr('postgres') ],
	'pg_dump of the database');
ok(shift_clock($node, -30), 'the clock runs 30 s behind');
$node->safe_psql('postgres', 'CREATE DATABASE restored');
$node->command_ok([ 'pg_restore', '-d', $node->connstr('restored'), $dump ],
	'pg_restore into a new database');
my ($status, $out, $err) = $node->psql('restored', 'SELECT idgen.snowflake()');
like($err, qr/needs a node number/, 'the dump does not carry the node number');
$node->safe_psql('restored', 'SELECT idgen.set_node_id(1)');
load('restored', 'restored');
check('restored', 'after pg_dump and pg_restore on a clock 30 s behind');

# The state: each generator's last id is at or ahead of the clock it ran on.
is( $node->safe_psql(
		'restored',
		q{SELECT count(*) FROM idgen.generator_status() WHERE scope = 'database' AND last_id_at IS NOT NULL}),
	'3',
	'generator_status shows the three generators\' state');

$node->stop;
done_testing();
