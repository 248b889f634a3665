# idgen on a Citus cluster: a coordinator and two workers on loopback (a third joins later), idgen
# preloaded after Citus on each. Everything docs/scaling-out.md says about Citus is checked here:
# - the time-ordered families as defaults of distributed tables, filled through the coordinator
#   (VALUES, COPY, INSERT ... SELECT from a function), through INSERT ... SELECT from another
#   distributed table (defaults evaluated on the workers) and through sessions on the workers:
#   every id unique across the cluster and valid by its family's checks, ids ordered by time within
#   a node, where each statement form runs the default;
# - functions pushed to the shards (COMB checks, uuidv7 ranges, encodings, public ids), Citus's
#   refusal of STABLE functions in RETURNING, shard pruning by numeric vs domain literals, and
#   ALTER SYSTEM being per node;
# - tables distributed by idgen.ulid and idgen.typeid columns: a lookup by a literal routed to one
#   shard, a ULID in the shard its 16 bytes go to as a uuid (the same hash), the TypeID prefix
#   CHECK on every shard;
# - a reference table keyed by COMBs, group keys from node-local sequences, and the group registry
#   as a reference table: the same group id for a name in every plan and on every node, caches
#   emptied cluster-wide, registration refused with a node down or without a copy of the registry;
# - ledgers distributed by ledger id: concurrent appends through three nodes, verification per
#   ledger, the distributed deadlock of opposite append orders and its avoidance, a shard move;
# - the public id key check value telling a node with another key from the others.
#
# Runs against a PostgreSQL with Citus installed (test/run-all.sh builds Citus from
# ../shared/citus into the PostgreSQL 18 it built, test/lib/citus.sh).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use IdgenTest::KeyFile qw(random_key write_key_file);

my $rows = 3000;    # per way of inserting
my ($status, $out, $err);

my @nodes = map { PostgreSQL::Test::Cluster->new($_) } qw(coordinator worker1 worker2);
my $late_worker = PostgreSQL::Test::Cluster->new('worker3');    # joins later
my ($coordinator, @workers) = @nodes;
my $shared_key = random_key();
for my $node (@nodes, $late_worker)
{
	$node->init;
	# Citus connects to the nodes over TCP; initdb -A trust lets loopback connections in.
	$node->append_conf(
		'postgresql.conf', qq{
shared_preload_libraries = 'citus,idgen'
listen_addresses = '127.0.0.1'
max_connections = 60
# Shard moves and reference table copies use logical replication by default.
wal_level = logical
max_wal_senders = 10
max_replication_slots = 10
});
	# A relative key file path is relative to the data directory.
	write_key_file($node->data_dir . '/public_id.key',
		$node->name eq 'worker2' ? random_key() : $shared_key);
	$node->append_conf('postgresql.conf', "idgen.public_id_key_file = 'public_id.key'");
	$node->start;
	$node->safe_psql('postgres', 'CREATE EXTENSION citus');
}
$coordinator->safe_psql(
	'postgres', qq{
SELECT citus_set_coordinator_host('127.0.0.1', @{[ $coordinator->port ]});
SELECT citus_add_node('127.0.0.1', @{[ $workers[0]->port ]});
SELECT citus_add_node('127.0.0.1', @{[ $workers[1]->port ]});
});
is($coordinator->safe_psql('postgres', 'SELECT count(*) FROM citus_get_active_worker_nodes()'),
	'2', 'a coordinator and two active workers');

# CREATE EXTENSION on the coordinator reaches the workers, at the version of idgen.control.
my ($version) = slurp_file('idgen.control') =~ /^default_version\s*=\s*'([^']+)'/m;

# First the update from 0.3.0 with a distributed registry, as docs/scaling-out.md says: 0.4.0
# keeps the registry's table in schema idgen_internal, and only Citus's own ALTER TABLE moves a
# reference table with its shards, so the update refuses until the table is moved that way; then
# the update reaches every node, and the moved registry keeps its rows and its distribution.
$coordinator->safe_psql(
	'postgres', q{
CREATE EXTENSION idgen VERSION '0.3.0';
SELECT idgen.distribute_groups();
SELECT idgen.register_group('before_update', 99);});
($status, $out, $err) = $coordinator->psql('postgres', q{
\set VERBOSITY verbose
ALTER EXTENSION idgen UPDATE});
like($err, qr/55000: the group registry idgen.groups is distributed over the Citus cluster.*HINT:  On the coordinator, as a superuser: CREATE SCHEMA idgen_internal; ALTER TABLE idgen.groups SET SCHEMA idgen_internal; ALTER EXTENSION idgen UPDATE;/s,
	'update from 0.3.0 with a distributed registry: refused (55000) with the way to do it');
$coordinator->safe_psql(
	'postgres', q{
CREATE SCHEMA idgen_internal;
ALTER TABLE idgen.groups SET SCHEMA idgen_internal;
ALTER EXTENSION idgen UPDATE;});
is( join(' | ',
		map {
			$_->safe_psql('postgres', q{
SELECT extversion || ' ' || (SELECT string_agg(name || '=' || group_id, ',') FROM idgen.groups)
       || ' ' || (SELECT count(*) FROM pg_depend WHERE refobjid = e.oid AND objid = 'idgen_internal'::regnamespace)
FROM pg_extension e WHERE extname = 'idgen'})
		} @nodes),
	join(' | ', ("$version before_update=99 1") x 3),
	"... following it, every node runs $version, holds the registered group, and idgen owns the schema");
is( $coordinator->safe_psql(
		'postgres', q{SELECT idgen.register_group('after_update', 98)}),
	'98', '... and the moved registry, still a reference table, takes a registration');
