# idgen-test: majors=15 tier=full
# Updating idgen on a primary with a streaming standby in the wrong order, from the real 0.2.0
# and 0.3.0 (built from this repository's history) with data made by them: each mistake fails
# with an error that names idgen and the fix, the standby never stops, and once the fix is
# applied the update completes without losing anything (both servers identical, every phase's
# ids after the phases before it, for every generator and a plain sequence).
#
# First, ALTER EXTENSION idgen UPDATE (and CREATE EXTENSION in a new database) after the new
# files are installed but before the restart: the library the server preloaded is the old one,
# and the scripts say to restart instead of PostgreSQL's "could not find function". Then the
# primary restarted on the new library while the standby still runs the release. From 0.2.0 (a
# primary that never logged a generator mark) the first mark is refused, naming the physical slot
# at once and the standby once it has reconnected, so no record the standby cannot replay is
# written; the rest of the primary's
# work goes on and reaches the standby. From 0.3.0 (a primary that logged marks already, whose
# standby replays them) nothing is refused. The fix: the standby updated, and from 0.2.0
# idgen.standbys_replay_marks set on the primary.
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest::UpdatePair qw(release_pair update_files update_databases error_text
  standby_health load_phase compare_servers mark_of);

# The check of the library opens sql/idgen.sql and every update script to 0.4.0 or later (the
# Makefile puts the one of sql/idgen--0.3.0--0.4.0.sql before the older releases' scripts).
# first_check($file): the check, when it is the file's first statement (after the opening
# comments, blank lines and \echo line).
sub first_check
{
	my ($file) = @_;
	my ($check) = slurp_file($file) =~
	  /\A(?:(?:\\echo[^\n]*|--[^\n]*|)\n)*(LOAD 'MODULE_PATHNAME';\n.*?^\$library_check\$;\n)/ms;
	return $check;
}
my $check = first_check('sql/idgen.sql');
my @checked = grep {
	my ($target) = /--([0-9.]+)\.sql$/;
	sprintf('%03d%03d%03d', split /\./, $target) ge '000004000'
} glob('sql/idgen--*--*.sql');
my @unlike = grep { ($check // '') ne (first_check($_) // 'none') } @checked;
ok(defined $check && @checked && !@unlike,
	'sql/idgen.sql and every update script to 0.4.0 or later (' . join(', ', @checked)
	  . ') open with the same check of the library')
  or diag('without it: ' . join(' ', defined $check ? @unlike : 'sql/idgen.sql'));

for my $from (qw(0.2.0 0.3.0))
{
	my $pair = release_pair($from);
	my ($primary, $standby, $to) = @$pair{qw(primary standby to)};
	my $standby_name = $standby->name;
	# A physical slot no standby uses right now, as one that is down keeps.
	$primary->safe_psql('postgres', q{SELECT pg_create_physical_replication_slot('spare')});

	# Wrong: ALTER EXTENSION idgen UPDATE, and CREATE EXTENSION idgen, before the restart.
	update_files($pair, 'primary', restart => 0);
	my $not_restarted = qr/^ERROR:  55000: the idgen library loaded in this session is older than version \Q$to\E of the extension
DETAIL:  This session runs idgen's library of a version before 0.4.0; the SQL script of version \Q$to\E needs that version's library or a later one.
HINT:  idgen is in shared_preload_libraries: restart the server \(on a primary, update and restart its standbys first\), then run the command again. See idgen's docs\/upgrading.md./m;
	my $updated = error_text($primary, 'app', 'ALTER EXTENSION idgen UPDATE');
	like($updated, $not_restarted,
		"$from, not restarted: ALTER EXTENSION idgen UPDATE fails, saying to restart (standbys first)");
	unlike($updated, qr/could not find function/,
		"$from, not restarted: not with PostgreSQL's \"could not find function\"");
	$primary->safe_psql('postgres', 'CREATE DATABASE fresh');
	like(error_text($primary, 'fresh', 'CREATE EXTENSION idgen'),
		$not_restarted, "$from, not restarted: CREATE EXTENSION idgen fails the same way");
	is( $primary->safe_psql(
			'app', q{SELECT extversion FROM pg_extension WHERE extname = 'idgen'})
		  . ' '
		  . $primary->safe_psql('fresh', q{SELECT count(*) FROM pg_extension WHERE extname = 'idgen'}),
		"$from 0", "$from, not restarted: both changed nothing");

	# Wrong: the primary restarted on the new library while the standby runs the release.
	$primary->restart;
	if ($from eq '0.2.0')
	{
		# At once, whether the standby has reconnected yet or not: the slot is seen.
		like(error_text($primary, 'postgres', 'SELECT idgen.uuidv7()'),
			qr/^ERROR:  55000: idgen cannot log its first generator mark while this server has physical standbys\nDETAIL:  .*Physical replication slots: "spare"\./m,
			"$from, primary first, just restarted: the first mark is refused, naming the physical slot");
		ok($standby->poll_query_until('postgres', q{SELECT status = 'streaming' FROM pg_stat_wal_receiver}),
			"$from, primary first: the standby, on $from, streams from the restarted primary");
		my @refused = map { error_text($primary, 'postgres', "SELECT idgen.$_") }
		  qw(uuidv7() snowflake() ulid() typeid('user') distributed_id() distributed_id128());
		like(
			$refused[0],
			qr/^ERROR:  55000: idgen cannot log its first generator mark while this server has physical standbys
DETAIL:  Streaming WAL from it: "\Q$standby_name\E". Physical replication slots: "spare". This database was used with an idgen older than 0.3.0, and this server has never logged a mark. A standby whose idgen is older than 0.3.0, or not preloaded, stops at idgen's first WAL record \("resource manager with ID 161 not registered"\) and cannot start until idgen is updated there.
HINT:  Update idgen on every standby and restart it first \(idgen's docs\/upgrading.md\). Once SELECT rm_name FROM pg_get_wal_resource_managers\(\) WHERE rm_id = 161 answers idgen on each, set idgen.standbys_replay_marks = on on this server and reload its configuration./m,
			"$from, primary first: its first generator mark is refused, naming the standby, the slot and the fix"
		);
		is(scalar(grep { /55000: idgen cannot log its first generator mark/ } @refused),
			6, "$from, primary first: every server-wide generator is refused alike");
		# A database updated before the standby: its objects are new, its mark was set by the
		# update from $from, and its ids are refused the same way.
		is(error_text($primary, 'app', 'ALTER EXTENSION idgen UPDATE'),
			'', "$from, primary first: ALTER EXTENSION idgen UPDATE in the application database");
		like(error_text($primary, 'app', 'SELECT idgen.uuidv7()'),
			qr/^ERROR:  55000: idgen cannot log its first generator mark while this server has physical standbys$/m,
			"$from, primary first: ids in the updated database are refused too");
		$primary->safe_psql('postgres',
			'CREATE TABLE meanwhile (n bigserial PRIMARY KEY); INSERT INTO meanwhile SELECT FROM generate_series(1, 100)'
		);
		$primary->wait_for_catchup($standby);
		is($standby->safe_psql('postgres', 'SELECT count(*), max(n) FROM meanwhile'),
			'100|100', "$from, primary first: the rest of the primary's work reaches the standby");
		is(standby_health($pair), '', "$from, primary first: the standby never stopped");

		# The fix: the standby updated; then the confirmation, which lets the first mark through.
		update_files($pair, 'standby');
		$primary->safe_psql('postgres', 'ALTER SYSTEM SET idgen.standbys_replay_marks = on');
		$primary->safe_psql('postgres', 'SELECT pg_reload_conf()');
		ok( $primary->poll_query_until(
				'postgres', q{SELECT current_setting('idgen.standbys_replay_marks')}, 'on'),
			"$from, fixed: idgen.standbys_replay_marks is on after a reload");
	}
	is(load_phase($pair, 'restarted'), 0,
		"$from, primary first"
		  . ($from eq '0.2.0' ? ', fixed' : '')
		  . ': the primary makes ids of every generator');
	$primary->wait_for_catchup($standby);
	if ($from eq '0.3.0')
	{
		my $mark = mark_of($primary);
		is(mark_of($standby), $mark,
			"$from, primary first: no mark is refused, and the standby, still on $from, replays the new library's ($mark)"
		);
		is(standby_health($pair), '', "$from, primary first: the standby never stopped");
		update_files($pair, 'standby');
	}

	is(update_databases($pair), '', "$from: ALTER EXTENSION idgen UPDATE in every database");
	is(error_text($primary, 'fresh', 'CREATE EXTENSION idgen'), '',
		"$from: CREATE EXTENSION idgen in the new database");
	compare_servers($pair, 'after the wrong order and its fix');
	$primary->safe_psql('postgres', q{SELECT pg_drop_replication_slot('spare')});
	$standby->stop;
	$primary->stop;
}

done_testing();
