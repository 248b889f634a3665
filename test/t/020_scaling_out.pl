# idgen-test: majors=all tier=quick
# Scaling out (docs/scaling-out.md): what idgen's generators do on several PostgreSQL servers.
#
# Three servers: A and B preload idgen (server-wide generator state), C loads it per backend.
# Every check's name starts with the letter docs/scaling-out.md uses for it:
#  (a) logical replication: A and B generate orders with idgen defaults (comb, uuidv7,
#      distributed_id128, distributed_id, comb_seq, group_uuid from disjoint sequences, an identity
#      column START k INCREMENT BY 2) under concurrent pgbench load; C subscribes to both, with
#      UNIQUE constraints on every id. Nothing conflicts, the subscriber stores the publishers'
#      values unchanged, each DEFAULT ran on the node that ran the INSERT (C's own defaults run
#      only for columns the publishers do not send), group keys clash without disjoint ranges,
#      comb_seq ids do not, group names resolve in each node's registry, public ids decode on
#      every node with the same key file and on no node with another key.
#  (b) postgres_fdw sharding: on C, a table partitioned by list whose partitions are foreign
#      tables on A and B (the remote sessions of each shard's foreign server pin idgen.fixed_clock
#      to another year in their connection options, while the C session pins its own): where each
#      DEFAULT is evaluated, that a declared column without a local default is sent as NULL, that
#      no unique index spans foreign partitions; ledgers hash-partitioned by ledger_id over the
#      shards get their ids from the shard's trigger, and idgen.ledger_create through the parent
#      routes the genesis by its ledger id.
#  (c) an event ledger appended on A (concurrently) and replicated to C verifies on C with the
#      same ids, and C's ordinary triggers do not fire for replicated rows; an append on C to the
#      replicated ledger forks it (the lock is per server); with ENABLE ALWAYS TRIGGER on C,
#      replicated events are checked as imports and one that does not chain stops the apply.
#  (d) server-wide mode on two servers: concurrent bursts on A and B give distinct ids, and one
#      server's state is invisible to the other.
# The three ```sql blocks of docs/scaling-out.md run here as printed: the coordinator's table
# (b), the disjoint sequences on B (a), the genesis import through the coordinator (b).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(sleep);
use IdgenTest::AppDatabase qw(words);
use IdgenTest::KeyFile qw(random_key write_key_file);
use IdgenTest::Sessions qw(run_concurrently_on start_pgbench finish_pgbench);

my $rows_before = 500;    # per publisher, before the subscriptions (initial table copy)
my $clients = 4;
my $transactions = 200;    # per client and publisher, 5 rows each (streamed)
my $per_node = $rows_before + $clients * $transactions * 5;
my $total = 2 * $per_node;

# doc_block($n): the n-th ```sql block of docs/scaling-out.md (indented blocks included).
sub doc_block
{
	my ($n) = @_;
	my ($k, $inside, @lines) = (0, 0);
	for (split /\n/, slurp_file('docs/scaling-out.md'))
	{
		if (/^ *```sql/) { $inside = (++$k == $n); next; }
		if (/^ *```/) { $inside = 0; next; }
		push @lines, $_ if $inside;
	}
	return join "\n", @lines;
}

# ledger_table($name): a ledger table with the ledger_append trigger, as on every node here.
sub ledger_table
{
	my ($name) = @_;
	return qq{CREATE TABLE $name (
  ledger_id bigint NOT NULL, id idgen.event_id NOT NULL, event text NOT NULL,
  entities jsonb NOT NULL, meta jsonb NOT NULL DEFAULT '{}', data jsonb NOT NULL,
  PRIMARY KEY (ledger_id, id));
CREATE TRIGGER ledger_append BEFORE INSERT ON $name
  FOR EACH ROW EXECUTE FUNCTION idgen.ledger_append();};
}

# Every node has the same key file (in its data directory, named by a relative path) and another
# one to switch to.
my ($public_key, $other_key) = (random_key(), random_key());
my ($A, $B, $C) = map { PostgreSQL::Test::Cluster->new($_) } qw(A B C);
for my $node ($A, $B, $C)
{
	$node->init(allows_streaming => 'logical');
	write_key_file($node->data_dir . '/public_id.key', $public_key);
	write_key_file($node->data_dir . '/public_id_other.key', $other_key);
	$node->append_conf('postgresql.conf', "idgen.public_id_key_file = 'public_id.key'");
	$node->append_conf('postgresql.conf', "shared_preload_libraries = 'idgen'") if $node != $C;
	$node->start;
}
my ($pA, $pB, $pC) = map { $_->port } $A, $B, $C;
sub conninfo { my ($node, $db) = @_; return 'host=' . $node->host . ' port=' . $node->port . " dbname=$db"; }