# (CASCADE: the registry's shards are Citus's, not the extension's.)
$coordinator->safe_psql('postgres', 'DROP EXTENSION idgen CASCADE');

$coordinator->safe_psql('postgres', 'CREATE EXTENSION idgen');
is( join(',',
		map { $_->safe_psql('postgres', q{SELECT extversion FROM pg_extension WHERE extname = 'idgen'}) }
		  @nodes),
	"$version,$version,$version",
	"CREATE EXTENSION idgen on the coordinator creates it on both workers ($version)");

# One distributed table per family, sharded by its key.
my %families = (
	comb => [ 'uuid', 'idgen.comb()', 'idgen.comb_valid(id)' ],
	uuidv7 => [ 'uuid', 'idgen.uuidv7()', 'idgen.uuid_version(id) = 7' ],
	distributed_id128 =>
	  [ 'uuid', 'idgen.distributed_id128()', 'idgen.distributed_id128_timestamp(id) > now() - interval \'1 hour\'' ],
	distributed_id => [
		'idgen.distributed_id', 'idgen.distributed_id()',
		'idgen.distributed_id_timestamp(id) > now() - interval \'1 hour\''
	],
	ulid => [ 'idgen.ulid', 'idgen.ulid()', 'idgen.ulid_timestamp(id::uuid) > now() - interval \'1 hour\'' ],
	typeid => [
		'idgen.typeid', 'idgen.new_typeid(\'user\')',
		'idgen.typeid_prefix(id) = \'user\' AND idgen.uuid_version(id::uuid) = 7'
	]);
$coordinator->safe_psql('postgres', q{
CREATE TABLE sources (n integer PRIMARY KEY);
SELECT create_distributed_table('sources', 'n');
INSERT INTO sources SELECT generate_series(1, } . $rows . q{);
});
for my $family (sort keys %families)
{
	my ($type, $default, $valid) = @{ $families{$family} };
	$coordinator->safe_psql(
		'postgres', qq{
CREATE TABLE keyed_$family (id $type PRIMARY KEY DEFAULT $default,
                            way text NOT NULL, node text NOT NULL DEFAULT current_setting('port'),
                            made timestamptz NOT NULL DEFAULT clock_timestamp());
SELECT create_distributed_table('keyed_$family', 'id');
-- Through the coordinator: VALUES, and INSERT ... SELECT from a function (defaults made there).
INSERT INTO keyed_$family (way) VALUES ('values'), ('values');
INSERT INTO keyed_$family (way) SELECT 'select' FROM generate_series(1, $rows);
-- INSERT ... SELECT from a distributed table: the defaults are evaluated on the workers.
INSERT INTO keyed_$family (way) SELECT 'repartitioned' FROM sources;
});
	# Sessions on the workers, inserting into the distributed table directly.
	for my $worker (@workers)
	{
		$worker->safe_psql('postgres',
			"INSERT INTO keyed_$family (way) SELECT 'worker session' FROM generate_series(1, $rows)");
	}
	my $expected = 2 + 4 * $rows;
	is( $coordinator->safe_psql(
			'postgres',
			"SELECT count(*) || ' ' || count(DISTINCT id) || ' ' || count(*) FILTER (WHERE $valid) FROM keyed_$family"
		),
		"$expected $expected $expected",
		"$family: $expected ids through the coordinator, INSERT ... SELECT and worker sessions, all distinct and valid");
	is( $coordinator->safe_psql(
			'postgres', qq{
SELECT count(DISTINCT node) FILTER (WHERE way = 'repartitioned') || ' ' ||
       count(DISTINCT node) FILTER (WHERE way = 'worker session')
FROM keyed_$family}),
		'2 2',
		"$family: the repartitioned rows and the worker sessions' rows were made on both workers");
}

# Where a default runs, by statement form (the node column's own default records the port):
# VALUES, COPY and INSERT ... SELECT from a function on the node that received the statement,
# INSERT ... SELECT from a distributed table on the workers.
$coordinator->safe_psql('postgres', qq{
COPY keyed_comb (way) FROM STDIN;
copy
copy
\\.
});
my $port_of = { $coordinator->port => 'coordinator', map { $_->port => 'worker' } @workers };
is( join(' ',
		map { my ($way, $port) = split /\|/; "$way:$port_of->{$port}" }
		  split /\n/, $coordinator->safe_psql('postgres', q{
SELECT DISTINCT way, node FROM keyed_comb ORDER BY 1, 2})),
	'copy:coordinator repartitioned:worker repartitioned:worker select:coordinator values:coordinator worker session:worker worker session:worker',
	'defaults run on the coordinator for VALUES, COPY and INSERT ... SELECT from a function, on the workers for INSERT ... SELECT from a distributed table and worker sessions');

# RETURNING on a distributed table takes only IMMUTABLE functions (public_id is STABLE: it reads
# the key setting); a CTE around the INSERT is the way round.
($status, $out, $err) = $coordinator->psql('postgres', q{
\set VERBOSITY verbose
INSERT INTO keyed_distributed_id (way) VALUES ('returning') RETURNING idgen.public_id(id)});
like($err, qr/0A000: non-IMMUTABLE functions are not allowed in the RETURNING clause/,
	'Citus refuses a STABLE idgen function in RETURNING of a distributed INSERT');
is( $coordinator->safe_psql(
		'postgres', q{
WITH made AS (INSERT INTO keyed_distributed_id (way) VALUES ('returning') RETURNING id)
SELECT idgen.public_id_to_numeric(idgen.public_id(id)) = id FROM made}),
	't', 'the same through a CTE: the public id of the new row');
