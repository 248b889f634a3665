# idgen-test: majors=all tier=quick
# Group-key uuids across servers (docs/group-uuid.md, "Many servers"): block reservation with plain
# sequences. Three servers each generate ids of the group 'person' from a sequence START k
# INCREMENT BY 3 (k = 1, 2, 3), under pgbench load on all three at once. Node 1 then gathers
# every row over postgres_fdw into one table with unique constraints on the id and on the friendly
# key (plain INSERT, no ON CONFLICT): zero conflicts. Also: every id names group
# crc12('person') = 0x2a0 and resolves to 'person' on node 1; node k's keys are all k mod 3;
# within a node id order is key order. Contrast: plain sequences starting at 1 on the three nodes
# clash in the friendly key while the ids stay distinct. (Dump and restore of the registry:
# 010_dump_restore.pl.)
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest::Sessions qw(start_pgbench finish_pgbench);

my $clients = 4;
my $transactions = 500;    # per client and node
my $per_node = $clients * $transactions;
my $all = 3 * $per_node;
my $contrast_rows = 100;    # per node

my @nodes = map { PostgreSQL::Test::Cluster->new("node$_") } 1 .. 3;
for my $k (1 .. 3)
{
	my $node = $nodes[ $k - 1 ];
	$node->init;
	$node->start;
	is( $node->safe_psql(
			'postgres', qq{
CREATE EXTENSION idgen;
SELECT idgen.register_group('person');
CREATE SEQUENCE person_key START $k INCREMENT BY 3;
CREATE TABLE person (
  id   uuid PRIMARY KEY DEFAULT idgen.group_uuid('person', nextval('person_key')),
  name text NOT NULL);
-- The contrast: a plain sequence from 1 on every node.
CREATE SEQUENCE plain_key;
CREATE TABLE person_plain (
  id   uuid PRIMARY KEY DEFAULT idgen.group_uuid('person', nextval('plain_key')),
  name text NOT NULL);}),
		'672',
		"node $k: register_group('person') returns crc12('person') = 672");
}

# Concurrent load: pgbench on all three nodes at the same time.
my $script = PostgreSQL::Test::Utils::tempdir . '/insert.sql';
append_to_file($script, "INSERT INTO person (name) VALUES ('x');\n");
my @runs = map { start_pgbench($_, '-c', $clients, '-j', '2', '-t', $transactions, '-f', $script) }
  @nodes;
