# idgen-test: majors=all tier=quick
# A generator mark that another server wrote and that is far ahead of this server's clock is
# refused, in its own database only, instead of moving every database of the server into the
# future. A database restored or upgraded from another server carries that server's mark
# (idgen_internal.generator_mark, with the server's system identifier beside it), and before the
# first server-wide id there idgen moves the generators of the whole server past it. In 0.3.0 a
# dump from a server one day ahead put the ids of an unrelated database one day ahead (and kept
# them there across a restart), and a mark in 2092 stamped every database's Snowflake ids with
# 2092; the only message was a warning about node numbers.
#
# Here the restored marks are written as pg_restore writes them (setval of the mark and of its
# origin, a system identifier other than this server's), in two databases: one a day ahead, one in
# 2092. Checked: the first id in each fails with 55000, naming the database, the lead and both ways
# out; the other database's ids, and a plain sequence, go on at the real time meanwhile, and after
# a restart; a mark within idgen.mark_max_lead is adopted; the way out that discards a mark makes
# ids from the clock, and the one that raises the limit adopts the mark and moves the server's
# ids past it, as documented, also after a restart.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest::AppDatabase qw(error_of);

my $node = PostgreSQL::Test::Cluster->new('adopted_mark');
$node->init;
$node->append_conf('postgresql.conf', <<'EOF');
shared_preload_libraries = 'idgen'
idgen.node_id = 1
EOF
$node->start;

for my $db (qw(app day_ahead year_2092 near))
{
	$node->safe_psql('postgres', "CREATE DATABASE $db");
	$node->safe_psql($db, 'CREATE EXTENSION idgen');
}
$node->safe_psql('app', 'CREATE SEQUENCE plain_sequence');

# What pg_restore writes into a database dumped from another server: its mark and its system
# identifier (here 42, which no initdb gives).
sub restore_mark
{
	my ($db, $mark_sql) = @_;
	$node->safe_psql($db, qq{
SELECT setval('idgen_internal.generator_mark', ($mark_sql)::bigint, true),
       setval('idgen_internal.generator_mark_origin', 42, true)});
	return;
}
restore_mark('day_ahead', q{extract(epoch FROM now() + interval '1 day') * 1000});
restore_mark('year_2092', q{extract(epoch FROM timestamptz '2092-01-01 00:00:00+00') * 1000});
restore_mark('near', q{extract(epoch FROM now() + interval '5 seconds') * 1000});

# How far the newest id of each time-ordered generator made in $db leads the real clock, in
# whole seconds; and that Snowflake ids of app carry no future either.
my $lead_sql = q{
SELECT round(extract(epoch FROM greatest(idgen.uuid_timestamp(idgen.uuidv7()),
                                          idgen.snowflake_timestamp(idgen.snowflake()),
                                          idgen.ulid_timestamp(idgen.ulid()),
                                          idgen.distributed_id128_timestamp(idgen.distributed_id128()))
                          - clock_timestamp()))};

is($node->safe_psql('app', $lead_sql), '0', 'app: ids are made at the real time');

for my $case ([ 'day_ahead', '86\d{3}\.\d{3} s' ], [ 'year_2092', '\d{10}\.\d{3} s' ])
{
	my ($db, $lead) = @$case;
	my ($status, $out, $err) = $node->psql($db, q{
\set VERBOSITY verbose
SELECT idgen.uuidv7()});
	like(
		$err,
		qr/ERROR:  55000: database "$db" holds a generator mark $lead ahead of this server's clock\n(?s:.*)DETAIL:  Another server \(system identifier 42\) wrote the mark.*idgen.mark_max_lead \(60000 ms\) allows no more\.\nHINT:  Check both servers' clocks\. To adopt the mark anyway, a superuser raises idgen.mark_max_lead\. To make ids from this server's clock instead .* SELECT setval\('idgen_internal.generator_mark', 1, false\)\./,
		"$db: the first server-wide id is refused (55000), naming the database, the lead and both ways out");
	for my $generator ('idgen.snowflake()', 'idgen.ulid()', 'idgen.distributed_id()',
		'idgen.distributed_id128()', "idgen.typeid('user')")
	{
		like(error_of($node, $db, "SELECT $generator"),
			qr/^55000: database "$db" holds a generator mark/, "$db: $generator is refused too");
	}
	is($node->safe_psql('app', $lead_sql), '0',
		"app: ids are still made at the real time after $db\'s refusals");
}
is($node->safe_psql('app', q{SELECT nextval('plain_sequence')}), '1',
	'app: a plain sequence goes on meanwhile');
like($node->safe_psql('app', q{SELECT clock_ahead FROM idgen.generator_status('uuidv7')}),
	qr/^(00:00:00|-)/, 'the server clock does not lead the wall clock');

# A restart keeps the refusals, and the ids near the real time: within the few seconds a start
# adds (docs/durability.md).
$node->restart;
like(error_of($node, 'day_ahead', 'SELECT idgen.uuidv7()'),
	qr/^55000: database "day_ahead" holds a generator mark/, 'after a restart: day_ahead is still refused');
my $lead = $node->safe_psql('app', $lead_sql);
ok($lead <= 5, "after a restart: app ids lead the real time by no more than a start adds ($lead s)");

# The way out that discards the mark: ids from this server's clock.
$node->safe_psql('year_2092', q{SELECT setval('idgen_internal.generator_mark', 1, false)});
$lead = $node->safe_psql('year_2092', $lead_sql);
ok($lead <= 5, "year_2092: with its mark set back as the hint says, ids follow this server's clock ($lead s)");

# A mark within the limit is adopted, with the warning about node numbers in the server log (the
# session whose id adopts it is not the one that can act on it: it hears nothing, even with
# client_min_messages = log).
my $near_log_offset = -s $node->logfile;
my ($near_status, $near_out, $near_err) =
  $node->psql('near', "SET client_min_messages = log; SELECT idgen.uuidv7() IS NOT NULL");
is($near_out, 't', 'near: a mark 5 s ahead (within idgen.mark_max_lead) is adopted');
unlike($near_err, qr/another server/, 'near: the session that adopts it is not told');
ok( $node->log_contains(
		qr/LOG:  this database's ids were made by another server \(system identifier 42\)\n[^\n]*DETAIL:  Database "near" was restored or upgraded from that server\.[^\n]*this server's is 1\.\n[^\n]*HINT:  Find the server whose pg_control_system\(\) shows system identifier 42\. If it still runs with idgen.node_id = 1, give one of the two another node number/,
		$near_log_offset),
	'near: the server log warns that the other server must not share the node number');


# The way out that adopts it: a superuser raises the limit; the server's ids then lead by a day,
# in every database, until the clock catches up (the price of keeping them after that server's).
$node->safe_psql('postgres', q{ALTER DATABASE day_ahead SET idgen.mark_max_lead = '2d'});
my ($ahead_status, $ahead_out) = $node->psql('day_ahead', $lead_sql);
# About a day: the lead shrinks by half the time that passes (the clock runs at half pace while
# ahead of the wall clock).
ok($ahead_out > 86000 && $ahead_out <= 86405,
	"day_ahead: with idgen.mark_max_lead raised, the mark is adopted and its ids lead by a day ($ahead_out s)");
$lead = $node->safe_psql('app', $lead_sql);
ok($lead > 86000, "app: then its ids lead by about a day too, as documented ($lead s)");
$node->restart;
$lead = $node->safe_psql('app', $lead_sql);
ok($lead > 86000, "after a restart the adopted mark still holds ($lead s)");

$node->stop;
done_testing();