$coordinator->safe_psql('postgres', q{DELETE FROM keyed_distributed_id WHERE way = 'returning'});

# Shard pruning: a DistributedId compared with a numeric (literal or ::numeric) is router-planned
# to one shard; the same value cast to the domain idgen.distributed_id is sent to every shard.
my $tasks = sub {
	($coordinator->safe_psql('postgres', "EXPLAIN (COSTS OFF) SELECT * FROM keyed_distributed_id WHERE id = $_[0]")
		  =~ /Task Count: (\d+)/)[0];
};
my $some_id = $coordinator->safe_psql('postgres', 'SELECT min(id) FROM keyed_distributed_id');
is( join(' ', map { $tasks->($_) } ($some_id, "'$some_id'::numeric", "'$some_id'::idgen.distributed_id")),
	'1 1 32',
	'a DistributedId lookup by a numeric literal or ::numeric reaches one shard, by ::idgen.distributed_id all 32');

# idgen.ulid and idgen.typeid as distribution columns. A lookup by a literal (a ULID in either
# case, a TypeID) is router-planned to one shard and finds its row; by the ULID's uuid
# (id::uuid = ...) it is not pruned.
my $ulid_literal = $coordinator->safe_psql('postgres', 'SELECT min(id) FROM keyed_ulid');
my $typeid_literal = $coordinator->safe_psql('postgres', 'SELECT id FROM keyed_typeid ORDER BY id LIMIT 1');
my $lookup = sub {
	my ($table, $condition) = @_;
	my ($count) = $coordinator->safe_psql('postgres', "EXPLAIN (COSTS OFF) SELECT * FROM $table WHERE $condition")
	  =~ /Task Count: (\d+)/;
	return "$count:" . $coordinator->safe_psql('postgres', "SELECT count(*) FROM $table WHERE $condition");
};
my @lookups = (
	$lookup->('keyed_ulid', "id = '$ulid_literal'"),
	$lookup->('keyed_ulid', "id = '" . lc($ulid_literal) . "'"),
	$lookup->('keyed_typeid', "id = '$typeid_literal'"),
	$lookup->('keyed_ulid', "id::uuid = '$ulid_literal'::idgen.ulid::uuid"));
note("EXPLAIN of SELECT * FROM keyed_ulid WHERE id = '$ulid_literal':\n"
	  . $coordinator->safe_psql('postgres', "EXPLAIN (COSTS OFF) SELECT * FROM keyed_ulid WHERE id = '$ulid_literal'"));
is( join(' ', @lookups),
	'1:1 1:1 1:1 32:1',
	"a lookup by an idgen.ulid literal ($ulid_literal, and in lower case) or an idgen.typeid literal ($typeid_literal) has Task Count 1 and finds the row; by id::uuid all 32 shards"
);

# Citus hashes a distribution column with its type's hash function; idgen.ulid's is uuid's of the
# same bytes, so with the same shard count every ULID is in the shard where its bytes are in a
# uuid-distributed table: by get_shard_id_for_distribution_column, and by where the rows are.
# (Citus still refuses to co-locate the two: the column types differ.)
$coordinator->safe_psql('postgres', q{
CREATE TABLE ulid_bytes (id uuid PRIMARY KEY);
SELECT create_distributed_table('ulid_bytes', 'id');
INSERT INTO ulid_bytes SELECT id::uuid FROM keyed_ulid;
});
my $ulids = 2 + 4 * $rows;
is( $coordinator->safe_psql(
		'postgres', q{
WITH ids AS MATERIALIZED (SELECT id FROM keyed_ulid),
shards AS MATERIALIZED (
  SELECT (SELECT shardminvalue FROM pg_dist_shard WHERE shardid = get_shard_id_for_distribution_column('keyed_ulid', id)) AS as_ulid,
         (SELECT shardminvalue FROM pg_dist_shard WHERE shardid = get_shard_id_for_distribution_column('ulid_bytes', id::uuid)) AS as_uuid
  FROM ids)
SELECT count(*) || ' ' || count(*) FILTER (WHERE as_ulid = as_uuid) || ' ' || count(DISTINCT as_ulid) FROM shards}),
	"$ulids $ulids 32",
	"get_shard_id_for_distribution_column: each of the $ulids ULIDs has the hash range of its bytes as a uuid (over all 32 shards)"
);
is( $coordinator->safe_psql(
		'postgres', q{
WITH u AS (SELECT s.shardminvalue AS low, r.result
           FROM run_command_on_shards('keyed_ulid', 'SELECT count(*) FROM %s') r JOIN pg_dist_shard s USING (shardid)),
     b AS (SELECT s.shardminvalue AS low, r.result
           FROM run_command_on_shards('ulid_bytes', 'SELECT count(*) FROM %s') r JOIN pg_dist_shard s USING (shardid))
SELECT count(*) || ' ' || count(*) FILTER (WHERE u.result = b.result) || ' ' || sum(u.result::bigint)
FROM u JOIN b USING (low)}),
	"32 32 $ulids",
	'the shards of the ULID table and of the uuid table hold the same number of rows, range by range (rows routed as uuids would be)');
($status, $out, $err) = $coordinator->psql('postgres', q{
CREATE TABLE ulid_beside_uuid (id idgen.ulid PRIMARY KEY);
SELECT create_distributed_table('ulid_beside_uuid', 'id', colocate_with => 'ulid_bytes');});
like($err, qr/cannot colocate tables ulid_bytes and ulid_beside_uuid.*Distribution column types don't match/s,
	'Citus refuses to co-locate an idgen.ulid table with a uuid table (the types differ, though the hashes agree)');
