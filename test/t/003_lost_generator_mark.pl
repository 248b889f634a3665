# idgen-test: majors=all tier=full
# A start that does not find idgen's generator mark file still starts the server-wide generators
# after every id they handed out: the mark has other copies, the WAL that crash recovery replays
# and every database's own mark, and a start takes the newest it can read before the first id of
# any database. On a server with idgen preloaded and idgen.node_id set, whose wall clock the test
# shifts (libfaketime), every generator (snowflake, uuidv7, ulid, typeid, distributed_id,
# distributed_id128, and a plain sequence next to them) hands out no id twice and none at or
# below an earlier one when the file is lost:
#  - removed after a checkpoint, then a crash and a restart 5 s behind (the WAL replayed holds no
#    mark: the databases' marks give it);
#  - removed after a clean stop, then a start 10 s behind;
#  - the newest mark in another database than the one that makes the next ids (Snowflake ids are
#    unique per server, across its databases): ids made only in database "other", the file
#    removed, a start 10 s behind, new ids in database "postgres";
#  - damaged: the start stops with a HINT to restore or remove it; removed as the HINT says, then
#    a start 10 s behind;
#  - removed while the WAL after the last checkpoint still holds marks: crash recovery restores the
#    newest mark, which the start uses without reading the databases.
# Each start without the file logs a warning that names the copy it used. While the databases'
# marks are read the first id waits, interruptibly (a database whose mark is locked holds the read
# up: statement_timeout cancels the waiting id, a sequence goes on meanwhile, and the id comes once
# the lock is gone); with no background worker to read them (max_worker_processes = 0) the id
# fails with an error that names the setting.
use strict;
use warnings;
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest::IdOrder qw(create_id_tables load_ids check_ids);
use IdgenTest::ShiftedClock qw(start_shifted crash_and_restart_shifted);

my $node = PostgreSQL::Test::Cluster->new('lost_mark');
$node->init;
$node->append_conf('postgresql.conf', <<'EOF');
shared_preload_libraries = 'idgen'
idgen.node_id = 1
restart_after_crash = on
EOF
ok(start_shifted($node, 0), 'the server runs under libfaketime, its clock not shifted yet');
$node->safe_psql('postgres', 'CREATE EXTENSION idgen');
$node->safe_psql('postgres', 'CREATE DATABASE other');
$node->safe_psql('other', 'CREATE EXTENSION idgen; CREATE SEQUENCE other_seq');
my $mark_file = $node->data_dir . '/idgen_generator_mark';

# remove_mark_file($what): removes the file (the server stopped or running), checks it is gone.
sub remove_mark_file
{
	my ($what) = @_;
	ok(-f $mark_file, "$what: the server has its generator mark file");
	unlink $mark_file;
	ok(!-e $mark_file, "$what: file idgen_generator_mark removed");
	return;
}

# log_since($offset): the server log written since $offset.
sub log_since
{
	my ($offset) = @_;
	return PostgreSQL::Test::Utils::slurp_file($node->logfile, $offset);
}

# warned_about($log, $what, $copy): checks that the log says the file was missing and which copy
# of the mark the start took ($copy: a pattern of the detail).
sub warned_about
{
	my ($log, $what, $copy) = @_;
	like($log,
		qr/WARNING:  idgen's generator mark file "idgen_generator_mark" was missing at start\n.*DETAIL:  [^\n]*$copy/s,
		"$what: the start logs a warning that the file was missing and which copy of the mark it took");
	return;
}

# The file removed after a checkpoint; a crash; a restart 5 s behind.
{
	my $set = create_id_tables($node, 'after_checkpoint', 0);
	$node->safe_psql('postgres', 'CHECKPOINT');
	load_ids($node, $set, 'before', ids => 10_000);
	$node->safe_psql('postgres', 'CHECKPOINT');
	remove_mark_file('after a checkpoint');
	my $offset = -s $node->logfile;
	ok(crash_and_restart_shifted($node, -5),
		'after a checkpoint: crash, restart through crash recovery with the clock 5 s behind');
	load_ids($node, $set, 'after', ids => 10_000);
	check_ids($node, $set, 'file removed after a checkpoint, crash, restart 5 s behind',
		[ 'before' ], [ 'after', 'the restart without the file' ]);
	warned_about(log_since($offset), 'after a checkpoint', 'database "postgres"');
}

