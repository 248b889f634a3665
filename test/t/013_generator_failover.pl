# idgen-test: majors=all tier=quick
# Ids keep their order through a failover to a standby whose clock is behind: a primary and its
# streaming standby (pg_basebackup; idgen preloaded and idgen.node_id set on both, the standby's
# settings copied by the backup), the standby's wall clock 2 s behind the primary's
# (libfaketime). While the standby is a hot standby, idgen.snowflake() is refused there with the
# read-only error (25006), and uuidv7(), ulid() and distributed_id128() answer in its read-only
# transactions. Then 3 sessions fill tables on the primary with ids of every generator (and a
# plain sequence), the standby replays them, the primary goes away, the standby is promoted and
# fills the same tables: each generator's ids there sort above every id the old primary
# committed, and none is a repeat. generator_status() shows the standby in recovery with its node
# number, and not after the promotion, which the server log tells in one line.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest::AppDatabase qw(error_of);
use IdgenTest::IdOrder qw(create_id_tables load_ids check_ids);
use IdgenTest::ShiftedClock qw(start_shifted);

my $primary = PostgreSQL::Test::Cluster->new('primary');
$primary->init(allows_streaming => 1);
$primary->append_conf('postgresql.conf', <<'EOF');
shared_preload_libraries = 'idgen'
idgen.node_id = 1
EOF
$primary->start;
$primary->safe_psql('postgres', 'CREATE EXTENSION idgen');
my $set = create_id_tables($primary, 'failover', 0);

$primary->backup('base');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'base', has_streaming => 1);
ok(start_shifted($standby, -2), 'the standby runs with its clock 2 s behind the primary\'s');
ok( $standby->poll_query_until(
		'postgres',
		q{SELECT pg_is_in_recovery() AND status = 'streaming' FROM pg_stat_wal_receiver}),
	'the standby is in recovery and its WAL receiver is streaming');
is( $standby->safe_psql('postgres',
		q{SELECT current_setting('idgen.node_id') || ' ' || idgen.generator_scope()}),
	'1 server',
	'the standby has idgen preloaded and idgen.node_id = 1 (copied by the backup)');

# A hot standby: the generators that need no write answer, Snowflake is refused. (Each
# statement is limited to 10 s, a guard against a generator that would wait.)
like(error_of($standby, 'postgres', "SET statement_timeout = '10s'; SELECT idgen.snowflake()"),
	qr/^25006: /, 'hot standby: idgen.snowflake() is refused with SQLSTATE 25006 (read-only)');
my ($status, $out, $err) = $standby->psql(
	'postgres', q{
SET statement_timeout = '10s';
SELECT current_setting('transaction_read_only'), count(DISTINCT idgen.uuidv7()),
       count(DISTINCT idgen.ulid()), count(DISTINCT idgen.distributed_id128())
FROM generate_series(1, 1000)});
is("$out$err", 'on|1000|1000|1000',
	'hot standby: uuidv7(), ulid() and distributed_id128() each give 1 000 distinct ids in a read-only transaction');

# generator_status() says it is a standby, with its node number, in every row.
($status, $out, $err) = $standby->psql('postgres',
	q{SELECT string_agg(DISTINCT in_recovery::text || ' ' || node_id, ',') FROM idgen.generator_status()});
is("$out$err", 'true 1', 'hot standby: generator_status() shows in_recovery and the node number');

# The old primary's ids, replayed; the primary goes away; the standby takes over.
load_ids($primary, $set, 'primary');
$primary->wait_for_catchup($standby);
$primary->stop('immediate');
my $promote_log_offset = -s $standby->logfile;
$standby->promote;
ok($standby->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()'),
	'the standby is promoted');
($status, $out, $err) = $standby->psql('postgres',
	q{SELECT string_agg(DISTINCT in_recovery::text, ',') FROM idgen.generator_status()});
is("$out$err", 'false', 'promoted: generator_status() shows the end of recovery');
my $promote_log = slurp_file($standby->logfile, $promote_log_offset);
my @after_recovery = $promote_log =~
  /LOG:  idgen's generators start after recovery, generator mark [^\n]+\n[^\n]*DETAIL:  Their clock starts after the newest mark, (\d+\.\d{3}) s ahead of the wall clock/g;
is(scalar @after_recovery, 1,
	'promoted: the end of recovery logs one line with the replayed mark and the lead of new ids ('
	  . ($after_recovery[0] // 'none') . ' s)');
load_ids($standby, $set, 'promoted');
check_ids($standby, $set, 'failover to a standby 2 s behind',
	[ 'primary' ], [ 'promoted', 'the promotion' ]);

$standby->stop;
done_testing();
