# idgen-test: majors=all tier=full
# When idgen cannot write its generator mark file, it fails only what it must, says why once per
# failed call, floods nothing, and the server survives: on a server with idgen preloaded and
# idgen.node_id set (the server runs as a user the permissions apply to),
#  - the data directory read-only (the file itself writable), then the file read-only (the
#    directory writable): the mark is still written, and every generator and a sequence go on;
#  - both read-only, so that the file cannot be written at all: once the mark written before runs
#    out, each server-wide id fails with an error that names the file and the fix, a sequence goes
#    on, idgen logs nothing of its own, and it writes no WAL record while it fails (counted with
#    pg_waldump, next to the failed calls); with the permissions back, a crash (a server process
#    killed with SIGKILL) has nothing of it to replay (the restart's duration is printed), and ids
#    sort above the earlier ones;
#  - an older copy of the file (as a restored backup has) while both are read-only, and a crash:
#    recovery replays newer marks than the file's, cannot write them to it, says so once and goes
#    on, the server accepts connections again, and server-wide ids fail until the file can be
#    written; then they sort above every id made before, as a sequence's values do;
#  - a clean restart works.
use strict;
use warnings;
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);
use IdgenTest::Readiness qw(accepts_queries);
use IdgenTest::Sessions qw(run_scripts_concurrently);

my $node = PostgreSQL::Test::Cluster->new('unwritable');
$node->init;
$node->append_conf('postgresql.conf', <<'EOF');
shared_preload_libraries = 'idgen'
idgen.node_id = 1
restart_after_crash = on
EOF
$node->start;
my $data_dir = $node->data_dir;
my $mark_file = "$data_dir/idgen_generator_mark";

my @generators = (
	[ snowflake => 'bigint', 'idgen.snowflake()', 'id' ],
	[ uuidv7 => 'uuid', 'idgen.uuidv7()', 'id::text' ],
	[ ulid => 'uuid', 'idgen.ulid()', 'id::text' ],
	[ typeid => 'text COLLATE "C"', q{idgen.typeid('user')}, 'id' ],
	[ distributed_id => 'idgen.distributed_id', 'idgen.distributed_id()', 'id' ],
	[ distributed_id128 => 'uuid', 'idgen.distributed_id128()', 'id::text' ],
	[ sequence => 'bigint', q{nextval('plain_seq')}, 'id' ]);
$node->safe_psql('postgres',
	join ";\n", 'CREATE EXTENSION idgen', 'CREATE SEQUENCE plain_seq',
	map { "CREATE TABLE ids_$_->[0] (id $_->[1] NOT NULL, phase text NOT NULL)" } @generators);

# The mark the file holds (ms), read as the server reads it: "idgm", a big-endian int64, a CRC.
sub file_mark
{
	open my $fh, '<:raw', $mark_file or return -1;
	my $n = read $fh, my $bytes, 64;
	close $fh;
	return -1 unless $n == 16 && substr($bytes, 0, 4) eq 'idgm';
	return unpack('q>', substr($bytes, 4, 8));
}

# load($phase, $seconds): 3 sessions insert ids of every generator (100 per statement, each
# statement its own transaction, going on after a failure) for about $seconds; returns the
# failed statements per generator and their error messages and hints (each once, with a count).
sub load
{
	my ($phase, $seconds) = @_;
	my $script = "SET statement_timeout = '10s';\n";
	for my $i (1 .. $seconds * 10)
	{
		$script .= "INSERT INTO ids_$_->[0] SELECT $_->[2], '$phase' FROM generate_series(1, 100);\n"
		  for @generators;
		$script .= "SELECT pg_sleep(0.1);\n";
	}
	my $errors = run_scripts_concurrently($node, 'postgres', [ ($script) x 3 ],
		$PostgreSQL::Test::Utils::timeout_default);
	my %messages;
	$messages{$_}++ for map { /(ERROR: .*|HINT: .*|timed out .*)/ ? $1 : () } map { split /\n/ } @$errors;
	my $all = join "\n", map { "$messages{$_} x $_" } sort keys %messages;
	my %failed;
	for my $generator (@generators)
	{
		my $statements = $seconds * 10 * 3;
		my $stored = $node->safe_psql('postgres',
			"SELECT count(*) FROM ids_$generator->[0] WHERE phase = '$phase'");
		$failed{ $generator->[0] } = $statements - $stored / 100;
	}
	return (\%failed, $all);
}