$coordinator->safe_psql('postgres', 'DROP TABLE IF EXISTS ulid_beside_uuid');

# The TypeID prefix CHECK, added to the distributed table, reaches every shard and refuses another
# prefix through the coordinator and in a worker session.
$coordinator->safe_psql('postgres',
	q{ALTER TABLE keyed_typeid ADD CONSTRAINT keyed_typeid_is_a_user CHECK (idgen.typeid_prefix(id) = 'user')});
my @refusals = map {
	my (undef, undef, $refusal) = $_->psql('postgres', q{
\set VERBOSITY verbose
INSERT INTO keyed_typeid (id, way) VALUES (idgen.new_typeid('post'), 'wrong prefix')});
	$refusal =~ /ERROR: +(23514): .*"keyed_typeid_is_a_user(?:_\d+)?"/ ? $1 : $refusal
} ($coordinator, $workers[0]);
is(join(' ', @refusals), '23514 23514',
	'the TypeID prefix CHECK of a distributed table refuses another prefix through the coordinator and on a worker');

# ALTER SYSTEM is per node: Citus does not propagate it.
$coordinator->safe_psql('postgres', q{ALTER SYSTEM SET idgen.ledger_max_lead = '5min'; SELECT pg_reload_conf()});
$coordinator->poll_query_until('postgres', q{SELECT current_setting('idgen.ledger_max_lead') = '5min'});
is( join(' ', map { $_->safe_psql('postgres', 'SHOW idgen.ledger_max_lead') } @nodes),
	'5min 1min 1min', 'ALTER SYSTEM on the coordinator changes idgen settings there only');
$coordinator->safe_psql('postgres', q{ALTER SYSTEM RESET idgen.ledger_max_lead; SELECT pg_reload_conf()});

# Within one node's generator, ids increase with the time they were made (the time-ordered
# families; COMBs only by minute). Checked on the coordinator's own INSERT ... SELECT rows.
for my $family (qw(uuidv7 distributed_id128 distributed_id ulid typeid))
{
	is( $coordinator->safe_psql(
			'postgres', qq{
SELECT count(*) FROM (
  SELECT id, lag(id) OVER (ORDER BY made, id) AS prev FROM keyed_$family
  WHERE way = 'select') t
WHERE id <= prev}),
		'0',
		"$family: the coordinator's ids increase in the order they were made");
}

# A reference table keyed by COMBs: the same rows on every node.
$coordinator->safe_psql('postgres', q{
CREATE TABLE countries (id uuid PRIMARY KEY DEFAULT idgen.comb(), name text NOT NULL);
SELECT create_reference_table('countries');
INSERT INTO countries (name) VALUES ('France'), ('Japan'), ('Peru');
});
my @digests = map {
	$_->safe_psql('postgres', q{
SELECT md5(string_agg(id::text || name, ',' ORDER BY id)) FROM countries})
} @nodes;
is(scalar(keys %{ +{ map { $_ => 1 } @digests } }), 1,
	'a reference table keyed by COMBs holds the same ids on the coordinator and both workers');

# Functions of the key pushed down to the shards answer as on one server.
is( $coordinator->safe_psql(
		'postgres', q{
SELECT count(*) FILTER (WHERE idgen.comb_valid(id, tolerance => '1 hour'))
     = count(*) FILTER (WHERE idgen.comb_prefix(id) = idgen.comb_prefix(id))
FROM keyed_comb}),
	't',
	'comb_valid and comb_prefix evaluated on the shards agree for every row');
is( $coordinator->safe_psql(
		'postgres', q{
SELECT count(*) FROM keyed_uuidv7
WHERE id >= idgen.uuidv7_bound(now() - interval '1 hour')}),
	2 + 4 * $rows,
	'a uuidv7_bound range condition, pushed to the shards, finds every recent row');

# Encodings pushed to the shards: they round-trip there, and the alphanumeric forms made on the
# shards sort like the ids (COLLATE "C"), as on one server.
is( $coordinator->safe_psql(
		'postgres', q{
SELECT count(*) FILTER (WHERE idgen.try_alphanumeric_to_numeric(idgen.to_alphanumeric(id)) = id
                          AND idgen.try_hexadecimal_to_numeric(idgen.to_hexadecimal(id)) = id)
FROM keyed_distributed_id}),
	2 + 4 * $rows,
	'distributed_id: alphanumeric and hexadecimal forms made and decoded on the shards round-trip for every row');
is( $coordinator->safe_psql(
		'postgres', q{
WITH encoded AS MATERIALIZED (SELECT id, idgen.to_alphanumeric(id) AS a FROM keyed_uuidv7)
SELECT count(*) FROM (SELECT a, lag(a) OVER (ORDER BY id) AS prev FROM encoded) t
WHERE a COLLATE "C" <= prev COLLATE "C"}),
	'0',
	'uuidv7: the alphanumeric forms made on the shards sort like the ids');
# Public ids made on the shards of worker1 (same key as the coordinator) decode on the coordinator;
# worker2's, made with another key, do not (NULL): the key check value below is how an operator
# finds out.
is( $coordinator->safe_psql(
		'postgres', qq{
WITH made AS MATERIALIZED (
  SELECT id, idgen.public_id(id) AS public, inet_server_port() AS port FROM keyed_distributed_id)
SELECT string_agg(DISTINCT port || ':' || coalesce((idgen.public_id_to_numeric(public) = id)::text, 'not decoded'), ',')
FROM made}),
	join(',', sort ($workers[0]->port . ':true', $workers[1]->port . ':not decoded')),
	'public ids made on the shards decode on the coordinator where the worker holds its key, and not where it holds another');