is( join(' ',
		map { $_->safe_psql('postgres', 'CREATE EXTENSION idgen; SELECT idgen.generator_scope()') }
		  $A, $B, $C),
	'server server backend',
	"(d) generator_scope(): A and B 'server' (one state per server), C 'backend'");

# ---- (a) + (c) set-up: the publishers ----------------------------------------------------------
for my $k (1, 2)
{
	($A, $B)[ $k - 1 ]->safe_psql(
		'postgres', qq{
SELECT idgen.register_group('order');
CREATE SEQUENCE order_key START $k INCREMENT BY 2;   -- node k of 2: keys k, k + 2, k + 4, ...
CREATE SEQUENCE plain_key;                            -- the contrast: keys 1, 2, 3, ... on both
CREATE SEQUENCE comb_block;                           -- comb_seq: the same values on both nodes
CREATE TABLE orders (
  id      uuid PRIMARY KEY DEFAULT idgen.comb(),
  v7      uuid NOT NULL DEFAULT idgen.uuidv7(),
  d128    uuid NOT NULL DEFAULT idgen.distributed_id128(),
  did     idgen.distributed_id NOT NULL DEFAULT idgen.distributed_id(),
  cseq    uuid NOT NULL DEFAULT idgen.comb_seq('comb_block', 100),
  gkey    uuid NOT NULL DEFAULT idgen.group_uuid('order', nextval('order_key')),
  gplain  uuid NOT NULL DEFAULT idgen.group_uuid('order', nextval('plain_key')),
  n       bigint GENERATED BY DEFAULT AS IDENTITY (START WITH $k INCREMENT BY 2) UNIQUE,
  made_on int NOT NULL DEFAULT current_setting('port')::int,
  note    text
);
@{[ledger_table('ledger_events')]}
CREATE TABLE burst (v7 uuid NOT NULL, d128 uuid NOT NULL);
CREATE PUBLICATION scale_out FOR TABLE orders, ledger_events;
INSERT INTO orders (note) SELECT 'before the subscription' FROM generate_series(1, $rows_before);});
}
my $ledger = $A->safe_psql('postgres',
	q{SELECT idgen.ledger_create('ledger_events', 'orders of A', 'appended on A only')});
$A->safe_psql(
	'postgres', qq{INSERT INTO ledger_events (ledger_id, event, entities, data)
        SELECT $ledger, 'order-placed', jsonb_build_object('order', jsonb_build_array(g::text)),
               jsonb_build_object('n', g) FROM generate_series(1, 100) g});

# ---- the collector C: UNIQUE on every id, columns of its own, both subscriptions --------------
$C->safe_psql(
	'postgres', qq{
SET client_min_messages = warning;
CREATE TABLE orders (
  id      uuid PRIMARY KEY,
  v7      uuid NOT NULL UNIQUE,
  d128    uuid NOT NULL UNIQUE,
  did     idgen.distributed_id NOT NULL UNIQUE,
  cseq    uuid NOT NULL UNIQUE,
  gkey    uuid NOT NULL UNIQUE,
  gplain  uuid NOT NULL,
  n       bigint NOT NULL UNIQUE,
  made_on int NOT NULL,
  note    text,
  -- not in the publications: the apply worker on C fills them from C's defaults
  received_on int NOT NULL DEFAULT current_setting('port')::int,
  received_id uuid NOT NULL UNIQUE DEFAULT idgen.comb()
);
CREATE UNIQUE INDEX orders_group_key ON orders (idgen.group_uuid_key(gkey));
-- The ledger's trigger is there (C could take over appends), and enabled as usual (ORIGIN); a
-- second ordinary trigger counts the rows that fire triggers on C.
@{[ledger_table('ledger_events')]}
CREATE TABLE trigger_calls (n int NOT NULL);
INSERT INTO trigger_calls VALUES (0);
CREATE FUNCTION count_call() RETURNS trigger LANGUAGE plpgsql
  AS \$\$ BEGIN UPDATE trigger_calls SET n = n + 1; RETURN NEW; END \$\$;
CREATE TRIGGER count_calls BEFORE INSERT ON ledger_events
  FOR EACH ROW EXECUTE FUNCTION count_call();
CREATE SUBSCRIPTION from_a CONNECTION '@{[conninfo($A, 'postgres')]}' PUBLICATION scale_out;
CREATE SUBSCRIPTION from_b CONNECTION '@{[conninfo($B, 'postgres')]}' PUBLICATION scale_out;});

