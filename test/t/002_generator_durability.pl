# idgen-test: majors=15 tier=full
# Ids keep their order through crashes and clock steps: on a server with idgen preloaded and
# idgen.node_id set, whose wall clock the test shifts (libfaketime; CLOCK_MONOTONIC stays real,
# as when an administrator or NTP steps the clock), every generator (snowflake, uuidv7, ulid,
# typeid, distributed_id, distributed_id128, and a plain sequence next to them) never hands out
# an id that sorts at or below one it handed out and committed before, nor the same id twice:
#  - the clock steps 6 s back while the server runs, then a backend is killed with SIGKILL (the
#    postmaster reinitialises shared memory and runs crash recovery);
#  - the server crashes and restarts with its clock 2 s behind, then 5 s behind (with the ids
#    also stored in tables whose id is the PRIMARY KEY: no INSERT is refused), then 30 s behind;
#  - ids of a transaction that rolled back, then a crash and a restart 2 s behind;
#  - the clock runs 20 s ahead, then is corrected: sessions go on at once (each statement is
#    limited to 8 s, so waiting out the 20 s fails it) and their ids still sort above;
#  - on a frozen clock, a Snowflake burst carries full milliseconds into the next ones up to 1 s
#    ahead of the clock and then waits; the server crashes at once and restarts 2 s behind, and
#    new ids sort above the burst's (a sequence next to it).
# Loads come from 3 concurrent sessions before and after each event; every event has its own
# tables, and each check's name carries its figures.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest::IdOrder qw(create_id_tables load_ids check_ids);
use IdgenTest::ShiftedClock
  qw(start_shifted crash_and_restart_shifted shift_clock freeze_clock kill_a_backend);

my $node = PostgreSQL::Test::Cluster->new('durability');
$node->init;
# The framework turns restart_after_crash off; a killed backend must make the server reinitialise.
$node->append_conf('postgresql.conf', <<'EOF');
shared_preload_libraries = 'idgen'
idgen.node_id = 1
restart_after_crash = on
EOF
ok(start_shifted($node, 0), 'the server runs under libfaketime, its clock not shifted yet');
$node->safe_psql('postgres', 'CREATE EXTENSION idgen');
is($node->safe_psql('postgres', 'SELECT idgen.generator_scope()'),
	'server', 'idgen is preloaded: the generator state is the server\'s');

# A fresh set of tables per event, a checkpoint after creating them (so that crash recovery
# replays the event's own load only), and the load before the event.
sub prepare
{
	my ($prefix, $keyed) = @_;
	my $set = create_id_tables($node, $prefix, $keyed);
	$node->safe_psql('postgres', 'CHECKPOINT');
	load_ids($node, $set, 'before');
	return $set;
}

# The clock steps 6 s back while the server runs; then a backend is killed.
{
	my $set = prepare('step_kill');
	ok(shift_clock($node, -6), 'clock stepped 6 s back while running');
	# A short load (1 500 ids per generator: few enough that no generator needs to wait for the
	# clock to catch up), and the kill right after, while the ids handed out since the step may
	# still be ahead of the clock that the reinitialised server goes on from.
	load_ids($node, $set, 'between', ids => 500, batch => 500);
	my ($pid, $log) = kill_a_backend($node);
	ok( $pid && $log =~ /(?:server process|client backend) \(PID $pid\) was terminated by signal 9/
		  && $log =~ /all server processes terminated; reinitializing/,
		"backend $pid killed with SIGKILL: the postmaster reinitialised the server")
	  or diag("server log meanwhile:\n$log");
	load_ids($node, $set, 'after');
	check_ids(
		$node, $set,
		'clock 6 s back, then a backend killed',
		[ 'before' ],
		[ 'between', 'the clock stepped 6 s back' ],
		[ 'after', 'the backend was killed' ]);
}

# Crashes, the server restarting with its clock behind.
for my $event ([ 'crash_2s', -2, 0 ], [ 'crash_5s', -5, 1 ], [ 'crash_30s', -30, 0 ])
{
	my ($prefix, $behind, $keyed) = @$event;
	ok(shift_clock($node, 0), "$prefix: clock back to the real time");
	my $set = prepare($prefix, $keyed);
	ok(crash_and_restart_shifted($node, $behind),
		"$prefix: crash (-m immediate), restart through crash recovery with the clock ${\-$behind} s behind");
	load_ids($node, $set, 'after');
	check_ids(
		$node, $set,
		"crash, restart ${\-$behind} s behind" . ($keyed ? ' (3 tables, 2 keyed)' : ''),
		[ 'before' ],
		[ 'after', 'the restart' ]);
}