# The file removed after a clean stop; a start 10 s behind.
{
	my $set = create_id_tables($node, 'after_stop', 0);
	load_ids($node, $set, 'before', ids => 10_000);
	$node->stop;
	remove_mark_file('after a clean stop');
	my $offset = -s $node->logfile;
	ok(start_shifted($node, -10), 'after a clean stop: start with the clock 10 s behind');
	load_ids($node, $set, 'after', ids => 10_000);
	check_ids($node, $set, 'file removed after a clean stop, start 10 s behind',
		[ 'before' ], [ 'after', 'the start without the file' ]);
	warned_about(log_since($offset), 'after a clean stop', 'database "postgres"');
}

# The newest mark is in database "other": ids made only there, the file removed after a clean
# stop, a start 10 s behind, and new ids in database "postgres" (and the sequence in "other").
{
	my %generators = (
		snowflake => [ 'idgen.snowflake()', 'x', 'bigint' ],
		uuidv7 => [ 'idgen.uuidv7()', 'x', 'uuid' ],
		ulid => [ 'idgen.ulid()', 'x', 'uuid' ],
		typeid => [ q{idgen.typeid('user')}, 'x COLLATE "C"', 'text' ],
		distributed_id => [ 'idgen.distributed_id()', 'x', 'numeric' ],
		distributed_id128 => [ 'idgen.distributed_id128()', 'x', 'uuid' ]);
	$node->stop;
	ok(start_shifted($node, 0), 'other database: the server back on the real clock');
	my %largest;
	for my $name (sort keys %generators)
	{
		my ($call, $key) = @{ $generators{$name} };
		$largest{$name} = $node->safe_psql('other',
			"SELECT x FROM (SELECT $call AS x FROM generate_series(1, 50000)) s "
			  . "ORDER BY $key DESC LIMIT 1");
	}
	my $last_value = $node->safe_psql('other',
		'SELECT max(nextval) FROM (SELECT nextval(\'other_seq\') FROM generate_series(1, 50000)) s');
	$node->stop;
	remove_mark_file('other database');
	my $offset = -s $node->logfile;
	ok(start_shifted($node, -10), 'other database: start with the clock 10 s behind');
	for my $name (sort keys %generators)
	{
		my ($call, $key, $type) = @{ $generators{$name} };
		my $not_above = $node->safe_psql('postgres',
			"SELECT count(*) FROM (SELECT $call AS x FROM generate_series(1, 10000)) s "
			  . "WHERE $key <= '$largest{$name}'::$type");
		is($not_above, 0,
			"other database: $name: 0 of 10 000 new ids in database \"postgres\" at or below the "
			  . "largest of 50 000 made in database \"other\" before the start without the file "
			  . "($largest{$name})");
	}
	my $sequence_not_above = $node->safe_psql('other',
		"SELECT count(*) FROM (SELECT nextval('other_seq') AS s FROM generate_series(1, 10000)) t "
		  . "WHERE s <= $last_value");
	is($sequence_not_above, 0,
		"other database: 0 of 10 000 new values of a sequence at or below its last ($last_value)");
	warned_about(log_since($offset), 'other database', 'database "other"');
}

# The file damaged: the start stops and says what to do; the HINT followed (the file removed).
{
	$node->stop;
	ok(start_shifted($node, 0), 'damaged: the server back on the real clock');
	my $set = create_id_tables($node, 'damaged', 0);
	load_ids($node, $set, 'before', ids => 10_000);
	$node->stop;
	open my $fh, '>:raw', $mark_file or die "cannot write $mark_file: $!";
	print $fh 'not a mark file!';
	close $fh or die "cannot write $mark_file: $!";
	my $offset = -s $node->logfile;
	ok(!$node->start(fail_ok => 1), 'damaged: the server does not start');
	my $log = log_since($offset);
	like($log, qr/FATAL:  idgen's generator mark in file "idgen_generator_mark" is damaged/,
		'damaged: the start stops with FATAL naming the file');
	like($log, qr/HINT:  Restore the file from a backup of this data directory, or remove it/,
		'damaged: the HINT says to restore or to remove the file');
	remove_mark_file('damaged');
	$offset = -s $node->logfile;
	ok(start_shifted($node, -10), 'damaged, removed: start with the clock 10 s behind');
	load_ids($node, $set, 'after', ids => 10_000);
	check_ids($node, $set, 'damaged file removed as the HINT says, start 10 s behind',
		[ 'before' ], [ 'after', 'the start without the file' ]);
	warned_about(log_since($offset), 'damaged', 'database "postgres"');
}

