# idgen-test: majors=all tier=quick
# Dump and restore, as a DBA does it, of a database that uses every idgen type and domain
# (test/fixtures/app_database.sql). It is dumped with pg_dump -Fc and restored with pg_restore,
# serially and with -j 2, and dumped as plain SQL and restored with psql, each into a fresh
# database on a second server. Checked: no error or warning, everything of the snapshot identical
# (rows, registry, indexes, defaults, constraints), the registry not doubled, indexes valid and
# chosen by the planner, ledgers verifying, defaults, triggers and CHECKs working afterwards. The
# tables keyed by idgen.ulid and idgen.typeid (a TypeID prefix CHECK, a foreign key, a hash and a
# btree secondary index, a table hash-partitioned by its ULID) come back with every row's text,
# each row in the same partition, their indexes answering lookups by literal text, and their
# defaults generating.
# Also what can break, and how to get past it: a CHECK (comb_valid(id)) against now() fails the
# restore (docs/comb.md); a restore into a database that already has idgen; a data-only restore
# into a schema whose ledger_append trigger exists replays the rows through the trigger in heap
# order, which is not always chain order (--disable-triggers is the fix).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time sleep);
use IdgenTest::AppDatabase qw(create_app_database app_snapshot run_client error_of words);

my $source = PostgreSQL::Test::Cluster->new('source');
my $target = PostgreSQL::Test::Cluster->new('target');
for my $node ($source, $target)
{
	$node->init;
	$node->start;
}
my $dir = PostgreSQL::Test::Utils::tempdir;

# The CHECK hazard of docs/comb.md, at a scale the test can wait for: a CHECK against now() with
# a 1 s tolerance on millisecond COMBs. Made first, so that its rows are over 1 s old when the
# dump is restored later.
$source->safe_psql('postgres', 'CREATE DATABASE hazard');
$source->safe_psql(
	'hazard', q{
CREATE EXTENSION idgen;
CREATE TABLE tight (
  id uuid PRIMARY KEY DEFAULT idgen.comb('1 millisecond', 4)
     CHECK (idgen.comb_valid(id, tolerance => '1 second', interval_length => '1 millisecond', prefix_bytes => 4)),
  n int NOT NULL);
INSERT INTO tight (n) SELECT generate_series(1, 5);});
my $hazard_made = time;

create_app_database($source, 'app');
my $snapshot = app_snapshot($source, 'app');
my $registry_sql = q{SELECT string_agg(format('%s=%s:%s', name, group_id, coalesce(target::text, '-')), ' ' ORDER BY name) FROM idgen.groups};
my $source_registry = $source->safe_psql('app', $registry_sql);
like($snapshot, qr/^rows users 31 .*^rows sessions 32 .*^rows visits 72 .*^rows visits_3 \d+ .*^rows session_codes 32 /ms,
	'the snapshot covers the ULID and TypeID tables, each partition of visits on its own, and the view decoding them');

# Lookups by literal text on the ULID and TypeID columns, each through its index: which index
# (and which partition of visits) answers, and how many rows (test/fixtures/app_lookups.sql).
my $lookups_sql = slurp_file('test/fixtures/app_lookups.sql');
sub id_types_lookups
{
	my ($node, $db) = @_;
	my @found = $node->safe_psql($db, $lookups_sql) =~ /Index Scan using (\S+)|(rows \d+(?: in \S+)?)/g;
	return join ', ', grep { defined } @found;
}
my $source_lookups = id_types_lookups($source, 'app');
like(
	$source_lookups,
	qr/^sessions_pkey, rows 1, users_pkey, rows 1, sessions_user_hash, rows 2, (visits_\d)_pkey, rows 1 in \1, (?:visits_\d_user_id_idx, ){4}rows 42$/,
	"source: lookups by a ULID and a TypeID literal use the primary keys, the hash index and one partition's key ($source_lookups)"
);

