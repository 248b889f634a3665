# idgen-test: majors=18,19 tier=full
# docs/migrating.md's path from PostgreSQL's own uuidv7() (18 and later, hence the majors) to
# idgen.uuidv7(), run as the page prints it, on a schema with foreign keys, CHECKs, an index and a
# view that reads the ids' time with PostgreSQL's uuid_extract_timestamp. Checked: every row, key
# and reference kept; the view reads old and new ids, at the time idgen reads too; new ids unique,
# after every old id, in the order they were made in each session; a plain sequence next to them
# repeats nothing.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest::Migrating qw(migration_blocks);

my ($switch) = migration_blocks('core-uuidv7');
ok(defined $switch, 'docs/migrating.md has the block of the PostgreSQL 18 path');

my $node = PostgreSQL::Test::Cluster->new('core_uuidv7');
$node->init;
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'idgen'");
$node->start;
$node->safe_psql('postgres', 'CREATE DATABASE app');
$node->safe_psql('app', q{
	CREATE EXTENSION idgen;
	CREATE TABLE devices (id serial PRIMARY KEY, name text NOT NULL UNIQUE);
	CREATE TABLE events (
	  id uuid PRIMARY KEY DEFAULT uuidv7(),
	  device_id integer NOT NULL REFERENCES devices,
	  reading numeric NOT NULL CHECK (reading BETWEEN -50 AND 150),
	  made_by text NOT NULL DEFAULT 'core',
	  n bigserial UNIQUE);
	CREATE INDEX events_device ON events (device_id);
	CREATE TABLE alerts (id bigserial PRIMARY KEY, event_id uuid NOT NULL REFERENCES events ON DELETE CASCADE);
	CREATE VIEW event_times AS SELECT id, uuid_extract_timestamp(id) AS made FROM events;
	INSERT INTO devices (name) SELECT 'device ' || i FROM generate_series(1, 50) i;
	INSERT INTO events (device_id, reading) SELECT 1 + i % 50, i % 100 FROM generate_series(1, 20000) i;
	INSERT INTO alerts (event_id) SELECT id FROM events WHERE reading > 95;
});
my %before = (
	events => $node->safe_psql('app', q{SELECT md5(string_agg(format('%s/%s/%s', id, device_id, reading), ',' ORDER BY id)) FROM events}),
	alerts => $node->safe_psql('app', 'SELECT max(id) FROM alerts'),
	last => $node->safe_psql('app', q{SELECT id FROM events ORDER BY id DESC LIMIT 1}));

my ($ret, $out, $err) = $node->psql('app', $switch, on_error_stop => 1);
is($ret, 0, "the page's step runs as printed") or diag($err);

# Two sessions at once, then one more statement.
my %sessions = map { $_ => $node->background_psql('app') } qw(a b);
for my $label (sort keys %sessions)
{
	$sessions{$label}->query_until(qr/started/, qq{
		\\echo started
		INSERT INTO events (device_id, reading, made_by) SELECT 1 + i % 50, 20, 'idgen $label' FROM generate_series(1, 10000) i;
	});
}
$_->quit for values %sessions;
$node->safe_psql('app', q{
	INSERT INTO events (device_id, reading, made_by) SELECT 1 + i % 50, 20, 'idgen c' FROM generate_series(1, 5000) i;
	INSERT INTO alerts (event_id) SELECT id FROM events WHERE made_by LIKE 'idgen%' AND device_id = 7;});
is($node->safe_psql('app', qq{
	SELECT count(*) FILTER (WHERE idgen.uuid_version(id) <> 7), count(DISTINCT id), count(*) FILTER (WHERE id <= '$before{last}')
	FROM events WHERE made_by LIKE 'idgen%'}),
	'0|25000|0', '25 000 new ids, from three sessions, two at once: UUIDv7, unique, each after every old id');
is($node->safe_psql('app', q{
	SELECT count(*) FILTER (WHERE id < lag) FROM (
	  SELECT id, lag(id) OVER (PARTITION BY made_by ORDER BY n) FROM events WHERE made_by LIKE 'idgen%') s}),
	'0', "each session's ids in the order they were made");
is($node->safe_psql('app', q{
	SELECT count(*) FROM events c, (SELECT id FROM events WHERE made_by IN ('idgen a', 'idgen b') ORDER BY id DESC LIMIT 1) ab
	WHERE c.made_by = 'idgen c' AND c.id <= ab.id}),
	'0', "the later session's ids after both earlier sessions'");
is($node->safe_psql('app', q{SELECT count(*) FILTER (WHERE made = idgen.uuid_timestamp(id)) FROM event_times}),
	'45000', "the view reads old and new ids with PostgreSQL's function, at the time idgen reads");
is($node->safe_psql('app', q{SELECT md5(string_agg(format('%s/%s/%s', id, device_id, reading), ',' ORDER BY id)) FROM events WHERE made_by = 'core'}),
	$before{events}, 'the old events are unchanged');
($ret, $out, $err) = $node->psql('app', 'INSERT INTO events (device_id, reading) VALUES (999, 1)');
like($err, qr/violates foreign key constraint/, 'the foreign key still refuses an unknown device');
($ret, $out, $err) = $node->psql('app', 'INSERT INTO events (device_id, reading) VALUES (1, 151)');
like($err, qr/violates check constraint/, 'the CHECK still refuses a reading out of range');
like($node->safe_psql('app', q{SET enable_seqscan = off; EXPLAIN (COSTS OFF) SELECT * FROM events WHERE device_id = 3}),
	qr/events_device/, 'the index on device_id serves lookups');
is($node->safe_psql('app', qq{
	SELECT count(*) = count(DISTINCT id) AND min(id) FILTER (WHERE event_id IN (SELECT id FROM events WHERE made_by LIKE 'idgen%')) > $before{alerts}
	FROM alerts}),
	't', 'the plain sequence next to them repeated nothing');

$node->stop;
done_testing();