# Sequences Citus distributes need nothing where their values are only compared: a bigserial and a
# comb_seq default give distinct values through the coordinator and both workers, from each
# worker's own range (above 2^48).
$coordinator->safe_psql('postgres', q{
CREATE SEQUENCE comb_block;
CREATE TABLE serial_keyed (n bigserial, id uuid PRIMARY KEY DEFAULT idgen.comb_seq('comb_block'), way text);
SELECT create_distributed_table('serial_keyed', 'id');
INSERT INTO serial_keyed (way) SELECT 'coordinator' FROM generate_series(1, 500);
});
$_->safe_psql('postgres', "INSERT INTO serial_keyed (way) SELECT 'worker' FROM generate_series(1, 500)")
  for @workers;
is( $coordinator->safe_psql(
		'postgres', q{
SELECT count(*) || ' ' || count(DISTINCT n) || ' ' || count(DISTINCT id) || ' ' ||
       count(*) FILTER (WHERE way = 'worker' AND n > 281474976710656)
FROM serial_keyed}),
	'1500 1500 1500 1000',
	'bigserial and comb_seq defaults: 1500 distinct values through the coordinator and both workers, the workers\' from their ranges above 2^48');

# Group keys from sequences. A sequence that a distributed table's default names gets, on each
# worker, the range (group << 48) + 1 ...: above a group-key uuid's 48-bit key, so inserts made
# there fail. The recipe: a node-local sequence on every node (created with DDL propagation off)
# with its own residue, START k INCREMENT BY n, read through a function, so Citus neither
# distributes the sequence nor moves its range; and the group by its id, which is the same on
# every node (the registry is per node).
$coordinator->safe_psql('postgres', q{
CREATE SEQUENCE plain_key;
CREATE TABLE person_plain (id uuid PRIMARY KEY DEFAULT idgen.group_uuid(7, nextval('plain_key')), name text);
SELECT create_distributed_table('person_plain', 'id');
});
($status, $out, $err) = $workers[0]->psql('postgres', q{
\set VERBOSITY verbose
INSERT INTO person_plain (name) VALUES ('x')});
like($err, qr/22003: key 281474976710657 is out of range for a group-key uuid/,
	'a distributed sequence in a group-key default fails on a worker (its range starts at 2^48 + 1)');
my $residue = 0;
for my $node (@nodes)
{
	$residue++;
	$node->safe_psql('postgres', qq{
SET citus.enable_ddl_propagation = off;
CREATE SEQUENCE person_key_local START $residue INCREMENT BY 16;});
}
$coordinator->safe_psql('postgres', q{
CREATE FUNCTION next_person_key() RETURNS bigint LANGUAGE sql VOLATILE
AS $$ SELECT nextval('person_key_local') $$;
CREATE TABLE person (id uuid PRIMARY KEY DEFAULT idgen.group_uuid(7, next_person_key()), name text);
SELECT create_distributed_table('person', 'id');
INSERT INTO person (name) SELECT 'coordinator' FROM generate_series(1, 200);
INSERT INTO person (name) SELECT 'repartitioned' FROM sources;
});
$_->safe_psql('postgres', "INSERT INTO person (name) SELECT 'worker' FROM generate_series(1, 200)")
  for @workers;
my $people = 400 + 200 + $rows;
is( $coordinator->safe_psql(
		'postgres', q{
SELECT count(*) || ' ' || count(DISTINCT idgen.group_uuid_key(id)) || ' ' ||
       count(DISTINCT idgen.group_uuid_key(id) % 16) || ' ' ||
       string_agg(DISTINCT idgen.group_uuid_group(id)::text, ',')
FROM person}),
	"$people $people 3 7",
	"group keys from node-local sequences: $people rows through the coordinator, INSERT ... SELECT on the workers and worker sessions, every key distinct, one residue per node, group 7");

# The group registry. Before it is distributed, a registration on a Citus node is refused: it would
# reach only that node. idgen.distribute_groups() makes it a reference table.
($status, $out, $err) = $coordinator->psql('postgres', q{
\set VERBOSITY verbose
SELECT idgen.register_group('person', 7)});
like($err, qr/55000: the group registry is not distributed over the Citus cluster/,
	'register_group on Citus refuses while the registry is one table per node');
$coordinator->safe_psql('postgres', 'SELECT idgen.distribute_groups()');
is( $coordinator->safe_psql(
		'postgres', q{
SELECT partmethod::text || repmodel::text || ' ' || (SELECT count(*) FROM pg_dist_placement p JOIN pg_dist_shard s USING (shardid)
                                         WHERE s.logicalrelid = 'idgen_internal.groups'::regclass)
FROM pg_dist_partition WHERE logicalrelid = 'idgen_internal.groups'::regclass}),
	'nt 3',
	'distribute_groups makes the registry (idgen_internal.groups) a reference table with a copy on each of the three nodes');

# A session on worker1 resolves 'order' before it is registered (the CRC, cached), keeps running
# while worker2 registers it, and then sees the registered id: the registration reached every
# node's copy, and its invalidation every node's caches.
my $watcher = $workers[0]->background_psql('postgres');
my $crc = $watcher->query_safe(q{SELECT idgen.group_uuid_group(idgen.group_uuid('order', 1))});
is($crc, $coordinator->safe_psql('postgres', q{SELECT idgen.crc12('order')}),
	'an unregistered name resolves to its CRC-12 on a worker');
