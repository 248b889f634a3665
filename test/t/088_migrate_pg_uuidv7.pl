# idgen-test: majors=15 tier=full
# docs/migrating.md's path from pg_uuidv7 to idgen.uuidv7(), run as the page prints it. pg_uuidv7
# is not among the peers this repository builds (../shared/peers), so the test stands in with an
# extension of that name whose uuid_generate_v7() and uuid_v7_to_timestamptz() make and read uuids
# of pg_uuidv7's layout (48 bits of Unix ms, version 7, variant, the other 74 bits random, as its
# pg_uuidv7.c makes them), in SQL. A schema with foreign keys, CHECKs, an index and a view that
# calls uuid_v7_to_timestamptz is filled through it; then the page's steps. Checked: every row,
# key and reference kept; the view reads the same times; the extension drops; new ids are UUIDv7,
# unique, after every old id and in generation order (the old ones are not, within a ms); a plain
# sequence next to them repeats nothing.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest::Migrating qw(migration_blocks);
use IdgenTest::Releases qw(installation_copy);

my ($switch) = migration_blocks('pg-uuidv7');
ok(defined $switch, 'docs/migrating.md has the block of the pg_uuidv7 path');

# The stand-in extension, in a copy of the installation under test.
my $copy = installation_copy('pg_uuidv7');
my $sharedir = `$ENV{PG_CONFIG} --sharedir`;
chomp $sharedir;
my $extension_dir = $copy->{root} . "$sharedir/extension";
append_to_file("$extension_dir/pg_uuidv7.control",
	"comment = 'stand-in for pg_uuidv7 (idgen test 088): its functions and its ids'' layout, in SQL'\n"
	  . "default_version = '1.6'\nrelocatable = true\n");
append_to_file("$extension_dir/pg_uuidv7--1.6.sql", q{
CREATE FUNCTION uuid_generate_v7() RETURNS uuid LANGUAGE sql VOLATILE AS $$
  SELECT encode(set_byte(b, 6, (get_byte(b, 6) & 15) | 112), 'hex')::uuid
  FROM (SELECT overlay(uuid_send(gen_random_uuid())
                       PLACING substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3)
                       FROM 1 FOR 6) AS b) s
$$;
CREATE FUNCTION uuid_v7_to_timestamptz(uuid) RETURNS timestamptz LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT timestamptz 'epoch' + ('x' || substr(replace($1::text, '-', ''), 1, 12))::bit(48)::bigint * interval '1 millisecond'
$$;
});

my $node = PostgreSQL::Test::Cluster->new('pg_uuidv7', install_path => $copy->{path});
$node->init;
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'idgen'");
$node->start;
$node->safe_psql('postgres', 'CREATE DATABASE app');
$node->safe_psql('app', q{
	CREATE EXTENSION idgen;
	CREATE EXTENSION pg_uuidv7;
	CREATE TABLE devices (id serial PRIMARY KEY, name text NOT NULL UNIQUE);
	CREATE TABLE events (
	  id uuid PRIMARY KEY DEFAULT uuid_generate_v7(),
	  device_id integer NOT NULL REFERENCES devices,
	  reading numeric NOT NULL CHECK (reading BETWEEN -50 AND 150),
	  made_by text NOT NULL DEFAULT 'pg_uuidv7',
	  n bigserial UNIQUE);
	CREATE INDEX events_device ON events (device_id);
	CREATE TABLE alerts (id bigserial PRIMARY KEY, event_id uuid NOT NULL REFERENCES events ON DELETE CASCADE);
	CREATE VIEW event_times AS SELECT id, uuid_v7_to_timestamptz(id) AS made FROM events;
	INSERT INTO devices (name) SELECT 'device ' || i FROM generate_series(1, 50) i;
	INSERT INTO events (device_id, reading) SELECT 1 + i % 50, i % 100 FROM generate_series(1, 20000) i;
	INSERT INTO alerts (event_id) SELECT id FROM events WHERE reading > 95;
	CREATE TABLE old_times AS SELECT id, made FROM event_times;
});
is($node->safe_psql('app', q{SELECT count(*) FILTER (WHERE idgen.uuid_version(id) = 7 AND idgen.uuid_timestamp(id) = made) FROM old_times}),
	'20000', "the stand-in's ids are UUIDv7 that idgen reads, at the times uuid_v7_to_timestamptz reads");
