# idgen-test: majors=all tier=quick
# A streaming standby (pg_basebackup, idgen preloaded there) of a primary whose database uses
# every idgen type (test/fixtures/app_database.sql) and a public-id key file in its data
# directory: the standby replays the primary's rows, decodes and verifies them as the primary
# does (test/fixtures/app_decode.sql, with the key file pg_basebackup copied), runs the
# generators in read-only transactions, refuses what writes (comb_seq's nextval, ledger_create,
# register_group) with 25006, and a standby session's group-name cache sees a registration made
# on the primary once it is replayed.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest::AppDatabase qw(create_app_database app_snapshot error_of words);
use IdgenTest::KeyFile qw(random_key write_key_file);

my $primary = PostgreSQL::Test::Cluster->new('primary');
$primary->init(allows_streaming => 1);
# The key file lives in the data directory, so pg_basebackup copies it to the standby.
write_key_file($primary->data_dir . '/public_id.key', random_key());
$primary->append_conf('postgresql.conf', "idgen.public_id_key_file = 'public_id.key'");
$primary->start;
create_app_database($primary, 'app');

$primary->backup('base');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'base', has_streaming => 1);
# pg_basebackup wrote the key file with its mode, 0600; the framework's copy of the backup into
# the standby's directory does not keep modes, and idgen refuses a key file others may read.
chmod 0600, $standby->data_dir . '/public_id.key';
$standby->append_conf('postgresql.conf', "shared_preload_libraries = 'idgen'");
$standby->start;
ok( $standby->poll_query_until(
		'postgres',
		q{SELECT pg_is_in_recovery() AND status = 'streaming' FROM pg_stat_wal_receiver}),
	'the standby (pg_basebackup, idgen preloaded) is in recovery and its WAL receiver is streaming');

# New ids on the primary after the standby started, a group registered, then wait for replay.
$primary->safe_psql(
	'app', q{
INSERT INTO person (name) SELECT 'replicated' || g FROM generate_series(1, 10) g;
INSERT INTO orders (customer) SELECT 'replicated' FROM generate_series(1, 10);
INSERT INTO events_v7 (payload) SELECT 'replicated' FROM generate_series(1, 10);
INSERT INTO shipments SELECT FROM generate_series(1, 10);
INSERT INTO invoices (amount) SELECT 7 FROM generate_series(1, 10);
INSERT INTO tickets (title) VALUES ('replicated');
INSERT INTO ledger_events (ledger_id, event, entities, data)
  SELECT ledger_id, 'replicated', '{}', jsonb_build_object('n', g) FROM ledgers, generate_series(1, 5) g;
SELECT idgen.register_group('replicated_group', 99);});
$primary->wait_for_catchup($standby);
is(app_snapshot($standby, 'app'), app_snapshot($primary, 'app'),
	'standby: every relation, the registry, indexes, defaults and constraints identical to the primary\'s after replay');

# The decoding functions give the same answers on both servers, and they are answers.
my $decode_sql = slurp_file('test/fixtures/app_decode.sql');
my $decoded = $standby->safe_psql('app', $decode_sql);
is($decoded, $primary->safe_psql('app', $decode_sql),
	'standby, read-only: every decoder answers as on the primary');
my @families = map { [ split /\|/ ] } split /\n/, $decoded;
my @incomplete = grep { $_->[1] ne $_->[2] } @families;
ok( @families == 9 && !@incomplete,
	'standby: every row decodes (uuid_timestamp, distributed_id(128)_timestamp, public_id_to_* with the '
	  . 'explicit key and the key file copied by pg_basebackup, to/from alphanumeric and hex, '
	  . 'group_uuid_key/name/target, comb_valid/prefix, event_id parts, ledger_verify(_report)): '
	  . join(', ', map { "$_->[0] $_->[2]/$_->[1]" } @families))
  or diag(explain \@incomplete);

# The generators run on the standby (they compute; they write nothing).
is( words(
		$standby->safe_psql(
			'app', q{
SELECT current_setting('transaction_read_only'), idgen.generator_scope();
SELECT idgen.comb_valid(idgen.comb()), idgen.comb_valid(idgen.comb('1 millisecond', 4), interval_length => '1 millisecond', prefix_bytes => 4),
       idgen.uuid_version(idgen.uuidv7()), idgen.distributed_id_timestamp(idgen.distributed_id()) > now() - interval '1 minute',
       idgen.distributed_id128_timestamp(idgen.distributed_id128()) > now() - interval '1 minute';
SELECT idgen.group_uuid_group(idgen.group_uuid('person', 5)), idgen.group_uuid_group(idgen.group_uuid('replicated_group', 5)),
       idgen.group_name(idgen.group_uuid(7, 5)), idgen.group_uuid_key(idgen.group_uuid('Person', 5, 6));
SELECT count(DISTINCT idgen.uuidv7()), count(DISTINCT idgen.comb()), count(DISTINCT idgen.distributed_id()) FROM generate_series(1, 1000);})
	),
	'on server t t 7 t t 672 99 Person 5 1000 1000 1000',
	'standby: comb(), comb(interval, bytes), uuidv7(), distributed_id(), distributed_id128() and group_uuid (registry names included) generate in read-only transactions, server scope'
);

is(error_of($standby, 'app', q{SELECT idgen.comb_seq('ticket_seq')}),
	'25006: cannot execute nextval() in a read-only transaction',
	'standby: idgen.comb_seq (nextval) fails with the read-only error');
is(error_of($standby, 'app', q{INSERT INTO tickets (title) VALUES ('on the standby')}),
	'25006: cannot execute INSERT in a read-only transaction',
	'standby: an insert into a table whose DEFAULT is comb_seq fails the same way');
is(error_of($standby, 'app', q{SELECT idgen.ledger_create('ledger_events', 'standby', 'x')}),
	'25006: cannot execute INSERT in a read-only transaction',
	'standby: idgen.ledger_create (it inserts) fails with the read-only error');
like(error_of($standby, 'app', q{SELECT idgen.register_group('standby_group')}),
	qr/^25006: /, 'standby: idgen.register_group (it locks and writes the registry) fails with 25006');

# A standby session caches group names; the registry's invalidation travels in the WAL.
my $session = $standby->background_psql('app');
my $cached = $session->query_safe(
	q{SELECT idgen.group_uuid_group(idgen.group_uuid('late_group', 1)) = idgen.crc12('late_group')});
$primary->safe_psql('app', q{SELECT idgen.register_group('late_group', 123)});
$primary->wait_for_catchup($standby);
my $seen = $session->query_safe(q{SELECT idgen.group_uuid_group(idgen.group_uuid('late_group', 1))});
$session->quit;
is("$cached $seen", 't 123',
	'standby: a session that cached \'late_group\' as its CRC-12 sees the primary\'s registration (id 123) once replayed, without reconnecting'
);

done_testing();
