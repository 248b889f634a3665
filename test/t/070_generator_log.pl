# idgen-test: majors=15 tier=full
# What the server log tells a DBA about the server-wide generators, one line per event and never
# one per id: on a server with idgen preloaded and idgen.node_id set, whose wall clock the test
# shifts (libfaketime, as 002 does), with idgen.log_lead_threshold at 2 s:
#  - a start logs the scope, the node number and the generator mark (none on a new server);
#  - a step of the wall clock 6 s back while ids are made logs one line with its size, and one
#    that the ids lead the wall clock by more than the threshold; generator_status() counts the
#    step;
#  - a crash and a restart 5 s behind log the start (with the mark) and the end of recovery with
#    how far the new ids lead the wall clock, and one line that they lead it by more than the
#    threshold;
#  - a generator mark adopted from a database restored from another server logs one line, with
#    the node-number warning and its hint, in the server log only: the session whose id adopts it
#    hears nothing, even with client_min_messages = log.
# Between events, 100 000 ids of each generator in ten statements (ten sessions); a plain sequence
# next to them. 0.3.0 logged none of these lines and sent the adoption warning to the session.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest::ShiftedClock qw(start_shifted crash_and_restart_shifted shift_clock);

my $node = PostgreSQL::Test::Cluster->new('generator_log');
$node->init;
$node->append_conf('postgresql.conf', <<'EOF');
shared_preload_libraries = 'idgen'
idgen.node_id = 1
idgen.log_lead_threshold = '2s'
EOF

# The part of the server log written since $offset.
sub log_since
{
	my ($offset) = @_;
	return PostgreSQL::Test::Utils::slurp_file($node->logfile, $offset);
}

# How many times $pattern occurs in $log.
sub occurrences
{
	my ($log, $pattern) = @_;
	my $n = () = $log =~ /$pattern/g;
	return $n;
}

# Ten sessions, each making 10 000 ids of every generator and a value of a plain sequence.
sub make_ids
{
	for (1 .. 10)
	{
		$node->safe_psql(
			'postgres', q{
SELECT count(idgen.snowflake()), count(idgen.uuidv7()), count(idgen.ulid()),
       count(idgen.distributed_id128()) FROM generate_series(1, 10000);
SELECT nextval('plain_sequence')});
	}
	return;
}

my $start_line = qr/LOG:  idgen's generators start in server scope, node number 1, /;
my $step_line = qr/LOG:  idgen saw the wall clock step back by (\d+\.\d{3}) s\n/;
my $lead_line =
  qr/LOG:  idgen's server-wide ids lead the wall clock by (\d+\.\d{3}) s, more than idgen.log_lead_threshold \(2000 ms\)\n/;
my $recovery_line =
  qr/LOG:  idgen's generators start after recovery, generator mark [^\n]+\n[^\n]*DETAIL:  Their clock starts after the newest mark, (\d+\.\d{3}) s ahead of the wall clock/;

# A new server: the start says so, with no mark yet.
my $offset = 0;
ok(start_shifted($node, 0), 'the server runs under libfaketime, its clock not shifted yet');
$node->safe_psql('postgres', 'CREATE EXTENSION idgen; CREATE SEQUENCE plain_sequence');
make_ids();
my $log = log_since($offset);
is(occurrences($log, $start_line), 1, 'a start logs one line with the scope and the node number');
like($log, qr/${start_line}no generator mark\n/, 'a new server has no generator mark yet');
is(occurrences($log, $step_line) + occurrences($log, $lead_line) + occurrences($log, $recovery_line),
	0, 'ids made at the real time log nothing more');

