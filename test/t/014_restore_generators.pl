# idgen-test: majors=all tier=quick
# Ids keep their order when a database moves to a replacement server by dump and restore, even
# when the replacement's clock is behind: a source server (idgen preloaded, idgen.node_id = 1)
# fills tables with ids of every generator (snowflake, uuidv7, ulid, typeid, distributed_id,
# distributed_id128, and a plain sequence next to them) from 3 concurrent sessions; its database
# is dumped with pg_dump -Fc and the source goes away. The replacement, a new cluster with idgen
# preloaded and the same idgen.node_id, runs with its wall clock 8 s behind the source's
# (libfaketime); the dump is restored with pg_restore into a fresh database there (the dump
# creates the extension), and 3 sessions fill the same tables. Checked: the restored database's
# generator mark (idgen_internal.generator_mark) is at least the source's, no INSERT is refused, no id is
# repeated, and every generator's ids made on the replacement sort above every id restored.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest::AppDatabase qw(run_client);
use IdgenTest::IdOrder qw(create_id_tables load_ids check_ids);
use IdgenTest::ShiftedClock qw(start_shifted wait_for_shift);

my $source = PostgreSQL::Test::Cluster->new('source');
my $replacement = PostgreSQL::Test::Cluster->new('replacement');
for my $node ($source, $replacement)
{
	$node->init;
	$node->append_conf('postgresql.conf', <<'EOF');
shared_preload_libraries = 'idgen'
idgen.node_id = 1
EOF
}
my $dir = PostgreSQL::Test::Utils::tempdir;

# The replacement is ready first, so that little time passes between the source's last id and
# the replacement's first, and its clock is still behind the source's last ids while it loads
# (the log shows by how much).
$source->start;
ok(start_shifted($replacement, -8), 'the replacement runs with its clock 8 s behind the source\'s');

# The source's ids; its database's mark; the dump; the source goes away.
$source->safe_psql('postgres', 'CREATE EXTENSION idgen');
my $set = create_id_tables($source, 'restore', 0);
load_ids($source, $set, 'source');
my $source_mark = $source->safe_psql('postgres', 'SELECT last_value FROM idgen_internal.generator_mark');
ok($source_mark > 0, "the source's database has a generator mark ($source_mark ms)");
my ($dumped, $dump_out, $dump_err) =
  run_client($source, 'pg_dump', '-Fc', '-f', "$dir/source.dump", 'postgres');
ok($dumped && $dump_err eq '', 'pg_dump -Fc of the source\'s database succeeds without a message')
  or diag($dump_err);
$source->stop;

# A fresh database on the replacement (named postgres, where the id tables' helpers work: the
# cluster's own postgres database goes first) and the restore into it.
$replacement->safe_psql('template1', 'DROP DATABASE postgres');
$replacement->safe_psql('template1', 'CREATE DATABASE postgres');
my ($restored, $restore_out, $restore_err) =
  run_client($replacement, 'pg_restore', '-d', 'postgres', "$dir/source.dump");
ok($restored && $restore_err eq '',
	'pg_restore into a fresh database on the replacement succeeds without a message')
  or diag($restore_err);
my $restored_mark =
  $replacement->safe_psql('postgres', 'SELECT last_value FROM idgen_internal.generator_mark');
ok($restored_mark >= $source_mark,
	"the restored database's generator mark ($restored_mark ms) is at least the source's ($source_mark ms)"
);
is( $replacement->safe_psql('postgres',
		q{SELECT current_setting('idgen.node_id') || ' ' || idgen.generator_scope()}),
	'1 server', 'the replacement has idgen preloaded and idgen.node_id = 1');

ok(wait_for_shift($replacement, -8), 'the replacement\'s clock is still 8 s behind');
# How far the replacement's clock is behind the source's last Snowflake id as its load starts (a
# figure, not a check).
note(
	'the replacement\'s clock is '
	  . $replacement->safe_psql(
		'postgres', q{SELECT round(extract(epoch FROM
		  (SELECT max(idgen.snowflake_timestamp(id)) FROM restore_snowflake) - clock_timestamp()), 2)})
	  . ' s behind the last restored Snowflake id');
load_ids($replacement, $set, 'replacement');
check_ids($replacement, $set, 'restore on a server 8 s behind',
	[ 'source' ], [ 'replacement', 'the restore' ]);
note("generator status on the replacement after its load:\n"
	  . $replacement->safe_psql('postgres', 'SELECT * FROM idgen.generator_status()'));

$replacement->stop;
done_testing();