# Dumps: custom format (restored serially and in parallel) and plain SQL.
my (undef, undef, $dump_err) = run_client($source, 'pg_dump', '-Fc', '-f', "$dir/app.dump", 'app');
my (undef, undef, $plain_err) = run_client($source, 'pg_dump', '-Fp', '-f', "$dir/app.sql", 'app');
ok(-s "$dir/app.dump" && -s "$dir/app.sql" && $dump_err . $plain_err eq '',
	'pg_dump -Fc and pg_dump -Fp of app: no error, no warning')
  or diag($dump_err . $plain_err);

# The order pg_restore follows: the ledger's rows and the CHECK-constrained rows are loaded
# before the triggers are created (pre-data, data, post-data).
my (undef, $toc) = run_client($source, 'pg_restore', '-l', "$dir/app.dump");
my @toc = split /\n/, $toc;
sub toc_position
{
	my ($pattern) = @_;
	my ($position) = grep { $toc[$_] =~ $pattern } 0 .. $#toc;
	return $position // -1;
}
my $ledger_data = toc_position(qr/ TABLE DATA public ledger_events /);
my $ledger_trigger = toc_position(qr/ TRIGGER public ledger_events ledger_append /);
my $checked_data = toc_position(qr/ TABLE DATA public orders_checked /);
my $checked_trigger = toc_position(qr/ TRIGGER public orders_checked orders_check_id /);
my $registry_data = toc_position(qr/ TABLE DATA idgen_internal groups /);
my $refresh = toc_position(qr/ MATERIALIZED VIEW DATA public person_routes /);
ok( $ledger_data >= 0
	  && $ledger_data < $ledger_trigger
	  && $checked_data < $checked_trigger
	  && $registry_data < $refresh,
	"dump order: ledger_events data ($ledger_data) before its ledger_append trigger ($ledger_trigger), "
	  . "orders_checked data ($checked_data) before orders_check_id ($checked_trigger), the registry's (idgen_internal.groups) "
	  . "rows ($registry_data) before the refresh of person_routes ($refresh)");
like(
	slurp_file("$dir/app.sql"),
	qr/^CREATE TABLE public\.orders \((?:(?!^\);).)*CONSTRAINT orders_id_is_a_comb_of_its_time CHECK/ms,
	'plain dump: the CHECK constraints are inside CREATE TABLE, evaluated for every restored row');

