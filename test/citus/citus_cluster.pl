# idgen on a Citus cluster: a coordinator and two workers on loopback, idgen preloaded after
# Citus on each. The time-ordered families as defaults of a distributed table, filled through the
# coordinator (VALUES and INSERT ... SELECT from generate_series, defaults evaluated there),
# through INSERT ... SELECT from another distributed table (defaults evaluated on the workers)
# and through sessions on the workers themselves: every id unique across the cluster, each
# family's own checks true on every row, ids ordered by time within each node. A reference table
# keyed by COMBs holds the same rows on every node; validation functions pushed down to the
# shards answer as on one server. The public id key check value tells a node with another key
# from the others without showing any key.
#
# Runs against a PostgreSQL with Citus installed (test/run-all.sh builds Citus from
# ../shared/citus into the PostgreSQL 18 it built, test/lib/citus.sh).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest::KeyFile qw(random_key write_key_file);

my $rows = 3000;    # per way of inserting

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

# CREATE EXTENSION on the coordinator reaches the workers.
$coordinator->safe_psql('postgres', 'CREATE EXTENSION idgen');
is( join(',',
		map { $_->safe_psql('postgres', q{SELECT extversion FROM pg_extension WHERE extname = 'idgen'}) }
		  @nodes),
	'0.2.0,0.2.0,0.2.0',
	'CREATE EXTENSION idgen on the coordinator creates it on both workers');

# One distributed table per family, sharded by its key.
my %families = (
	comb => [ 'uuid', 'idgen.comb()', 'idgen.comb_valid(id)' ],
	uuidv7 => [ 'uuid', 'idgen.uuidv7()', 'idgen.uuid_version(id) = 7' ],
	distributed_id128 =>
	  [ 'uuid', 'idgen.distributed_id128()', 'idgen.distributed_id128_timestamp(id) > now() - interval \'1 hour\'' ],
	distributed_id => [
		'idgen.distributed_id', 'idgen.distributed_id()',
		'idgen.distributed_id_timestamp(id) > now() - interval \'1 hour\''
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

# Within one node's generator, ids increase with the time they were made (the time-ordered
# families; COMBs only by minute). Checked on the coordinator's own INSERT ... SELECT rows.
for my $family (qw(uuidv7 distributed_id128 distributed_id))
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
is(scalar(keys %{ { map { $_ => 1 } @digests } }), 1,
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
my ($status, $out, $err) = $workers[0]->psql('postgres', q{
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
                                         WHERE s.logicalrelid = 'idgen.groups'::regclass)
FROM pg_dist_partition WHERE logicalrelid = 'idgen.groups'::regclass}),
	'nt 3',
	'distribute_groups makes idgen.groups a reference table with a copy on each of the three nodes');

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
SELECT replicate_reference_tables('block_writes');
SELECT idgen.register_group('invoice', 301);
});
is( $late_worker->safe_psql(
		'postgres', q{
SELECT idgen.group_uuid_group(idgen.group_uuid('invoice', 1)) || ' ' ||
       idgen.group_uuid_group(idgen.group_uuid('person', 1))}),
	'301 7',
	'after replicate_reference_tables the new node resolves earlier and new registrations');

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