# The file removed while the WAL after the last checkpoint holds marks: crash recovery replays
# them, and the start takes the newest without reading the databases.
{
	$node->stop;
	ok(start_shifted($node, 0), 'replayed: the server back on the real clock');
	my $set = create_id_tables($node, 'replayed', 0);
	$node->safe_psql('postgres', 'CHECKPOINT');
	load_ids($node, $set, 'before', ids => 10_000);
	remove_mark_file('replayed');
	my $offset = -s $node->logfile;
	ok(crash_and_restart_shifted($node, -5),
		'replayed: crash, restart through crash recovery with the clock 5 s behind');
	load_ids($node, $set, 'after', ids => 10_000);
	check_ids($node, $set, 'file removed, marks in the WAL replayed, restart 5 s behind',
		[ 'before' ], [ 'after', 'the restart without the file' ]);
	my $log = log_since($offset);
	warned_about($log, 'replayed', 'WAL');
	unlike($log, qr/databases it read/, 'replayed: the start read no database\'s mark');
	ok(-f $mark_file, 'replayed: the replay wrote the file again');
}

# A database whose mark cannot be read yet (another session holds its sequence locked, altering
# it in a transaction that stays open): the first
# id waits for it, interruptibly; a sequence goes on; the id comes once the lock is gone.
{
	$node->safe_psql('postgres', 'CREATE SEQUENCE wait_seq');
	my $before = $node->safe_psql('postgres', 'SELECT idgen.uuidv7()');
	my $sequence_before = $node->safe_psql('postgres', "SELECT nextval('wait_seq')");
	$node->stop;
	remove_mark_file('locked');
	ok(start_shifted($node, -5), 'locked: start with the clock 5 s behind');
	my $sequence_name = $node->safe_psql('other',
		q{SELECT oid::regclass FROM pg_class WHERE relname = 'generator_mark' AND relkind = 'S'});
	my ($out, $err) = ('', '');
	my $locker = IPC::Run::start(
		[
			$node->installed_command('psql'), '-XAtq',
			'-d', $node->connstr('other') . ' application_name=idgen_locker',
			'-c', "BEGIN; ALTER SEQUENCE $sequence_name NO CYCLE; SELECT pg_sleep(600)"
		],
		'>', \$out, '2>', \$err,
		IPC::Run::timeout($PostgreSQL::Test::Utils::timeout_default));
	ok( $node->poll_query_until(
			'postgres',
			q{SELECT count(*) = 1 FROM pg_locks l JOIN pg_stat_activity a USING (pid)
			  WHERE a.application_name = 'idgen_locker' AND l.mode = 'ShareRowExclusiveLock'
			    AND l.relation IS NOT NULL AND l.granted}),
		"locked: a session of database \"other\" holds its $sequence_name locked");
	my ($status, $id_out, $id_err) = $node->psql('postgres',
		"SET statement_timeout = '3s'; SELECT idgen.uuidv7()");
	like($id_err, qr/canceling statement due to statement timeout/,
		'locked: the first id waits for the databases\' marks, and statement_timeout cancels it');
	my $sequence_meanwhile = $node->safe_psql('postgres', "SELECT nextval('wait_seq')");
	ok($sequence_meanwhile > $sequence_before,
		'locked: a sequence goes on meanwhile');
	$node->safe_psql('postgres',
		q{SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'idgen_locker'});
	eval { $locker->finish; 1 } or $locker->kill_kill;
	my $after = $node->safe_psql('postgres',
		"SET statement_timeout = '60s'; SELECT idgen.uuidv7()");
	is($node->safe_psql('postgres', "SELECT '$after'::uuid > '$before'::uuid"),
		't', "locked: once the lock is gone the id comes, above the last before the start ($after > $before)");
}

# No background worker to read the databases' marks: the first id fails and names the setting; a
# sequence goes on; with workers back, ids sort above the earlier ones.
{
	my $before = $node->safe_psql('postgres', 'SELECT idgen.snowflake()');
	$node->stop;
	remove_mark_file('no workers');
	$node->append_conf('postgresql.conf', 'max_worker_processes = 0');
	ok(start_shifted($node, -5), 'no workers: start with max_worker_processes = 0, 5 s behind');
	my ($status, $out, $err) = $node->psql('postgres', 'SELECT idgen.snowflake()');
	like($err,
		qr/ERROR:  idgen could not start a background worker to read the databases' generator marks.*HINT:  .*max_worker_processes/s,
		'no workers: the first id fails with an error that names max_worker_processes');
	is($node->safe_psql('postgres', "SELECT nextval('wait_seq') > 0"), 't',
		'no workers: a sequence goes on');
	$node->stop;
	$node->append_conf('postgresql.conf', 'max_worker_processes = 8');
	ok(start_shifted($node, -5), 'no workers: start with workers again, 5 s behind');
	my $after = $node->safe_psql('postgres', 'SELECT idgen.snowflake()');
	ok($after > $before, "no workers: then the next Snowflake id sorts above ($after > $before)");
}

$node->stop;
done_testing();