for my $k (1 .. 3)
{
	my ($ok, $out, $err) = finish_pgbench($runs[ $k - 1 ]);
	my ($tps) = $out =~ /(tps = [0-9.]+)/;
	ok($ok, "node $k: pgbench, $clients clients x $transactions inserts, concurrent with the other nodes ("
		  . ($tps // 'no tps') . ')')
	  or diag($err);
}

# Per node: count, group, version, residue class, order.
for my $k (1 .. 3)
{
	my $node = $nodes[ $k - 1 ];
	is( $node->safe_psql(
			'postgres', qq{
SELECT count(*),
       count(*) FILTER (WHERE idgen.group_uuid_group(id) <> 672),
       count(*) FILTER (WHERE idgen.uuid_version(id) IS DISTINCT FROM 8),
       count(*) FILTER (WHERE (idgen.group_uuid_key(id) - $k) % 3 <> 0),
       count(DISTINCT idgen.group_uuid_key(id))
FROM person}),
		"$per_node|0|0|0|$per_node",
		"node $k: $per_node rows with as many distinct keys, all version 8 in group 0x2a0, every key "
		  . ($k % 3)
		  . ' mod 3 (rows, other group, other version, other residue, distinct keys)');
	is( $node->safe_psql(
			'postgres', q{
SELECT count(*)
FROM (SELECT idgen.group_uuid_key(id) AS key, lag(idgen.group_uuid_key(id)) OVER (ORDER BY id) AS prev
      FROM person) s
WHERE key <= prev}),
		'0',
		"node $k: ORDER BY id is ORDER BY key (no inversion)");
}

# Gather into node 1 over postgres_fdw.
my ($node1, $node2, $node3) = @nodes;
my $servers = join "\n", map {
	my $name = $_->name;
	my $port = $_->port;
	my $host = $_->host;
	qq{CREATE SERVER $name FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host '$host', port '$port', dbname 'postgres');
CREATE USER MAPPING FOR CURRENT_USER SERVER $name;
CREATE SCHEMA $name;
IMPORT FOREIGN SCHEMA public LIMIT TO (person, person_plain) FROM SERVER $name INTO $name;}
} $node2, $node3;
is( $node1->safe_psql(
		'postgres', qq{
CREATE EXTENSION postgres_fdw;
$servers
CREATE TABLE all_people (id uuid PRIMARY KEY, friendly_key text UNIQUE, node int NOT NULL);
CREATE VIEW gathered AS
  SELECT id, 1 AS node FROM public.person
  UNION ALL SELECT id, 2 FROM node2.person
  UNION ALL SELECT id, 3 FROM node3.person;
SELECT count(*) FROM gathered;}),
	$all,
	"node 1 reads all three nodes over postgres_fdw ($all rows)");

# The constraints decide: a plain INSERT, so any conflict raises and nothing is inserted.
is( $node1->safe_psql(
		'postgres', q{
SELECT count(*) - count(DISTINCT id), count(*) - count(DISTINCT idgen.group_key_text(id)) FROM gathered;
WITH ins AS (
  INSERT INTO all_people (id, friendly_key, node)
  SELECT id, idgen.group_key_text(id), node FROM gathered
  RETURNING 1)
SELECT count(*) FROM ins;}),
	"0|0\n$all",
	"$all rows from 3 nodes gathered under UNIQUE id and UNIQUE friendly_key: 0 id conflicts, 0 friendly-key conflicts"
);
is( $node1->safe_psql(
		'postgres', q{
SELECT min(idgen.group_key_from_text(friendly_key)), max(idgen.group_key_from_text(friendly_key)),
       (SELECT string_agg(c::text, '/' ORDER BY node) FROM (SELECT node, count(*) c FROM all_people GROUP BY node) n)
FROM all_people}),
	"1|$all|$per_node/$per_node/$per_node",
	"the gathered friendly keys are exactly 1 .. $all, $per_node from each node");
is( $node1->safe_psql(
		'postgres', q{
SELECT idgen.crc12('person'),
       count(*) FILTER (WHERE idgen.group_uuid_group(id) = 672 AND idgen.group_name(id) = 'person')
FROM all_people}),
	"672|$all",
	"on node 1 every gathered id has group crc12('person') = 672 and group_name 'person'");

# Contrast: the same group from plain sequences starting at 1 on every node.
$_->safe_psql('postgres',
	"INSERT INTO person_plain (name) SELECT 'x' FROM generate_series(1, $contrast_rows)")
  for @nodes;
my ($plain_total, $plain_ids, $kept) = split /\|/, $node1->safe_psql(
	'postgres', q{
CREATE TABLE all_plain (id uuid PRIMARY KEY, friendly_key text UNIQUE);
WITH g AS (SELECT id FROM public.person_plain
           UNION ALL SELECT id FROM node2.person_plain
           UNION ALL SELECT id FROM node3.person_plain),
     ins AS (INSERT INTO all_plain SELECT id, idgen.group_key_text(id) FROM g
             ON CONFLICT DO NOTHING RETURNING 1)
SELECT (SELECT count(*) FROM g), (SELECT count(DISTINCT id) FROM g), (SELECT count(*) FROM ins)});
ok( $plain_total == 3 * $contrast_rows && $plain_ids == $plain_total && $kept < $plain_total,
	"contrast, START 1 INCREMENT BY 1 on all 3 nodes: $plain_ids distinct ids of $plain_total, but "
	  . ($plain_total - $kept)
	  . " friendly-key conflicts ($kept rows kept)");

done_testing();