# ---- concurrent load on both publishers (orders on A and B, ledger appends on A) -------------
my $dir = PostgreSQL::Test::Utils::tempdir;
append_to_file("$dir/orders.sql",
	"INSERT INTO orders (note) SELECT 'pgbench' FROM generate_series(1, 5);\n");
append_to_file(
	"$dir/append.sql", q{INSERT INTO ledger_events (ledger_id, event, entities, meta, data)
VALUES (:ledger, 'order-placed', jsonb_build_object('client', jsonb_build_array(:client_id::text)),
        '{"actor":"pgbench"}', jsonb_build_object('client', :client_id, 'r', random()));
});
my @loads = (
	start_pgbench($A, '-c', $clients, '-j', '2', '-t', $transactions, '-f', "$dir/orders.sql"),
	start_pgbench($B, '-c', $clients, '-j', '2', '-t', $transactions, '-f', "$dir/orders.sql"),
	start_pgbench($A, '-c', '2', '-j', '2', '-t', '100', '-f', "$dir/append.sql", '-D',
		"ledger=$ledger"));
my @failed = grep { !$_->[0] } map { [ finish_pgbench($_) ] } @loads;
ok(!@failed,
	"pgbench on A and B at once: $clients clients x $transactions x 5 orders each, and 2 x 100 ledger appends on A"
) or diag(join "\n", map { $_->[2] } @failed);

# ---- wait until C has everything ---------------------------------------------------------------
my $ledger_rows =
  $A->safe_psql('postgres', "SELECT count(*) FROM ledger_events WHERE ledger_id = $ledger");
ok( $C->poll_query_until(
		'postgres', qq{SELECT (SELECT count(*) FROM orders) = $total
		AND (SELECT count(*) FROM ledger_events) = $ledger_rows
		AND NOT EXISTS (SELECT FROM pg_subscription_rel WHERE srsubstate <> 'r')}),
	"(a) C caught up: $total orders from A and B (initial copy and streaming), the $ledger_rows ledger events, every table 'ready'"
);
my @c_errors = grep { /ERROR/ } split /\n/, slurp_file($C->logfile);
is(scalar @c_errors, 0,
	"(a) no error in C's log: no unique violation, the apply workers never stopped")
  or diag(join "\n", @c_errors[ 0 .. 4 ]);

is( $C->safe_psql(
		'postgres', q{
  SELECT count(DISTINCT id), count(DISTINCT v7), count(DISTINCT d128), count(DISTINCT did),
         count(DISTINCT cseq), count(DISTINCT gkey), count(DISTINCT idgen.group_uuid_key(gkey)),
         count(DISTINCT n)
  FROM orders}),
	join('|', ($total) x 8),
	'(a)+(d) ids of two servers in server-wide mode, distinct on C: comb, uuidv7, distributed_id128, distributed_id, comb_seq, group_uuid, its key, identity'
);

my $rowsum =
  q{SELECT md5(string_agg(concat_ws(',', id, v7, d128, did, cseq, gkey, gplain, n, made_on), ';' ORDER BY id)) FROM orders};
for my $publisher ([ 'A', $A ], [ 'B', $B ])
{
	my ($name, $node) = @$publisher;
	is( $C->safe_psql('postgres', "$rowsum WHERE made_on = " . $node->port),
		$node->safe_psql('postgres', $rowsum),
		"(a) C stores $name\'s rows exactly as $name made them (no default evaluated again; md5 of all ids)");
}

is( $C->safe_psql(
		'postgres', qq{
  SELECT count(*) FILTER (WHERE made_on = $pA), count(*) FILTER (WHERE made_on = $pB),
         count(*) FILTER (WHERE received_on = $pC), count(DISTINCT received_id)
  FROM orders}),
	"$per_node|$per_node|$total|$total",
	"(a) defaults ran where the INSERT ran (made_on: $per_node A, $per_node B); C's defaults filled only the columns the publishers lack (received_on = C for all, received_id distinct)"
);
is( $C->safe_psql(
		'postgres', qq{
  SELECT count(*) FILTER (WHERE made_on = $pA AND idgen.group_uuid_key(gkey) % 2 = 1),
         count(*) FILTER (WHERE made_on = $pB AND idgen.group_uuid_key(gkey) % 2 = 0),
         count(*) FILTER (WHERE made_on = $pA AND n % 2 = 1),
         count(*) FILTER (WHERE made_on = $pB AND n % 2 = 0)
  FROM orders}),
	join('|', ($per_node) x 4),
	"(a) START k INCREMENT BY 2: A's group keys and identity values are odd, B's even");
