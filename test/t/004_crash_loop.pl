# idgen-test: majors=all tier=quick
# A crash loop does not push ids ahead of the clock: a server with idgen preloaded and
# idgen.node_id set crashes 60 times in a row, as fast as it restarts (a server process killed
# with SIGKILL right after each round of ids: the postmaster ends every other process,
# reinitialises shared memory and runs crash recovery), and between crashes every time-ordered
# generator (snowflake, uuidv7, ulid, typeid, distributed_id, distributed_id128) and a plain
# sequence next to them make 200 ids. After every start the generators continue past the
# generator mark, which each crash leaves a little ahead of the clock; the lead that leaves must
# not add up from crash to crash: after each round the newest id of every generator leads the
# wall clock by at most the 2 s that docs/durability.md states (a bound that a slower machine only
# makes easier to keep: the lead shrinks as time passes). Checked too: no id repeated and none of
# a round at or below an id of an earlier round, for every generator and the sequence.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);
use IdgenTest::Readiness qw(wait_until_accepting);

my $crashes = 60;
my $ids = 200;
# The documented bound on how far ids lead the wall clock after any number of crashes, in
# seconds, and the margin of the measurement (generator_status reads the wall clock after the id).
my $bound = 2.0;

my $node = PostgreSQL::Test::Cluster->new('crash_loop');
$node->init;
# The framework turns restart_after_crash off; a killed process must make the server reinitialise.
$node->append_conf('postgresql.conf', <<'EOF');
shared_preload_libraries = 'idgen'
idgen.node_id = 1
restart_after_crash = on
EOF
$node->start;

my @generators = (
	[ snowflake => 'bigint', 'idgen.snowflake()', 'id' ],
	[ uuidv7 => 'uuid', 'idgen.uuidv7()', 'id::text' ],
	[ ulid => 'uuid', 'idgen.ulid()', 'id::text' ],
	[ typeid => 'text COLLATE "C"', q{idgen.typeid('user')}, 'id' ],
	[ distributed_id => 'idgen.distributed_id', 'idgen.distributed_id()', 'id' ],
	[ distributed_id128 => 'uuid', 'idgen.distributed_id128()', 'id::text' ],
	[ sequence => 'bigint', q{nextval('loop_seq')}, 'id' ]);
$node->safe_psql('postgres',
	join ";\n", 'CREATE EXTENSION idgen', 'CREATE SEQUENCE loop_seq',
	map { "CREATE TABLE loop_$_->[0] (id $_->[1] NOT NULL, round int NOT NULL)" } @generators);

# One round: ids of every generator, then how far the newest id of each time-ordered generator
# leads the wall clock (ms), the largest of them.
sub round_of_ids
{
	my ($round) = @_;
	my $sql = join ";\n",
	  (map { "INSERT INTO loop_$_->[0] SELECT $_->[2], $round FROM generate_series(1, $ids)" }
		  @generators),
	  q{SELECT round(max(extract(epoch FROM last_id_ahead)) * 1000) FROM idgen.generator_status()};
	return $node->safe_psql('postgres', $sql);
}

# Kills the WAL writer with SIGKILL and waits until the postmaster has reinitialised and the
# server accepts connections again.
sub crash
{
	my $log_offset = -s $node->logfile;
	my $pid = $node->safe_psql('postgres',
		q{SELECT pid FROM pg_stat_activity WHERE backend_type = 'walwriter'});
	kill 'KILL', $pid;
	my $deadline = time + $PostgreSQL::Test::Utils::timeout_default;
	usleep(10_000)
	  until time > $deadline
	  || $node->log_contains(qr/all server processes terminated; reinitializing/, $log_offset);
	wait_until_accepting($node);
	return $node->log_contains(qr/all server processes terminated; reinitializing/, $log_offset);
}

my $leads = '';
my $largest_lead = round_of_ids(0);
my $started = Time::HiRes::time();
my $crashed = 0;
for my $round (1 .. $crashes)
{
	$crashed++ if crash();
	my $lead = round_of_ids($round);
	$leads .= " $lead";
	$largest_lead = $lead if $lead > $largest_lead;
}
my $elapsed = Time::HiRes::time() - $started;
is($crashed, $crashes, "$crashes crashes, each followed by the postmaster's reinitialisation");
note(sprintf('%d crashes in %.1f s; lead of the newest id after each (ms):%s',
	$crashes, $elapsed, $leads));
ok($largest_lead <= $bound * 1000,
	"after each of $crashes crashes in a row (${\sprintf('%.1f', $elapsed)} s) the newest ids lead "
	  . "the wall clock by at most $bound s (largest: $largest_lead ms; after the last: "
	  . (split ' ', $leads)[-1] . ' ms)');

for my $generator (@generators)
{
	my ($name, $type, $call, $key) = @$generator;
	my ($rows, $repeats, $inversions) = split /\|/, $node->safe_psql(
		'postgres', qq{
WITH rounds AS (SELECT round, min($key) AS lowest, max($key) AS highest
                FROM loop_$name GROUP BY round),
     earlier AS (SELECT round, lowest,
                        max(highest) OVER (ORDER BY round
                                           ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS before
                 FROM rounds)
SELECT (SELECT count(*) FROM loop_$name),
       (SELECT count(*) - count(DISTINCT id) FROM loop_$name),
       (SELECT count(*) FILTER (WHERE lowest <= before) FROM earlier)});
	is("$rows $repeats $inversions", ($crashes + 1) * $ids . ' 0 0',
		"$name: ${\(($crashes + 1) * $ids)} ids over $crashes crashes, 0 repeats, 0 rounds reaching "
		  . "at or below an earlier round ($repeats repeats, $inversions rounds)");
}

$node->stop;
done_testing();