# The wall clock steps 6 s back while ids are made.
$offset = -s $node->logfile;
ok(shift_clock($node, -6), 'clock stepped 6 s back while running');
make_ids();
$log = log_since($offset);
is(occurrences($log, $step_line), 1, 'a step back logs one line, whatever the number of ids after it');
my ($step) = $log =~ $step_line;
ok(defined $step && $step >= 5.9 && $step <= 6.1, 'the line says how far the clock stepped back (' . ($step // 'none') . ' s)');
like($log, qr/${step_line}[^\n]*DETAIL:  [^\n]*Steps back seen since the server started: 1 /,
	'its detail counts the steps back since the server started');
is(occurrences($log, $lead_line), 1, 'ids leading the wall clock by more than the threshold log one line');
my ($lead) = $log =~ $lead_line;
ok(defined $lead && $lead > 2 && $lead <= 7, 'that line says how far they lead (' . ($lead // 'none') . ' s)');
my (undef, $steps_back) =
  $node->psql('postgres', q{SELECT string_agg(DISTINCT clock_steps_back::text, ',') FROM idgen.generator_status()});
is($steps_back, '1', 'generator_status() counts the step back, in every row');

# A crash, and a restart 5 s behind: ids lead the clock by the mark's margin and the 5 s.
ok(shift_clock($node, 0), 'clock back to the real time');
make_ids();
$offset = -s $node->logfile;
ok(crash_and_restart_shifted($node, -5), 'crash (-m immediate), restart through crash recovery 5 s behind');
make_ids();
$log = log_since($offset);
is(occurrences($log, $start_line), 1, 'the restart logs one start line');
like($log, qr/${start_line}generator mark \d{4}-\d\d-\d\d [^\n]+\n[^\n]*DETAIL:  Their clock starts after the mark, \d+\.\d{3} s ahead of the wall clock/,
	'the start line names the mark and the lead');
is(occurrences($log, $recovery_line), 1, 'the end of crash recovery logs one line');
my ($recovered_lead) = $log =~ $recovery_line;
ok(defined $recovered_lead && $recovered_lead >= 2,
	'it says how far new ids lead the wall clock (' . ($recovered_lead // 'none') . ' s)');
is(occurrences($log, $lead_line), 1, 'the lead above the threshold logs one line after the restart');
is(occurrences($log, $step_line), 0, 'a restart behind the mark is not a step back');
is($node->safe_psql('postgres', q{SELECT nextval('plain_sequence') > 30}), 't', 'a plain sequence goes on');

# A database restored from another server (system identifier 42), its mark 5 s ahead.
$node->safe_psql('postgres', 'CREATE DATABASE restored');
# (0.3.0 kept the sequences in schema idgen.)
$node->safe_psql('restored', q{CREATE EXTENSION idgen;
SELECT setval(coalesce(to_regclass('idgen_internal.generator_mark'), to_regclass('idgen.generator_mark')),
              (extract(epoch FROM now() + interval '5 seconds') * 1000)::bigint, true),
       setval(coalesce(to_regclass('idgen_internal.generator_mark_origin'), to_regclass('idgen.generator_mark_origin')),
              42, true)});
$offset = -s $node->logfile;
my ($status, $out, $err) = $node->psql('restored',
	'SET client_min_messages = log; SELECT count(idgen.uuidv7()) FROM generate_series(1, 10000)');
is($out, '10000', 'the restored database makes ids');
# (The framework logs every statement, which a session with client_min_messages = log hears.)
unlike($err, qr/another server|generator mark|adopted/, 'the session whose id adopts the mark hears nothing of it');
like($err, qr/LOG:  statement: SELECT count\(idgen.uuidv7\(\)\)/, 'although it hears LOG lines');
$node->safe_psql('restored', 'SELECT count(idgen.snowflake()) FROM generate_series(1, 10000)') for 1 .. 3;
$log = log_since($offset);
is(occurrences($log, qr/LOG:  this database's ids were made by another server \(system identifier 42\)\n/),
	1, 'the adoption logs one line');
like($log,
	qr/DETAIL:  Database "restored" was restored or upgraded from that server\. idgen moved the generators of every database of this server past its generator mark, [^\n]+: new ids sort after the copied ones and lead the wall clock by \d+\.\d{3} s until it catches up\. [^\n]+this server's is 1\.\n[^\n]*HINT:  Find the server whose pg_control_system\(\) shows system identifier 42\. If it still runs with idgen.node_id = 1, give one of the two another node number/,
	'with the lead, the node number and what to check');

$node->stop;
done_testing();