my %restore = (
	custom => [ 'pg_restore', "$dir/app.dump" ],
	parallel => [ 'pg_restore', '-j', '2', "$dir/app.dump" ],
	plain => [ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-f', "$dir/app.sql" ]);
my %label = (custom => 'pg_restore', parallel => 'pg_restore -j 2', plain => 'psql -f (plain dump)');
for my $mode (qw(custom parallel plain))
{
	my $db = "restored_$mode";
	$target->safe_psql('postgres', "CREATE DATABASE $db");
	my ($program, @arguments) = @{ $restore{$mode} };
	my ($ok, undef, $err) = run_client($target, $program, '-d', $db, @arguments);
	ok($ok && $err eq '', "$label{$mode} into $db on the second server: no error, no warning")
	  or diag($err);

	is(app_snapshot($target, $db), $snapshot,
		"$db: every relation's rows (md5 of the ordered rows), the registry, indexes, defaults and constraints are the source's"
	);
	is($target->safe_psql($db, $registry_sql),
		$source_registry, "$db: the group registry restored identically, once ($source_registry)");
	is( $target->safe_psql(
			$db, q{SELECT string_agg(concat_ws(' ', n, t, c), ', ' ORDER BY n) FROM (
         SELECT idgen.group_name(id) n, idgen.group_target(id)::text t, count(*) c FROM person GROUP BY 1, 2
         UNION ALL SELECT idgen.group_name(id), idgen.group_target(id)::text, count(*) FROM building GROUP BY 1, 2) s}
		),
		'building building 5, person person 21',
		"$db: group_name / group_target resolve the restored ids (person 21, building 5)");
	is( $target->safe_psql(
			$db, q{SELECT count(*) FILTER (WHERE NOT (indisvalid AND indisready AND indislive)) || ' of ' || count(*)
			FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace
			WHERE n.nspname IN ('public', 'idgen', 'idgen_internal')}),
		'0 of 32',
		"$db: every index valid and ready (the partitioned ones too, their partitions' indexes attached)");
	is(id_types_lookups($target, $db), $source_lookups,
		"$db: lookups by a ULID and a TypeID literal go through the same indexes and partition as on the source and find the rows"
	);

	# Each event_id index on its own: the hash index with the btree one dropped in a rolled-back
	# transaction (equality), the btree one for ORDER BY; and the expression index.
	my $plans = $target->safe_psql(
		$db, q{
SELECT max(id::text) AS probe FROM ledger_events \gset
BEGIN;
SET LOCAL enable_seqscan = off;
SET LOCAL enable_bitmapscan = off;
DROP INDEX ledger_events_id_btree;
EXPLAIN (COSTS OFF) SELECT * FROM ledger_events WHERE id OPERATOR(idgen.=) :'probe'::idgen.event_id;
SELECT 'hash lookup rows: ' || count(*) FROM ledger_events WHERE id OPERATOR(idgen.=) :'probe'::idgen.event_id;
ROLLBACK;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM ledger_events ORDER BY id DESC LIMIT 1;
EXPLAIN (COSTS OFF) SELECT * FROM person WHERE idgen.group_key_text(id) = '3';});
	my @used = $plans =~
	  /using (ledger_events_id_hash|ledger_events_id_btree|person_friendly_key)|(hash lookup rows: \d+)/g;
	is( join(',', grep { defined } @used),
		'ledger_events_id_hash,hash lookup rows: 1,ledger_events_id_btree,person_friendly_key',
		"$db: the planner uses the hash index on event_id (which finds the row), the btree index for ORDER BY id, and the expression index"
	);
	is( $target->safe_psql(
			$db,
			q{SELECT string_agg(concat_ws(' ', valid, events, first_invalid), ', ' ORDER BY ledger_id) FROM ledger_status}
		),
		't 31, t 31',
		"$db: both ledgers verify after the restore (valid, events, first_invalid)");

	# After the restore the defaults, sequences, triggers and CHECKs carry on.
	my $after = $target->safe_psql(
		$db, q{
INSERT INTO person (name) VALUES ('after restore');
INSERT INTO building (name) VALUES ('after restore');
INSERT INTO orders (customer) VALUES ('after restore');
INSERT INTO orders_checked (id, customer) VALUES (idgen.comb(), 'after restore');
INSERT INTO tickets (title) VALUES ('after restore');
INSERT INTO events_v7 (payload) VALUES ('after restore');
INSERT INTO shipments DEFAULT VALUES;
INSERT INTO invoices (amount) VALUES (1);
INSERT INTO accounts (name) VALUES ('after restore');
INSERT INTO ledger_events (ledger_id, event, entities, data)
  SELECT ledger_id, 'after-restore', '{}', '{}' FROM ledgers;
SELECT idgen.group_key_text(id), idgen.group_name(id) FROM person WHERE name = 'after restore';
SELECT idgen.group_key_text(id), idgen.group_uuid_group(id), idgen.uuid_version(id) FROM building WHERE name = 'after restore';
SELECT idgen.comb_valid(id) FROM orders WHERE customer = 'after restore';
SELECT idgen.comb_prefix(id) FROM tickets WHERE title = 'after restore';
SELECT (SELECT max(made_at) FROM events_v7 WHERE payload <> 'after restore') < made_at FROM events_v7 WHERE payload = 'after restore';
SELECT count(*) FROM shipments;
SELECT idgen.public_id_to_numeric(public_id, app_public_key()) = id, id > (SELECT max(id) FROM invoices i2 WHERE i2.amount > 1) FROM invoices WHERE amount = 1;
SELECT id, idgen.public_id_to_bigint(idgen.alphanumeric_to_uuid(public_code), app_public_key()) FROM accounts WHERE name = 'after restore';
SELECT string_agg(concat_ws(' ', valid, events), ', ' ORDER BY ledger_id) FROM ledger_status;
SELECT idgen.group_uuid_group(idgen.group_uuid('Person', 1));});
	is(words($after), '15 person 6 2884 6 t 10 t 21 t t 11 11 t 32, t 32 7',
		"$db: after the restore every DEFAULT generates and continues (group keys 15 (21 in hex) and 6 of version 6, comb valid, comb_seq prefix 10, later v7, DistributedId, identity), both ledgers append and verify, and 'Person' generates with its registered id 7"
	);

	# The ULID and TypeID defaults generate, later than the generated rows restored; a new visit is
	# found by its literal text through partition pruning (routing and pruning agree); the prefix
	# CHECK and the foreign key on the TypeID hold.
	my $id_types_after = $target->safe_psql(
		$db, q{
INSERT INTO users (name) VALUES ('after restore');
INSERT INTO sessions (user_id, label) SELECT id, 'after restore' FROM users WHERE name = 'after restore';
INSERT INTO visits (user_id, page) SELECT id, '/after-restore' FROM users WHERE name = 'after restore';
SELECT idgen.typeid_prefix(id), id > ALL (SELECT id FROM users WHERE name ~ '^u[0-9]+$') FROM users WHERE name = 'after restore';
SELECT id > (SELECT max(id) FROM sessions WHERE label <> 'after restore'), user_id = (SELECT id FROM users WHERE name = 'after restore')
FROM sessions WHERE label = 'after restore';
SELECT id AS new_visit FROM visits WHERE page = '/after-restore' \gset
SELECT :'new_visit'::idgen.ulid > (SELECT max(id) FROM visits WHERE page = '/generated');
SET enable_seqscan = off;
SELECT count(*) FROM visits WHERE id = :'new_visit';
SELECT count(*) FROM users;});
	is(words($id_types_after), 'user t t t t 1 32',
		"$db: after the restore idgen.new_typeid('user') and idgen.ulid() defaults generate ids above the restored generated ones, and a new visit routed by its ULID is found by its text"
	);
	like(
		error_of(
			$target, $db, q{INSERT INTO users (id, name) VALUES (idgen.new_typeid('post'), 'wrong prefix')}),
		qr/^23514: new row for relation "users" violates check constraint "users_id_is_a_user"/,
		"$db: the restored CHECK (idgen.typeid_prefix(id) = 'user') refuses a TypeID of another prefix");
	like(
		error_of(
			$target, $db,
			q{INSERT INTO sessions (user_id, label) VALUES ('user_01h455vb4pex5vsknk084sn02r', 'no such user')}),
		qr/^23503: insert or update on table "sessions" violates foreign key constraint "sessions_user_id_fkey"/,
		"$db: the restored foreign key on the TypeID column refuses an unknown user");

	# The BEFORE INSERT trigger of docs/comb.md is back and refuses an id made 3 days ago.
	like(
		error_of(
			$target, $db,
			q{INSERT INTO orders_checked VALUES (idgen.comb_at(now() - interval '3 days'), 'late')}),
		qr/^22023: COMB check failed: prefix outside the tolerance/,
		"$db: the restored orders_check_id trigger refuses an old id again (the 5 old rows were loaded before it existed)"
	);
}

# Restoring into a database that already has idgen (a template with it installed): the restore's
# CREATE SCHEMA idgen fails harmlessly (CREATE EXTENSION made the schema, so the dump creates it
# itself), and the registry rows are added to what is there, so a group registered on both sides
# collides (restore into a database made from template0).
$target->safe_psql('postgres', 'CREATE DATABASE preinstalled_empty');
$target->safe_psql('postgres', 'CREATE DATABASE preinstalled_person');
$target->safe_psql('preinstalled_empty', 'CREATE EXTENSION idgen');
$target->safe_psql('preinstalled_person',
	"CREATE EXTENSION idgen; SELECT idgen.register_group('person')");
my ($restored, undef, $err) =
  run_client($target, 'pg_restore', '-d', 'preinstalled_empty', "$dir/app.dump");
is(join(' ', $err =~ /(ERROR: .*)/g), 'ERROR:  schema "idgen" already exists',
	'pg_restore into a database where idgen is already installed (empty registry): exactly one, harmless error, the dump\'s own CREATE SCHEMA idgen'
);
is(app_snapshot($target, 'preinstalled_empty'),
	$snapshot, 'that restore still has every relation and the registry identical to the source');
($restored, undef, $err) =
  run_client($target, 'pg_restore', '-d', 'preinstalled_person', "$dir/app.dump");
my ($collision) = $err =~ /(COPY failed for table "groups": ERROR: +duplicate key value violates unique constraint "\w+")/;
is( ($collision // $err) . ' / ' . $target->safe_psql('preinstalled_person', $registry_sql),
	'COPY failed for table "groups": ERROR:  duplicate key value violates unique constraint "groups_pkey" / person=672:-',
	"pg_restore into a database whose registry already has 'person': the registry's COPY fails on the duplicate, leaving only the pre-existing row"
);

# ---- the CHECK hazard: comb_valid against now() fails the restore of older rows ---------------
my $wait = 1.5 - (time - $hazard_made);
sleep($wait) if $wait > 0;
run_client($source, 'pg_dump', '-Fc', '-f', "$dir/hazard.dump", 'hazard');
$target->safe_psql('postgres', 'CREATE DATABASE hazard');
($restored, undef, $err) = run_client($target, 'pg_restore', '-d', 'hazard', "$dir/hazard.dump");
ok( !$restored
	  && $err =~ /violates check constraint "tight_id_check"/
	  && $target->safe_psql('hazard', 'SELECT count(*) FROM tight') eq '0',
	'documented hazard (docs/comb.md): CHECK (idgen.comb_valid(id)) against now(), here with a 1 s tolerance, makes pg_restore fail for rows older than the tolerance (the table restored empty)'
) or diag($err);
# Recovering such a dump: restore the schema, drop the CHECK, load the data, then add the CHECK
# back NOT VALID (new rows are checked, old ones are not).
$target->safe_psql('postgres', 'CREATE DATABASE hazard_fixed');
my ($pre) = run_client($target, 'pg_restore', '-d', 'hazard_fixed', '--section=pre-data',
	"$dir/hazard.dump");
$target->safe_psql('hazard_fixed', 'ALTER TABLE tight DROP CONSTRAINT tight_id_check');
my ($rest) = run_client($target, 'pg_restore', '-d', 'hazard_fixed', '--section=data',
	'--section=post-data', "$dir/hazard.dump");
is( $pre && $rest && $target->safe_psql(
		'hazard_fixed', q{
ALTER TABLE tight ADD CONSTRAINT tight_id_check CHECK (idgen.comb_valid(id, tolerance => '1 second', interval_length => '1 millisecond', prefix_bytes => 4)) NOT VALID;
INSERT INTO tight (n) VALUES (6);
SELECT count(*) FROM tight}),
	'6',
	'such a dump restores with --section=pre-data, DROP CONSTRAINT, --section=data --section=post-data, then ADD CONSTRAINT ... NOT VALID (5 old rows kept, a new row checked and accepted)'
);

# ---- ledgers: full restore vs data-only restore into a schema that has the trigger ------------
# COPY writes rows in heap order. An UPDATE of a ledger row (here of a column outside the
# checksum) moves it to the end of the heap, so heap order is no longer chain order.
$source->safe_psql('postgres', 'CREATE DATABASE ledger_copy');
$source->safe_psql(
	'ledger_copy', q{
CREATE EXTENSION idgen;
CREATE TABLE ledger_events (
  ledger_id bigint NOT NULL, id idgen.event_id NOT NULL, event text NOT NULL,
  entities jsonb NOT NULL, meta jsonb NOT NULL DEFAULT '{}', data jsonb NOT NULL,
  note text,
  PRIMARY KEY (ledger_id, id));
CREATE TRIGGER ledger_append BEFORE INSERT ON ledger_events
  FOR EACH ROW EXECUTE FUNCTION idgen.ledger_append();
SELECT idgen.ledger_create('ledger_events', 'copied', 'a ledger to copy');
INSERT INTO ledger_events (ledger_id, event, entities, data)
  SELECT ledger_id, 'e', '{}', jsonb_build_object('n', g) FROM ledger_events, generate_series(1, 20) g;});
run_client($source, 'pg_dump', '-Fc', '-f', "$dir/ledger_in_order.dump", 'ledger_copy');
my $heap_order = q{SELECT string_agg(event, ',') FROM (SELECT event FROM ledger_events) s};
my $before_update = substr($source->safe_psql('ledger_copy', $heap_order), 0, 40);
$source->safe_psql('ledger_copy',
	q{UPDATE ledger_events SET note = 'reviewed' WHERE event = '📒𒃻'});
note("heap order of ledger_copy before the UPDATE: $before_update..., after: "
	  . substr($source->safe_psql('ledger_copy', $heap_order), 0, 40) . '...');
run_client($source, 'pg_dump', '-Fc', '-f', "$dir/ledger_moved.dump", 'ledger_copy');

my $verify =
  q{SELECT concat_ws(' ', (v).valid, (v).events) FROM (SELECT idgen.ledger_verify(id, event, entities, meta, data ORDER BY id) v FROM ledger_events) s};
for my $dump (qw(in_order moved))
{
	my $db = "ledger_full_$dump";
	$target->safe_psql('postgres', "CREATE DATABASE $db");
	my ($ok, undef, $error) = run_client($target, 'pg_restore', '-d', $db, "$dir/ledger_$dump.dump");
	is( $ok ? $target->safe_psql($db, $verify) : $error,
		't 21',
		'ledger dumped '
		  . ($dump eq 'moved' ? 'after an UPDATE moved the genesis to the end of the heap' : 'in append order')
		  . ': a full pg_restore loads the rows before creating the trigger and the ledger verifies');
}

# data_only($db, $dump, @options): the schema (with the trigger) first, then the data.
sub data_only
{
	my ($db, $dump, @options) = @_;
	$target->safe_psql('postgres', "CREATE DATABASE $db");
	my ($schema, undef, $schema_err) =
	  run_client($target, 'pg_restore', '-d', $db, '--schema-only', $dump);
	return (0, $schema_err) unless $schema;
	my ($data, undef, $data_err) =
	  run_client($target, 'pg_restore', '-d', $db, '--data-only', @options, $dump);
	return ($data, $data_err);
}
my ($loaded, $load_err) = data_only('ledger_data_in_order', "$dir/ledger_in_order.dump");
is( $loaded ? $target->safe_psql('ledger_data_in_order', $verify) : $load_err,
	't 21',
	'data-only pg_restore into a schema with the ledger_append trigger, rows in append order: the trigger imports each row (it chains) and the ledger verifies'
);
($loaded, $load_err) = data_only('ledger_data_moved', "$dir/ledger_moved.dump");
my ($reason) = $load_err =~ /(ERROR: .*)/;
ok( !$loaded
	  && defined $reason
	  && $target->safe_psql('ledger_data_moved', 'SELECT count(*) FROM ledger_events') eq '0',
	'data-only pg_restore with the trigger, rows not in chain order: the trigger refuses the first row COPY sends, an event before its genesis ('
	  . ($reason // 'no error') . '), so the COPY fails and nothing is loaded');
($loaded, $load_err) =
  data_only('ledger_data_disabled', "$dir/ledger_moved.dump", '--disable-triggers');
is( $loaded
	? $target->safe_psql('ledger_data_disabled', $verify) . ' / ' . $target->safe_psql(
		'ledger_data_disabled', q{
INSERT INTO ledger_events (ledger_id, event, entities, data) SELECT DISTINCT ledger_id, 'after', '{}'::jsonb, '{}'::jsonb FROM ledger_events;
} . $verify)
	: $load_err,
	't 21 / t 22',
	'the fix: data-only pg_restore --disable-triggers (as superuser) loads the same rows, the ledger verifies, and the re-enabled trigger appends onto it'
);

done_testing();