is( $C->safe_psql(
		'postgres',
		q{SELECT count(DISTINCT gplain), count(DISTINCT idgen.group_uuid_key(gplain)) FROM orders}),
	"$total|$per_node",
	"(a) contrast, the same plain sequence on A and B: $total distinct ids but only $per_node distinct group keys (each key made twice)"
);
is( $C->safe_psql(
		'postgres', q{
  SELECT count(*) FROM (SELECT idgen.comb_prefix(cseq) FROM orders GROUP BY 1
                        HAVING count(DISTINCT made_on) = 2) s}),
	$per_node / 100,
	'(a) comb_seq from the same sequence values on A and B: the same '
	  . ($per_node / 100)
	  . ' prefixes on both, yet every id distinct (above: random bits, not the sequence, keep them apart)');

my $names_before = $C->safe_psql('postgres', 'SELECT count(idgen.group_name(gkey)) FROM orders');
$C->safe_psql('postgres', q{SELECT idgen.register_group('order')});
is( "$names_before "
	  . $C->safe_psql('postgres',
		q{SELECT count(*) FILTER (WHERE idgen.group_name(gkey) = 'order') FROM orders}),
	"0 $total",
	"(a) the group id travels in the id, the name in each node's registry: C names no id before it registers 'order', all $total after"
);

# The docs' example of disjoint ranges, as printed, on B (node k = 2 of 2) in a database of its own.
$B->safe_psql('postgres', 'CREATE DATABASE docs_example');
is( $B->safe_psql(
		'docs_example', 'CREATE EXTENSION idgen;' . "\n" . doc_block(2) . q{
INSERT INTO orders DEFAULT VALUES;
INSERT INTO orders DEFAULT VALUES;
INSERT INTO orders DEFAULT VALUES;
SELECT string_agg(concat_ws('/', idgen.group_uuid_key(gkey), n, ref), ' ' ORDER BY n) FROM orders;}),
	'2/2/2 4/4/4 6/6/6',
	"(a) docs/scaling-out.md's sequence example runs on node 2: keys, identity and bigserial values 2, 4, 6"
);

# Public ids handed out by A (as the application would: computed at read time, never stored).
my $handed_out = $A->safe_psql('postgres',
	q{SELECT string_agg(format('(%s, %L)', n, idgen.to_alphanumeric(idgen.public_id(n))), ', ' ORDER BY n)
	  FROM (SELECT n FROM orders ORDER BY n LIMIT 300) s});
my $handed = "WITH handed_out (n, public_id) AS (VALUES $handed_out)";
my $decode = qq{$handed
SELECT count(*) FILTER (WHERE idgen.public_id_to_bigint(idgen.alphanumeric_to_uuid(public_id)) = n) FROM handed_out};
is( join(' ',
		$C->safe_psql('postgres', $decode),
		$C->safe_psql(
			'postgres', qq{$handed
SELECT count(*) FROM handed_out h JOIN orders o
   ON o.n = idgen.public_id_to_bigint(idgen.alphanumeric_to_uuid(h.public_id))
  WHERE o.made_on = $pA AND o.n = h.n}),
		$B->safe_psql('postgres', $decode)),
	'300 300 300',
	'(a) 300 public ids made on A decode on C (and find A\'s replicated rows there) and on B: every node has the same key file'
);
$B->safe_psql('postgres',
	q{ALTER SYSTEM SET idgen.public_id_key_file = 'public_id_other.key'; SELECT pg_reload_conf()});
ok($B->poll_query_until('postgres', $decode, '0'),
	'(a) after B switches to another key file, none of A\'s public ids decodes on B (NULL)');

# ---- (c) the ledger, appended on A, replicated to C --------------------------------------------
my $verify = qq{SELECT concat_ws(' ', (v).valid, (v).events, (v).first_invalid)
        FROM (SELECT idgen.ledger_verify(id, event, entities, meta, data ORDER BY id) AS v
              FROM ledger_events WHERE ledger_id = $ledger) s};
