# idgen-test: majors=15 tier=full
# Updating idgen on a primary with a streaming standby, step by step as docs/upgrading.md says,
# from the real 0.2.0 and 0.3.0 (their libraries and scripts built from this repository's
# history, test/lib/releases.sh) with data made by them: the release's application database and
# ids of every time-ordered generator next to a plain sequence, made before, during and after
# the update. The standby never stops; both servers end on the version under test, with
# identical databases; the standby replayed the primary's generator mark; and every phase's ids
# sort after the ids of the phases before it. From 0.2.0 the test also goes back to the release
# once the primary runs the new library (before ALTER EXTENSION UPDATE, as the page says one
# can: the primary, then the standby once it has no idgen WAL left to replay), then forward again.
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest::Releases qw(install_release);
use IdgenTest::UpdatePair
  qw(release_pair update_files update_databases load_phase compare_servers standby_health);

for my $from (qw(0.2.0 0.3.0))
{
	my $pair = release_pair($from);
	my ($primary, $standby, $to) = @$pair{qw(primary standby to)};

	# 1. Every standby: the new files, a restart; it says it can replay idgen's WAL.
	update_files($pair, 'standby');
	is( $standby->safe_psql(
			'postgres', q{SHOW idgen.library_version;
SELECT rm_name FROM pg_get_wal_resource_managers() WHERE rm_id = 161}),
		"$to\nidgen",
		"$from, step 1: the standby runs idgen's library $to and replays idgen's WAL (resource manager 161)"
	);

	# 2. The primary: the new files; from 0.2.0 (whose primary never logged a generator mark) the
	# confirmation that its standbys replay idgen's WAL; a restart.
	$primary->append_conf('postgresql.conf', 'idgen.standbys_replay_marks = on')
	  if $from eq '0.2.0';
	update_files($pair, 'primary');
	is($primary->safe_psql('postgres', 'SHOW idgen.library_version'),
		$to, "$from, step 2: the primary runs idgen's library $to");
	is(load_phase($pair, 'restarted'), 0,
		"$from, step 2: the restarted primary makes ids of every generator on the databases' $from SQL objects"
	);

	if ($from eq '0.2.0')
	{
		# Going back, before any ALTER EXTENSION UPDATE: the primary first (the release's files, a
		# clean restart); then the standby, once it has no idgen WAL left to replay (the primary's
		# checkpoints replayed, a restartpoint on the standby).
		install_release($pair->{primary_install}, $from);
		$primary->restart;
		is( $primary->safe_psql(
				'postgres', q{SELECT current_setting('idgen.library_version', true) IS NULL,
  (SELECT extversion FROM pg_extension WHERE extname = 'idgen')}),
			"t|$from",
			"$from, going back: the primary runs the library of $from again, its databases untouched");
		is(load_phase($pair, 'back'), 0, "$from, going back: the primary makes ids again");
		$primary->safe_psql('postgres', 'CHECKPOINT');
		$primary->wait_for_catchup($standby);
		$standby->safe_psql('postgres', 'CHECKPOINT');
		install_release($pair->{standby_install}, $from);
		$standby->restart;
		$primary->wait_for_catchup($standby);
		is( $standby->safe_psql(
				'postgres', q{SELECT current_setting('idgen.library_version', true) IS NULL,
  (SELECT count(*) FROM pg_get_wal_resource_managers() WHERE rm_id = 161)}),
			't|0', "$from, going back: the standby runs the library of $from again");
		is(standby_health($pair), '', "$from, going back: the standby never stopped");

		# And forward again, in the same order as before.
		update_files($pair, 'standby');
		update_files($pair, 'primary');
	}

	# 3. ALTER EXTENSION idgen UPDATE in every database, on the primary.
	is(update_databases($pair), '', "$from, step 3: ALTER EXTENSION idgen UPDATE in every database");
	compare_servers($pair, 'updated as docs/upgrading.md says');
	$standby->stop;
	$primary->stop;
}

done_testing();