is($workers[1]->safe_psql('postgres', q{SELECT idgen.register_group('order', 300)}),
	'300', 'a worker registers a group');
is($watcher->query_safe(q{SELECT idgen.group_uuid_group(idgen.group_uuid('order', 1))}),
	'300', 'a session on another worker that had cached the name now resolves the registered id');
$watcher->quit;

$coordinator->safe_psql('postgres', q{SELECT idgen.register_group('person', 7, 'person')});
my @registries = map {
	$_->safe_psql('postgres', q{
SELECT string_agg(name || '=' || group_id || ':' || coalesce(target::text, '-'), ' ' ORDER BY name)
FROM idgen.groups})
} @nodes;
is(join(' | ', @registries), join(' | ', ('order=300:- person=7:person') x 3),
	'every node holds the same registry, targets resolved to each node\'s own table');

# Names resolved in every plan: on the coordinator, in an INSERT ... SELECT that the workers run,
# and in sessions on the workers.
$coordinator->safe_psql('postgres', q{
CREATE TABLE named (id uuid PRIMARY KEY, way text NOT NULL);
SELECT create_distributed_table('named', 'id');
INSERT INTO named SELECT idgen.group_uuid('person', n), 'coordinator' FROM generate_series(1, 500) n;
INSERT INTO named SELECT idgen.group_uuid('person', 1000 + n), 'repartitioned' FROM sources;
});
$_->safe_psql('postgres',
	q{INSERT INTO named SELECT idgen.group_uuid('person', 100000 + n), 'worker' FROM generate_series(1, 500) n})
  for @workers;
is( $coordinator->safe_psql(
		'postgres', q{
SELECT string_agg(way || ':' || groups, ' ' ORDER BY way) FROM (
  SELECT way, string_agg(DISTINCT idgen.group_uuid_group(id)::text, ',') AS groups FROM named GROUP BY way) t}),
	'coordinator:7 repartitioned:7 worker:7',
	'group_uuid(\'person\', k) gives group 7 through the coordinator, INSERT ... SELECT on the workers and worker sessions');

# group_name and group_target pushed to the shards.
my $named = 1500 + $rows;
is( $coordinator->safe_psql(
		'postgres', q{
SELECT count(*) FILTER (WHERE idgen.group_name(id) = 'person') || ' ' ||
       count(*) FILTER (WHERE idgen.group_target(id)::text = 'person')
FROM named}),
	"$named $named",
	'group_name and group_target (as text) evaluated on the shards give the registered name and table for every row');
# A regclass travels from worker to coordinator as the worker's oid while Citus's binary protocol is
# on (the default), and a regclass constant in a pushed-down condition as the coordinator's oid: a
# pushed-down group_target is compared as text, or read with the binary protocol off.
is( $coordinator->safe_psql(
		'postgres', q{
SET citus.enable_binary_protocol = off;
SELECT string_agg(DISTINCT idgen.group_target(id)::text, ',') FROM named}),
	'person',
	'group_target from the shards reads as the table with citus.enable_binary_protocol off');
isnt(
	$coordinator->safe_psql(
		'postgres', q{
SELECT DISTINCT idgen.group_target(id) FROM named}),
	'person',
	'with the binary protocol on, a pushed-down regclass arrives as the worker\'s oid (hence ::text above)');
is( $coordinator->safe_psql(
		'postgres', q{SELECT count(*) FROM named WHERE idgen.group_target(id) = 'person'::regclass}),
	'0',
	'a pushed-down comparison with a regclass constant compares oids of different nodes (no row matches)');

# A registration must reach every node or fail: with worker2 down it fails, and no copy changed.
$workers[1]->stop;
($status, $out, $err) = $coordinator->psql('postgres', q{SELECT idgen.register_group('invoice', 301)});
like($err, qr/connection to the remote node .* failed/, 'a registration with a worker down fails');
$workers[1]->start;
is( join(',',
		map { $_->safe_psql('postgres', q{SELECT count(*) FROM idgen.groups WHERE name = 'invoice'}) } @nodes),
	'0,0,0',
	'the failed registration left no copy changed');

# Dropping a registered table clears its target on every copy (by name: its oid differs per node).
$coordinator->safe_psql('postgres', q{
CREATE TABLE pet (id uuid PRIMARY KEY);
SELECT create_distributed_table('pet', 'id');
SELECT idgen.register_group('pet', 302, 'pet');
DROP TABLE pet;
});
is( join(',',
		map { $_->safe_psql('postgres', q{SELECT coalesce(target::text, 'none') FROM idgen.groups WHERE name = 'pet'}) }
		  @nodes),
	'none,none,none',
	'DROP TABLE of a registered distributed table clears its target on every node');

# A node added later gets no copy of a reference table until Citus needs one there: registration
# is refused, naming it, until replicate_reference_tables() has copied the registry.
$coordinator->safe_psql('postgres',
	"SELECT citus_add_node('127.0.0.1', @{[ $late_worker->port ]})");
($status, $out, $err) = $coordinator->psql('postgres', q{
\set VERBOSITY verbose
SELECT idgen.register_group('invoice', 301)});
like($err, qr/55000: the group registry has no copy on node 127\.0\.0\.1:@{[ $late_worker->port ]}/,
	'registration is refused while a newly added node has no copy of the registry');
$coordinator->safe_psql('postgres', q{
SELECT replicate_reference_tables();
SELECT idgen.register_group('invoice', 301);
});
is( $late_worker->safe_psql(
		'postgres', q{
SELECT idgen.group_uuid_group(idgen.group_uuid('invoice', 1)) || ' ' ||
       idgen.group_uuid_group(idgen.group_uuid('person', 1))}),
	'301 7',
	'after replicate_reference_tables the new node resolves earlier and new registrations');