my $ids =
  qq{SELECT md5(string_agg(id::text, ',' ORDER BY id)) FROM ledger_events WHERE ledger_id = $ledger};
is( $C->safe_psql('postgres', $ids) . ' ' . $C->safe_psql('postgres', 'SELECT n FROM trigger_calls'),
	$A->safe_psql('postgres', $ids) . ' 0',
	"(c) C holds A's ledger with the same $ledger_rows ids, and its ordinary (ENABLE ORIGIN) triggers, ledger_append among them, fired for none of the replicated rows"
);
is($C->safe_psql('postgres', $verify),
	"t $ledger_rows", "(c) idgen.ledger_verify on the subscriber C: valid, $ledger_rows events");
# append_on($node, $event): one local append to the replicated ledger on that node.
sub append_on
{
	my ($node, $event) = @_;
	$node->safe_psql('postgres',
		qq{INSERT INTO ledger_events (ledger_id, event, entities, data) VALUES ($ledger, '$event', '{}', '{}')}
	);
	return;
}
append_on($C, 'appended on C');
append_on($A, 'appended on A');
$C->poll_query_until('postgres',
	"SELECT count(*) = $ledger_rows + 2 FROM ledger_events WHERE ledger_id = $ledger");
my $forked = $C->safe_psql('postgres', $verify);
is( join(' ',
		$C->safe_psql('postgres', 'SELECT n FROM trigger_calls'),
		(split / /, $A->safe_psql('postgres', $verify))[0],
		(split / /, $forked)[ 0, 1 ]),
	'1 t f ' . ($ledger_rows + 2),
	"(c) one append on C (its triggers fire: a local INSERT), then one on A: A's ledger stays valid, C's is forked (each server's lock only orders its own appenders; C: '$forked')"
);
is( $C->safe_psql(
		'postgres', qq{
  SELECT count(*) FROM ledger_events e
  WHERE ledger_id = $ledger AND event IN ('appended on C', 'appended on A')
    AND idgen.event_id_check(id, event, entities, meta, data,
          (SELECT idgen.max(p.id) FROM ledger_events p
           WHERE p.ledger_id = $ledger AND p.event NOT IN ('appended on C', 'appended on A')))}),
	'2',
	'(c) both appends chain onto the same predecessor, the last event A had sent');

# ENABLE ALWAYS: C's trigger then also fires for replicated rows, which arrive with their ids and
# are checked as imports. One that chains onto C's tail is stored; after another local append on
# C, A's next event no longer chains there and the apply worker stops with the trigger's error.
$C->safe_psql('postgres', 'ALTER TABLE ledger_events ENABLE ALWAYS TRIGGER ledger_append');
my $refusal = qr/does not chain onto its ledger/;
# arrived($event): how many rows of that name C has, after waiting up to 10 s (or until C's log
# shows the trigger's refusal).
sub arrived
{
	my ($event) = @_;
	my $n;
	for (1 .. 100)
	{
		$n = $C->safe_psql('postgres',
			"SELECT count(*) FROM ledger_events WHERE ledger_id = $ledger AND event = '$event'");
		last if $n ne '0' || slurp_file($C->logfile) =~ $refusal;
		sleep 0.1;
	}
	return $n;
}
append_on($A, 'appended on A again');
is(arrived('appended on A again'),
	'1', '(c) with ENABLE ALWAYS TRIGGER on C, a replicated event that chains onto C\'s tail is imported');
append_on($C, 'appended on C again');
append_on($A, 'refused on C');
is( arrived('refused on C') . (slurp_file($C->logfile) =~ $refusal ? ' logged' : ''),
	'0 logged',
	"(c) ... and one that does not (C appended locally meanwhile) stops C's apply worker with 'does not chain onto its ledger' instead of being stored"
);