# Ids of a transaction that never commits are covered too: a session makes 20 000 ids of every
# generator and rolls back, the server crashes at once and restarts 2 s behind, and 1 000 new ids
# of every generator all sort above the largest rolled-back one.
{
	my %generators = (
		snowflake => [ 'idgen.snowflake()', 'x', 'bigint' ],
		uuidv7 => [ 'idgen.uuidv7()', 'x', 'uuid' ],
		ulid => [ 'idgen.ulid()', 'x', 'uuid' ],
		typeid => [ q{idgen.typeid('user')}, 'x COLLATE "C"', 'text' ],
		distributed_id => [ 'idgen.distributed_id()', 'x', 'numeric' ],
		distributed_id128 => [ 'idgen.distributed_id128()', 'x', 'uuid' ]);
	ok(shift_clock($node, 0), 'rolled back: clock back to the real time');
	my %largest;
	for my $name (sort keys %generators)
	{
		my ($call, $key) = @{ $generators{$name} };
		$largest{$name} = $node->safe_psql('postgres',
			"BEGIN; SELECT x FROM (SELECT $call AS x FROM generate_series(1, 20000)) s "
			  . "ORDER BY $key DESC LIMIT 1; ROLLBACK;");
	}
	ok(crash_and_restart_shifted($node, -2),
		'rolled back: crash right after the rollback, restart with the clock 2 s behind');
	for my $name (sort keys %generators)
	{
		my ($call, $key, $type) = @{ $generators{$name} };
		my $not_above = $node->safe_psql('postgres',
			"SELECT count(*) FROM (SELECT $call AS x FROM generate_series(1, 1000)) s "
			  . "WHERE $key <= '$largest{$name}'::$type");
		is($not_above, 0,
			"rolled back, crash, restart 2 s behind: $name: 0 of 1 000 new ids at or below the "
			  . "largest of 20 000 rolled-back ones ($largest{$name})");
	}
}

# The clock runs 20 s ahead, then is corrected; the sessions after the correction may not wait
# out the 20 s (statement_timeout 8 s: a stall fails their INSERTs).
{
	my $set = create_id_tables($node, 'ahead_20s', 0);
	ok(shift_clock($node, 20), 'clock 20 s ahead while running');
	load_ids($node, $set, 'before');
	ok(shift_clock($node, 0), 'clock corrected, back to the real time');
	load_ids($node, $set, 'after', statement_timeout => '8s');
	check_ids($node, $set, 'clock 20 s ahead, then corrected',
		[ 'before' ], [ 'after', 'the correction' ]);
}

# A Snowflake burst on a frozen clock (30 s ahead of the real one, so the server clock follows
# it): the frozen ms's 4096 ids, then full milliseconds carried into the next ones, exactly 1 s of
# them, 4 100 096 ids in all, each larger than the one before; the next call waits for the clock
# (a statement_timeout of 2 s cancels it). The server then crashes and restarts with its clock 2 s
# behind the real one: the generator mark covered the ids that ran ahead, so new ids sort above
# them, as a sequence's values do above its own.
{
	my $frozen = time + 30;
	ok(freeze_clock($node, $frozen), 'burst: clock frozen 30 s ahead of the real one');
	$node->safe_psql('postgres', 'CREATE SEQUENCE burst_sequence');
	# (Bounded: a generator that waited for the frozen clock would hang here.)
	my $burst = $node->safe_psql(
		'postgres', q{
		SET statement_timeout = '60s';
		SELECT count(*), count(*) FILTER (WHERE id <= previous), max(id),
		       (extract(epoch FROM idgen.snowflake_timestamp(max(id))) * 1000)::bigint
		         - (extract(epoch FROM idgen.snowflake_timestamp(min(id))) * 1000)::bigint,
		       max(idgen.snowflake_sequence(id)), max(s)
		FROM (SELECT id, s, lag(id) OVER (ORDER BY n) AS previous
		      FROM (SELECT n, idgen.snowflake() AS id, nextval('burst_sequence') AS s
		            FROM generate_series(1, 4100096) n) made) w});
	my ($count, $not_increasing, $last, $span_ms, $last_sequence, $last_value) =
	  split /\|/, $burst;
	ok( $count == 4100096 && $not_increasing == 0 && $span_ms == 1000 && $last_sequence == 4095,
		"burst: 4 100 096 ids on the frozen clock, each above the one before, from ms+0 to "
		  . "ms+1000 (spanned $span_ms ms, last sequence $last_sequence, $not_increasing not increasing)");
	my ($status, $out, $err) = $node->psql('postgres',
		"SET statement_timeout = '2s'; SELECT idgen.snowflake()");
	like($err, qr/canceling statement due to statement timeout/,
		'burst: 1 s ahead of the frozen clock, the next call waits (cancelled after 2 s)');
	ok(crash_and_restart_shifted($node, -2),
		'burst: crash at once, restart with the clock 2 s behind the real one');
	my ($not_above, $sequence_not_above) = split /\|/, $node->safe_psql('postgres',
		"SELECT count(*) FILTER (WHERE id <= $last), count(*) FILTER (WHERE s <= $last_value) "
		  . "FROM (SELECT idgen.snowflake() AS id, nextval('burst_sequence') AS s "
		  . "FROM generate_series(1, 1000)) t");
	is("$not_above|$sequence_not_above", '0|0',
		"burst, crash, restart 2 s behind: 0 of 1 000 new Snowflake ids at or below the burst's "
		  . "largest ($last, 1 s ahead of the clock it was made at), 0 sequence values at or "
		  . "below $last_value");
}

$node->stop;
done_testing();