sub failures_text
{
	my ($failed) = @_;
	return join ', ', map { "$_ $failed->{$_}" } map { $_->[0] } @generators;
}

sub total_failed
{
	my ($failed) = @_;
	my $n = 0;
	$n += $_ for values %$failed;
	return $n;
}

my ($failed, $errors);

# Ids first: the server has its file.
($failed, $errors) = load('start', 1);
is(total_failed($failed), 0, 'at start: no statement failed') or diag($errors);
ok(file_mark() > 0, 'at start: the file holds a mark');

# The data directory read-only, the file writable: the mark is written in place.
{
	my $mark_before = file_mark();
	chmod 0500, $data_dir or die "chmod $data_dir: $!";
	($failed, $errors) = load('directory_read_only', 4);
	chmod 0700, $data_dir or die "chmod $data_dir: $!";
	is(total_failed($failed), 0,
		'data directory read-only: no statement failed (' . failures_text($failed) . ')')
	  or diag($errors);
	my $mark_after = file_mark();
	ok($mark_after > $mark_before,
		"data directory read-only: the file's mark moved on ($mark_before to $mark_after)");
}

# The file read-only, the directory writable: the mark is written to a new file renamed over it.
{
	my $mark_before = file_mark();
	chmod 0400, $mark_file or die "chmod $mark_file: $!";
	($failed, $errors) = load('file_read_only', 4);
	is(total_failed($failed), 0,
		'file read-only: no statement failed (' . failures_text($failed) . ')')
	  or diag($errors);
	my $mark_after = file_mark();
	ok($mark_after > $mark_before,
		"file read-only: the file's mark moved on ($mark_before to $mark_after)");
}

# crash_and_wait(): kills the WAL writer with SIGKILL (the postmaster ends every other process,
# reinitialises shared memory and runs crash recovery) and waits until the server accepts
# connections again; returns the seconds that took and the server log written meanwhile.
sub crash_and_wait
{
	my $log_offset = -s $node->logfile;
	my $pid = $node->safe_psql('postgres',
		q{SELECT pid FROM pg_stat_activity WHERE backend_type = 'walwriter'});
	my $killed_at = Time::HiRes::time();
	kill 'KILL', $pid;
	my $deadline = time + $PostgreSQL::Test::Utils::timeout_default;
	usleep(10_000)
	  until time > $deadline
	  || ($node->log_contains(qr/all server processes terminated; reinitializing/, $log_offset)
		&& accepts_queries($node));
	return (Time::HiRes::time() - $killed_at,
		PostgreSQL::Test::Utils::slurp_file($node->logfile, $log_offset));
}

# The largest id of every generator and the sequence so far.
sub largest_ids
{
	return {
		map {
			my ($name, $type, $call, $key) = @$_;
			($name => $node->safe_psql('postgres', "SELECT max($key) FROM ids_$name"))
		} @generators
	};
}

# check_above($phase, $largest, $what): none of the phase's ids at or below the largest before.
sub check_above
{
	my ($phase, $largest, $what) = @_;
	for my $generator (@generators)
	{
		my ($name, $type, $call, $key) = @$generator;
		my $not_above = $node->safe_psql('postgres',
			"SELECT count(*) FROM ids_$name WHERE phase = '$phase' AND $key <= '$largest->{$name}'");
		is($not_above, 0, "$what: $name: 0 new ids at or below the largest before ($largest->{$name})");
	}
	return;
}