# ---- (b) postgres_fdw: C coordinates, A and B are shards --------------------------------------
for my $k (1, 2)
{
	my $node = ($A, $B)[ $k - 1 ];
	$node->safe_psql('postgres', 'CREATE DATABASE shard');
	$node->safe_psql(
		'postgres', qq{
-- Ledger events in future years are far ahead of the real clock: allowed here (superuser).
ALTER DATABASE shard SET idgen.ledger_max_lead = -1;});
	$node->safe_psql(
		'shard', qq{
CREATE EXTENSION idgen;
CREATE TABLE orders_shard (
  region  int NOT NULL,
  id      uuid PRIMARY KEY DEFAULT idgen.comb(),
  v7      uuid NOT NULL DEFAULT idgen.uuidv7(),
  made_on int NOT NULL DEFAULT current_setting('port')::int,
  note    text
);
@{[ledger_table('ledgers')]}});
}
# The shards' remote sessions pin their clock (A 2032, B 2033) with their own startup options:
# idgen takes a pin from a session's SET or startup options only, never from a database setting.
my $fdw_servers = join "\n", map {
	my ($server, $node, $db, $year) = @$_;
	"CREATE SERVER $server FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host '"
	  . $node->host
	  . "', port '"
	  . $node->port
	  . "', dbname '$db'"
	  . ($year ? ", options '-c idgen.fixed_clock=$year-01-01T00:00:00+00'" : '')
	  . ");\nCREATE USER MAPPING FOR CURRENT_USER SERVER $server;"
} [ 'shard_a', $A, 'shard', 2032 ], [ 'shard_b', $B, 'shard', 2033 ], [ 'main_a', $A, 'postgres' ],
  [ 'main_b', $B, 'postgres' ];
$C->safe_psql('postgres', 'CREATE DATABASE coord');
$C->safe_psql(
	'coord', qq{
CREATE EXTENSION idgen;
CREATE EXTENSION postgres_fdw;
$fdw_servers
@{[doc_block(1)]}
ALTER FOREIGN TABLE orders_a ALTER made_on SET DEFAULT -1;   -- the partition's own default
-- Leaves id, v7 and made_on out: the shard's defaults fill them.
CREATE FOREIGN TABLE orders_a_lean (region int, note text)
  SERVER shard_a OPTIONS (table_name 'orders_shard');
-- Declares id without a default.
CREATE FOREIGN TABLE orders_a_bare (region int, id uuid, note text)
  SERVER shard_a OPTIONS (table_name 'orders_shard');
CREATE TABLE ledgers (
  ledger_id bigint, id idgen.event_id, event text, entities jsonb, meta jsonb DEFAULT '{}', data jsonb
) PARTITION BY HASH (ledger_id);
CREATE FOREIGN TABLE ledgers_a PARTITION OF ledgers FOR VALUES WITH (MODULUS 2, REMAINDER 0)
  SERVER shard_a OPTIONS (table_name 'ledgers');
CREATE FOREIGN TABLE ledgers_b PARTITION OF ledgers FOR VALUES WITH (MODULUS 2, REMAINDER 1)
  SERVER shard_b OPTIONS (table_name 'ledgers');
CREATE FOREIGN TABLE burst_a (v7 uuid, d128 uuid) SERVER main_a OPTIONS (table_name 'burst');
CREATE FOREIGN TABLE burst_b (v7 uuid, d128 uuid) SERVER main_b OPTIONS (table_name 'burst');});

# One coordinator session, its clock pinned to 2031 (A's shard sessions say 2032, B's 2033).
$C->safe_psql(
	'coord', qq{
SET idgen.fixed_clock = '2031-01-01 00:00:00+00';
INSERT INTO orders (region, note) SELECT 1 + g % 2, 'parent' FROM generate_series(1, 200) g;
COPY orders (region, note) FROM STDIN;
1\tparent
2\tparent
\\.
INSERT INTO orders_a (region, note) VALUES (1, 'partition');
INSERT INTO orders_a_lean (region, note) VALUES (1, 'lean');});
# Per shard and way in: rows, made_on, years of the uuidv7 time, rows whose COMB prefix is the
# prefix of that second.
my $placed = q{SELECT string_agg(concat_ws(':', note, n, ports, stamps, combs), ' ' ORDER BY note) FROM (
  SELECT note, count(*) AS n, string_agg(DISTINCT made_on::text, '/') AS ports,
         string_agg(DISTINCT extract(year FROM date_trunc('second', idgen.uuid_timestamp(v7)) AT TIME ZONE 'UTC')::text, '/') AS stamps,
         count(*) FILTER (WHERE idgen.comb_prefix(id) = idgen.comb_prefix_at(date_trunc('second', idgen.uuid_timestamp(v7)))) AS combs
  FROM orders_shard GROUP BY note) s};