is( $late_worker->safe_psql('postgres', q{SELECT extversion FROM pg_extension WHERE extname = 'idgen'}),
	$version, "citus_add_node created idgen on the new node ($version)");
($status, $out, $err) = $late_worker->psql('postgres', q{INSERT INTO person (name) VALUES ('late')});
like($err, qr/relation "person_key_local" does not exist/,
	'the node-local key sequence recipe: a new node without its own sequence refuses inserts instead of reusing keys');

# Ledgers distributed by ledger id. The append trigger needs citus.enable_unsafe_triggers while the
# table is distributed; Citus then puts it on every shard, where it locks and reads that shard's
# tail, so each ledger has one appender order on the node that holds it.
$coordinator->safe_psql('postgres', slurp_file('test/fixtures/ledger_table.sql'));
($status, $out, $err) = $coordinator->psql('postgres',
	q{SELECT create_distributed_table('ledger_events', 'ledger_id')});
like($err, qr/cannot distribute relation "ledger_events" because it has triggers/,
	'Citus refuses to distribute a ledger table without citus.enable_unsafe_triggers');
$coordinator->safe_psql('postgres', q{
SET citus.enable_unsafe_triggers = on;
SELECT create_distributed_table('ledger_events', 'ledger_id');
});
# Ledgers created on the coordinator and on a worker (ledger_create sets the ledger id before it
# inserts, so Citus can route the genesis), listed in ledger id order in a reference table.
# (ledger_create in a statement of its own: a statement that also writes another distributed table
# can fail in Citus, "modifications were made over a connection that cannot be used at this time".)
$coordinator->safe_psql('postgres', q{
CREATE TABLE ledger_list (ledger_id bigint PRIMARY KEY);
SELECT create_reference_table('ledger_list');
});
my $list_ledger = sub {
	my ($node, $name) = @_;
	my $ledger = $node->safe_psql('postgres', "SELECT idgen.ledger_create('ledger_events', '$name', 'test')");
	$node->safe_psql('postgres', "INSERT INTO ledger_list VALUES ($ledger)");
};
$list_ledger->($coordinator, "ledger $_") for 1 .. 4;
$list_ledger->($workers[0], "worker ledger $_") for 1 .. 2;
# The shards are on the workers (the coordinator holds none). More ledgers until both have one.
my %node_of;    # ledger id -> port of the worker holding its shard
my $place = sub {
	for my $ledger (split /\n/, $coordinator->safe_psql('postgres', 'SELECT ledger_id FROM ledger_list'))
	{
		$node_of{$ledger} //= $coordinator->safe_psql('postgres', qq{
SELECT nodeport FROM pg_dist_shard_placement
WHERE shardid = get_shard_id_for_distribution_column('ledger_events', $ledger)});
	}
	return scalar keys %{ +{ map { $_ => 1 } values %node_of } };
};
for (my $more = 0; $place->() < 2 && $more < 20; $more++)
{
	$list_ledger->($coordinator, "one more $more");
}
my $ledgers = scalar keys %node_of;
cmp_ok($ledgers, '>=', 6, "$ledgers ledgers, created on the coordinator and on a worker");
cmp_ok($place->(), '>=', 2, 'the ledgers are on shards of more than one worker');

# Appends through the coordinator and through both workers at once: three pgbench runs of three
# clients, each transaction appending to two ledgers in ledger id order.
my $bench_script = PostgreSQL::Test::Utils::tempdir() . '/append.sql';
PostgreSQL::Test::Utils::append_to_file($bench_script, q{
\set a random(1, :ledgers)
\set b random(1, :ledgers)
SELECT ledger_id AS first FROM ledger_list ORDER BY ledger_id OFFSET least(:a, :b) - 1 LIMIT 1 \gset
SELECT ledger_id AS second FROM ledger_list ORDER BY ledger_id OFFSET greatest(:a, :b) - 1 LIMIT 1 \gset
BEGIN;
INSERT INTO ledger_events (ledger_id, event, entities, data) VALUES (:first, 'appended', '{}', '{"client": :client_id}');
INSERT INTO ledger_events (ledger_id, event, entities, data) VALUES (:second, 'appended', '{}', '{"client": :client_id}');
END;
});
my $transactions = 40;    # per client
my @runs = map {
	my ($in, $bench_out, $bench_err) = ('', '', '');
	my $node = $_;
	my $h = IPC::Run::start(
		[
			'pgbench', '-n', '-c', '3', '-t', $transactions, '-D', "ledgers=$ledgers", '-f', $bench_script,
			'-h', $node->host, '-p', $node->port, 'postgres'
		],
		\$in, \$bench_out, \$bench_err);
	[ $node->name, $h, \$bench_out, \$bench_err ]
} @nodes;
my @bench_failures;
for my $run (@runs)
{
	my ($name, $h, $bench_out, $bench_err) = @$run;
	$h->finish;
	push @bench_failures, "$name: exit " . ($? >> 8) . " $$bench_err"
	  if $? != 0 || $$bench_out !~ /number of transactions actually processed: 120\/120/;
}
is(join("\n", @bench_failures), '', 'three pgbench runs (coordinator, worker1, worker2) complete all their appends');
my $appended = 3 * 3 * $transactions * 2;
is( $coordinator->safe_psql(
		'postgres', q{
SELECT sum(appended) || ' ' || count(*) FILTER (WHERE NOT (v).valid) FROM (
  SELECT count(*) FILTER (WHERE event = 'appended') AS appended,
         idgen.ledger_verify(id, event, entities, meta, data ORDER BY id) AS v
  FROM ledger_events GROUP BY ledger_id) per_ledger}),
	"$appended 0",
	"$appended events appended concurrently through three nodes, every ledger verifies (per ledger, on its shard)");