my %before = (
	events => $node->safe_psql('app', q{SELECT md5(string_agg(format('%s/%s/%s', id, device_id, reading), ',' ORDER BY id)) FROM events}),
	alerts => $node->safe_psql('app', 'SELECT max(id) FROM alerts'));

my ($ret, $out, $err) = $node->psql('app', $switch, on_error_stop => 1);
is($ret, 0, "the page's steps run as printed: default, view, DROP EXTENSION pg_uuidv7") or diag($err);
is($node->safe_psql('app', q{SELECT count(*) FROM pg_extension WHERE extname = 'pg_uuidv7'}), '0', 'pg_uuidv7 is gone');

$node->safe_psql('app', q{
	INSERT INTO events (device_id, reading, made_by) SELECT 1 + i % 50, 20, 'idgen' FROM generate_series(1, 20000) i;
	INSERT INTO alerts (event_id) SELECT id FROM events WHERE made_by = 'idgen' AND device_id = 7;});
is($node->safe_psql('app', q{
	SELECT count(*) FILTER (WHERE idgen.uuid_version(id) <> 7), count(DISTINCT id),
	       count(*) FILTER (WHERE id <= (SELECT id FROM events WHERE made_by = 'pg_uuidv7' ORDER BY id DESC LIMIT 1))
	FROM events WHERE made_by = 'idgen'}),
	'0|20000|0', '20 000 new ids: UUIDv7, unique, each after every old id');
# Order within a ms: the new ids follow the order they were made in; pg_uuidv7's, random after
# the ms, do not.
my $inversions = q{
	SELECT count(*) FILTER (WHERE id < lag) FROM (
	  SELECT id, lag(id) OVER (ORDER BY n) FROM events WHERE made_by = '%s') s};
is($node->safe_psql('app', sprintf($inversions, 'idgen')), '0', "idgen's ids are in the order they were made");
my $old_inversions = $node->safe_psql('app', sprintf($inversions, 'pg_uuidv7'));
cmp_ok($old_inversions, '>', 0, "pg_uuidv7's were not: $old_inversions of 20 000 sort below the one made before them (same ms)");

is($node->safe_psql('app', q{SELECT md5(string_agg(format('%s/%s/%s', id, device_id, reading), ',' ORDER BY id)) FROM events WHERE made_by = 'pg_uuidv7'}),
	$before{events}, 'the old events are unchanged');
is($node->safe_psql('app', q{SELECT count(*) FROM old_times o JOIN event_times e USING (id) WHERE e.made = o.made}),
	'20000', "the page's view reads the old events at the times pg_uuidv7's function read");
is($node->safe_psql('app', q{SELECT count(*) FROM event_times WHERE made BETWEEN now() - interval '1 hour' AND clock_timestamp() + interval '1 s'}),
	'40000', 'and the new ones at their time too');
($ret, $out, $err) = $node->psql('app', 'INSERT INTO events (device_id, reading) VALUES (999, 1)');
like($err, qr/violates foreign key constraint/, 'the foreign key still refuses an unknown device');
($ret, $out, $err) = $node->psql('app', 'INSERT INTO events (device_id, reading) VALUES (1, 151)');
like($err, qr/violates check constraint/, 'the CHECK still refuses a reading out of range');
like($node->safe_psql('app', q{SET enable_seqscan = off; EXPLAIN (COSTS OFF) SELECT * FROM events WHERE device_id = 3}),
	qr/events_device/, 'the index on device_id serves lookups');
is($node->safe_psql('app', qq{
	SELECT count(*) = count(DISTINCT id) AND min(id) FILTER (WHERE event_id IN (SELECT id FROM events WHERE made_by = 'idgen')) > $before{alerts}
	FROM alerts}),
	't', 'the plain sequence next to them repeated nothing');

$node->stop;
done_testing();