is( $A->safe_psql('shard', $placed) . ' | ' . $B->safe_psql('shard', $placed),
	"lean:1:$pA:2032:1 parent:101:$pC:2031:101 partition:1:-1:2031:1 | parent:101:$pC:2031:101",
	"(b) INSERT and COPY through the partitioned parent: the coordinator's defaults, in the coordinator session (made_on $pC, its pinned 2031 in uuidv7 and COMB); into the foreign partition: that table's own defaults, still local (made_on -1, 2031); a foreign table without the columns: the shard's defaults (A: made_on $pA, its remote session's 2032)"
);
my (undef, undef, $bare) = $C->psql('coord',
	q{INSERT INTO orders_a_bare (region, note) VALUES (1, 'bare')},
	extra_params => [ '-v', 'VERBOSITY=verbose' ]);
like(
	$bare,
	qr/23502.*null value in column "id".*remote SQL command: INSERT INTO public\.orders_shard\(region, id, note\)/s,
	'(b) a foreign table that declares id without a default sends NULL: the shard\'s default is not used (23502 from the remote INSERT)'
);
my (undef, undef, $unique) = $C->psql('coord', 'CREATE UNIQUE INDEX ON orders (id)');
like(
	$unique,
	qr/cannot create unique index on partitioned table "orders".*contains partitions that are foreign tables/s,
	'(b) no unique index spans foreign partitions: uniqueness across shards rests on the generator');