# Both read-only: the file cannot be written. Statements that need the mark fail, and the WAL
# gets nothing from them; with the permissions back, a crash's recovery has no more to replay.
{
	my $start_lsn = $node->safe_psql('postgres', 'SELECT pg_current_wal_flush_lsn()');
	my $log_offset = -s $node->logfile;
	chmod 0400, $mark_file or die "chmod $mark_file: $!";
	chmod 0500, $data_dir or die "chmod $data_dir: $!";
	($failed, $errors) = load('unwritable', 4);
	my $end_lsn = $node->safe_psql('postgres', 'SELECT pg_current_wal_flush_lsn()');
	my $log = PostgreSQL::Test::Utils::slurp_file($node->logfile, $log_offset);
	my $failures = total_failed($failed) - $failed->{sequence};
	ok($failures > 0 && $failed->{sequence} == 0,
		"unwritable: once the mark runs out server-wide ids fail, a sequence does not ("
		  . failures_text($failed) . ' failed statements)');
	like($errors,
		qr/ERROR:  could not write idgen's generator mark to file "idgen_generator_mark": Permission denied.*HINT:  Make the file "idgen_generator_mark" and the data directory writable/s,
		'unwritable: the error names the file and says how to fix it')
	  or diag($errors);
	my @idgen_lines = grep { /idgen|generator mark/ && !/ERROR|STATEMENT|HINT|DETAIL|LOG:  statement:/ }
	  split /\n/, $log;
	is(scalar @idgen_lines, 0,
		'unwritable: idgen logs nothing of its own beyond the failed statements\' errors')
	  or diag(join "\n", @idgen_lines[0 .. ($#idgen_lines < 9 ? $#idgen_lines : 9)]);
	my ($stdout, $stderr) = ('', '');
	my $dumped = IPC::Run::run(
		[
			$node->installed_command('pg_waldump'), '-p', "$data_dir/pg_wal",
			'-s', $start_lsn, '-e', $end_lsn, '-r', 'custom161'
		],
		'>', \$stdout, '2>', \$stderr);
	my $records = () = $stdout =~ /^rmgr: custom161/mg;
	ok($dumped, 'unwritable: pg_waldump reads the WAL written meanwhile') or diag($stderr);
	ok($records <= 1,
		"unwritable: idgen wrote $records WAL records while $failures server-wide statements failed");
	my $largest = largest_ids();
	chmod 0700, $data_dir or die "chmod $data_dir: $!";
	chmod 0600, $mark_file or die "chmod $mark_file: $!";
	my ($restart, $crash_log) = crash_and_wait();
	ok(accepts_queries($node),
		sprintf('unwritable, then writable, crash: the server is back %.2f s after the kill', $restart))
	  or diag($crash_log);
	($failed, $errors) = load('after_unwritable', 1);
	is(total_failed($failed), 0,
		'writable again, after the crash: no statement failed (' . failures_text($failed) . ')')
	  or diag($errors);
	check_above('after_unwritable', $largest, 'writable again, after the crash');
}

# A crash whose recovery replays marks newer than the file's (an older copy of the file, as a
# restored backup has) while the file cannot be written: recovery says so once and goes on, the
# server comes back, and server-wide ids fail until the file can be written, then sort above.
{
	$node->safe_psql('postgres', 'CHECKPOINT');
	open my $fh, '<:raw', $mark_file or die "cannot read $mark_file: $!";
	read $fh, my $older_copy, 16;
	close $fh;
	($failed, $errors) = load('before_stale', 2);
	is(total_failed($failed), 0, 'stale file: ids after the checkpoint (marks in the WAL)');
	my $largest = largest_ids();
	chmod 0600, $mark_file or die "chmod $mark_file: $!";
	open $fh, '>:raw', $mark_file or die "cannot write $mark_file: $!";
	print $fh $older_copy;
	close $fh or die "cannot write $mark_file: $!";
	chmod 0400, $mark_file or die "chmod $mark_file: $!";
	chmod 0500, $data_dir or die "chmod $data_dir: $!";
	my ($restart, $log) = crash_and_wait();
	ok(accepts_queries($node),
		sprintf('stale file, unwritable, crash: the server accepts connections again (%.2f s after the kill)',
			$restart))
	  or diag($log);
	my @warnings = $log =~
	  /(WARNING:  could not write idgen's generator mark to file "idgen_generator_mark" during recovery)/g;
	is(scalar @warnings, 1,
		'stale file, unwritable, crash: crash recovery says once that it could not write the file')
	  or diag($log);
	unlike($log, qr/startup process .* exited with exit code|FATAL:  (?!the database system is)/,
		'stale file, unwritable, crash: the startup process does not fail');
	my ($status, $out, $err) = $node->psql('postgres', 'SELECT idgen.uuidv7()');
	like($err, qr/could not write idgen's generator mark/,
		'stale file, unwritable, crash: server-wide ids fail with the same error until the file can be written');
	chmod 0700, $data_dir or die "chmod $data_dir: $!";
	chmod 0600, $mark_file or die "chmod $mark_file: $!";
	($failed, $errors) = load('after_stale', 1);
	is(total_failed($failed), 0,
		'stale file, writable again: no statement failed (' . failures_text($failed) . ')')
	  or diag($errors);
	check_above('after_stale', $largest, 'stale file, writable again');
}

# A clean restart works, and ids come.
{
	$node->restart;
	is($node->safe_psql('postgres', 'SELECT idgen.snowflake() > 0'), 't',
		'a clean restart, and ids');
}

$node->stop;
done_testing();