# Opposite orders across workers deadlock: two transactions, each holding a ledger on one worker,
# then appending to the other's. Citus's deadlock detector (not PostgreSQL's: the locks are on two
# servers) cancels one with 40P01.
my %one_per_node = reverse %node_of;    # port -> a ledger there
my ($left, $right) = @one_per_node{ sort keys %one_per_node };
my $append = sub { "INSERT INTO ledger_events (ledger_id, event, entities, data) VALUES ($_[0], 'crossed', '{}', '{}');" };
my $first = $coordinator->background_psql('postgres', on_error_stop => 0);
my $second = $coordinator->background_psql('postgres', on_error_stop => 0);
$first->query_safe('BEGIN; ' . $append->($left));
$second->query_safe('BEGIN; ' . $append->($right));
$first->query_until(qr/waiting/, "\\echo waiting\n" . $append->($right) . "\n");
$second->query($append->($left));
$first->query_until(qr/done/, "\\echo done\n");
# The cancelled transaction's COMMIT rolls it back; the other keeps its two events.
$first->query('COMMIT');
$second->query('COMMIT');
my ($first_error, $second_error) = ($first->{stderr}, $second->{stderr});
like("$first_error $second_error", qr/involved in a distributed deadlock/,
	'appends to ledgers on two workers in opposite orders: Citus cancels one transaction (distributed deadlock)');
$first->quit;
$second->quit;
# The same two transactions in one order (ledger id order): the second waits, then both commit.
($left, $right) = sort { $a <=> $b } ($left, $right);
$first = $coordinator->background_psql('postgres');
$second = $coordinator->background_psql('postgres');
$first->query_safe('BEGIN; ' . $append->($left) . $append->($right));
$second->query_until(qr/waiting/, "\\echo waiting\nBEGIN; " . $append->($left) . $append->($right) . " COMMIT;\n\\echo committed\n");
$first->query_safe('COMMIT');
$second->query_until(qr/committed/, '');
$first->quit;
$second->quit;
is( $coordinator->safe_psql(
		'postgres', qq{
SELECT sum(crossed) || ' ' || bool_and((v).valid) FROM (
  SELECT count(*) FILTER (WHERE event = 'crossed') AS crossed,
         idgen.ledger_verify(id, event, entities, meta, data ORDER BY id) AS v
  FROM ledger_events WHERE ledger_id IN ($left, $right) GROUP BY ledger_id) per_ledger}),
	'6 true',
	'appends in ledger id order wait instead of deadlocking (2 events of the deadlock survivor + 4); both ledgers verify');

# A shard move (Citus's default, logical replication) carries a ledger to another worker with its
# ids unchanged (the moved shard's trigger is created after the copy, and replication does not
# fire it), and appends continue on the new node.
my $ledger_digest = sub {
	$coordinator->safe_psql('postgres', qq{
SELECT md5(string_agg(id::text, ',' ORDER BY id)) || ' ' || (idgen.ledger_verify(id, event, entities, meta, data ORDER BY id)).valid
FROM ledger_events WHERE ledger_id = $_[0]});
};
my $before_move = $ledger_digest->($left);
$coordinator->safe_psql('postgres', qq{
SELECT citus_move_shard_placement(get_shard_id_for_distribution_column('ledger_events', $left),
                                  '127.0.0.1', $node_of{$left}, '127.0.0.1', $node_of{$right})});
is( $coordinator->safe_psql('postgres', qq{
SELECT nodeport FROM pg_dist_shard_placement
WHERE shardid = get_shard_id_for_distribution_column('ledger_events', $left)}),
	$node_of{$right}, 'the ledger\'s shard moved to the other worker');
is($ledger_digest->($left), $before_move, 'after the move the ledger has the same ids and verifies');
$workers[0]->safe_psql('postgres', $append->($left) x 3);
is( $coordinator->safe_psql(
		'postgres', qq{
SELECT count(*) FILTER (WHERE event = 'crossed') || ' ' || (idgen.ledger_verify(id, event, entities, meta, data ORDER BY id)).valid
FROM ledger_events WHERE ledger_id = $left}),
	'6 true', 'appends after the move (through worker1) chain onto the moved tail; the ledger verifies');

# The key check value: equal where the key is, different on the worker with another key.
my %checks =
  map { $_->name => $_->safe_psql('postgres', 'SELECT idgen.public_id_key_check()') } @nodes, $late_worker;
is($checks{worker1}, $checks{coordinator}, 'worker1 holds the coordinator\'s public id key (same check value)');
isnt($checks{worker2}, $checks{coordinator}, 'worker2, configured with another key, shows another check value');
like($checks{coordinator}, qr/^[0-9a-f]{6}$/, 'a check value is 6 hexadecimal digits');
my $compared = $coordinator->safe_psql(
	'postgres', q{
SELECT string_agg(result, ',' ORDER BY nodeport)
FROM run_command_on_workers('SELECT idgen.public_id_key_check()')});
is( $compared,
	join(',', map { $checks{ $_->name } } sort { $a->port <=> $b->port } @workers, $late_worker),
	'run_command_on_workers lists every worker\'s check value from the coordinator');

$_->stop for @nodes, $late_worker;
done_testing();