# Ledgers hash-partitioned by ledger_id: the genesis is computed on the coordinator (the
# partition key must exist before routing), imported by the shard's trigger; appends get their
# ids from the shard's trigger, with the shard's clock, under the shard's lock.
my ($ledger_x, $ledger_y) = split / /, $C->safe_psql(
	'coord', q{
SET idgen.fixed_clock = '2031-01-01 00:00:00+00';
WITH g AS (
  SELECT name, l.ledger_id, l.event_id,
         satisfies_hash_partition('ledgers'::regclass, 2, 0, l.ledger_id) AS on_a
  FROM (SELECT 'ledger ' || i AS name FROM generate_series(1, 20) i) n,
       idgen.ledger_genesis(name, 'sharded over postgres_fdw',
                            (extract(epoch FROM timestamptz '2031-01-01 00:00:00+00') * 1000000)::bigint) l),
     one_per_shard AS (SELECT DISTINCT ON (on_a) * FROM g ORDER BY on_a DESC, name),
     created AS (
       INSERT INTO ledgers (ledger_id, id, event, entities, meta, data)
       SELECT ledger_id, event_id, convert_from('\xf09f9392f09283bb'::bytea, 'UTF8'), '{}',
              '{"notes": "Ledger established by Evently"}',
              jsonb_build_object('name', name, 'description', 'sharded over postgres_fdw')
       FROM one_per_shard
       RETURNING ledger_id)
SELECT string_agg(ledger_id::text, ' ') FROM created;});
$C->safe_psql(
	'coord', qq{INSERT INTO ledgers (ledger_id, event, entities, data)
                 SELECT l, 'appended', '{}', jsonb_build_object('i', i)
                 FROM unnest(ARRAY[@{[$ledger_x // 0]}, @{[$ledger_y // 0]}]::bigint[]) l, generate_series(1, 50) i});
my $shard_view = q{SELECT string_agg(concat_ws(':', (v).valid, (v).events, stamps), ' ') FROM (
  SELECT idgen.ledger_verify(id, event, entities, meta, data ORDER BY id) AS v,
         string_agg(DISTINCT extract(year FROM idgen.event_id_timestamp(id) AT TIME ZONE 'UTC')::text, '/') AS stamps
  FROM ledgers GROUP BY ledger_id) s};
my $coord_view = q{SELECT string_agg(concat_ws(':', (v).valid, (v).events), ' ') FROM (
  SELECT idgen.ledger_verify(id, event, entities, meta, data ORDER BY id) AS v
  FROM ledgers GROUP BY ledger_id) s};
is( join(' ',
		$A->safe_psql('shard', $shard_view),
		$B->safe_psql('shard', $shard_view),
		'|', $C->safe_psql('coord', $coord_view)),
	't:51:2031/2032 t:51:2031/2033 | t:51 t:51',
	"(b) one ledger per shard, genesis imported from the coordinator (2031), 50 appends each through the coordinator: ids made by the shard's trigger with the shard's clock (A 2032, B 2033); valid on the shards and read through the coordinator"
);

# The docs' genesis import, as printed, through the coordinator (real clock): it lands on the
# shard its ledger id hashes to, which imports it as a valid genesis.
my $imported = $C->safe_psql('coord', doc_block(3)) || 0;
is( $C->safe_psql(
		'coord', qq{
  SELECT (SELECT count(*) FROM ledgers_a WHERE ledger_id = $imported) +
         (SELECT count(*) FROM ledgers_b WHERE ledger_id = $imported),
         (SELECT count(*) FROM ledgers WHERE ledger_id = $imported),
         (SELECT (idgen.ledger_verify(id, event, entities, meta, data ORDER BY id)).valid
          FROM ledgers WHERE ledger_id = $imported)}),
	'1|1|t',
	"(b) docs/scaling-out.md's genesis import runs through the coordinator: one row, on the shard its ledger id routes to, a valid ledger"
);

# ledger_create through the parent: it computes the genesis in the calling session (the
# coordinator, clock pinned to 2031) and inserts the row with its ledger_id and id, so the row is
# routed to the shard its ledger id hashes to, whose trigger accepts it as an imported genesis.
# Pick a name whose ledger id belongs to shard B (remainder 1).
is( words(
		$C->safe_psql(
			'coord', q{
SET idgen.fixed_clock = '2031-01-01 00:00:00+00';
SELECT name AS name, ledger_id AS predicted
FROM (SELECT 'created through the parent ' || i AS name FROM generate_series(1, 20) i) n,
     idgen.ledger_genesis(name, 'x', (extract(epoch FROM timestamptz '2031-01-01 00:00:00+00') * 1000000)::bigint) g
WHERE satisfies_hash_partition('ledgers'::regclass, 2, 1, g.ledger_id)
ORDER BY name LIMIT 1 \gset
SELECT idgen.ledger_create('ledgers', :'name', 'x') = :predicted,
       (SELECT count(*) FROM ledgers_b WHERE ledger_id = :predicted),
       (SELECT count(*) FROM ledgers_a WHERE ledger_id = :predicted);
INSERT INTO ledgers (ledger_id, event, entities, data) VALUES (:predicted, 'appended', '{}', '{}');
SELECT (idgen.ledger_verify(id, event, entities, meta, data ORDER BY id)).* FROM ledgers
WHERE ledger_id = :predicted;})),
	't 1 0 t 2',
	'(b) idgen.ledger_create through the parent: the genesis carries its ledger id, lands on the shard that id routes to (B), and an append through the parent chains onto it'
);

# ---- (d) server-wide mode on two servers -----------------------------------------------------
my $burst =
  'INSERT INTO burst SELECT idgen.uuidv7(), idgen.distributed_id128() FROM generate_series(1, 50000)';
my $burst_failures =
  run_concurrently_on([ map { [ $_, 'postgres', $burst ] } $A, $A, $B, $B ]);
my ($b_rows, $b_v7, $b_d128, $b_runs) = split /\|/, $C->safe_psql(
	'coord', q{
  SELECT count(*), count(DISTINCT v7), count(DISTINCT d128),
         count(*) FILTER (WHERE node IS DISTINCT FROM prev)
  FROM (SELECT v7, d128, node, lag(node) OVER (ORDER BY v7) AS prev
        FROM (SELECT v7, d128, 'A' AS node FROM burst_a UNION ALL
              SELECT v7, d128, 'B' FROM burst_b) u) s});
ok( $burst_failures == 0 && "$b_rows $b_v7 $b_d128" eq '200000 200000 200000' && $b_runs > 2,
	"(d) 2 sessions on A and 2 on B at once, 50 000 uuidv7 and distributed_id128 each: 200 000 distinct of each ($b_rows rows, $b_v7 and $b_d128 distinct), the two servers' ids interleaved in time ($b_runs runs)"
);

# A burst of 110 000 DistributedIds borrows most of the 1 s leeway; the server-wide state of A
# keeps a new session above it, B's own state (or a new backend of C) starts below it.
sub after_burst    # after_burst($burst node, $other node): "<other id> > <burst max>"
{
	my ($on, $other) = @_;
	my $top = $on->safe_psql('postgres',
		'SELECT max(x) FROM (SELECT idgen.distributed_id() x FROM generate_series(1, 110000)) s');
	return $other->safe_psql('postgres', "SELECT idgen.distributed_id() > $top");
}
is( join(' ', after_burst($A, $A), after_burst($A, $B), after_burst($C, $C)),
	't f f',
	'(d) after a burst of 110 000 distributed_id() on A: a new session on A continues above it (one state per server), a new session on B starts below it (no state across servers); in backend scope (C) a new session also starts below'
);

done_testing();
