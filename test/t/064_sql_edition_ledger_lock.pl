# idgen-test: majors=15,18 tier=full
# idgen_sql's ledger lock is one that no other role can take or queue: a role without any
# privilege that holds an advisory lock on the key idgen_sql 0.4.0 derived from the table's oid
# and the ledger id (any role could compute it) does not make an append wait, nor can it read or
# lock the rows that carry the ledgers' locks (idgen_internal.ledger_tails) or take a ledger's lock
# through the trigger's helper. The lock still serialises appends: the first two appends to a
# ledger (its genesis, twice) from two sessions leave one genesis and a clear refusal, and two
# sessions appending to one ledger at the same time leave a valid chain.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use IdgenTest::Sessions qw(run_scripts_concurrently);

my $node = PostgreSQL::Test::Cluster->new('sql_edition_ledger_lock');
$node->init;
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION pgcrypto; CREATE EXTENSION idgen_sql;
	CREATE ROLE app LOGIN; CREATE ROLE hostile LOGIN;
	CREATE TABLE events (
	  ledger_id bigint NOT NULL, id idgen.event_id NOT NULL, event text NOT NULL,
	  entities jsonb NOT NULL, meta jsonb NOT NULL DEFAULT '{}', data jsonb NOT NULL,
	  PRIMARY KEY (ledger_id, id));
	CREATE TRIGGER ledger_append BEFORE INSERT ON events
	  FOR EACH ROW EXECUTE FUNCTION idgen.ledger_append();
	GRANT SELECT, INSERT ON events TO app});
my $ledger = $node->safe_psql('postgres',
	q{SELECT idgen.ledger_create('events', 'orders', 'the ledger of orders')}, extra_params => [ '-U', 'app' ]);
my $events_oid = $node->safe_psql('postgres', q{SELECT 'events'::regclass::oid});

# A session kept open: each statement is sent and read up to a marker, so that a transaction can
# stay open between them. With VERBOSITY sqlstate, an error prints its SQLSTATE only.
sub open_session
{
	my ($role) = @_;
	my %session = (in => '', out => '', err => '', marks => 0);
	$session{handle} = IPC::Run::start(
		[
			$node->installed_command('psql'), '-XAtq', '-v', 'ON_ERROR_STOP=0',
			'-v', 'VERBOSITY=sqlstate', '-U', $role, '-d', $node->connstr('postgres'), '-f', '-'
		],
		'<', \$session{in}, '>', \$session{out}, '2>', \$session{err});
	return \%session;
}

# send($session, $sql): sends statements without waiting for them.
sub send_sql
{
	my ($session, $sql) = @_;
	$session->{marks}++;
	$session->{in} .= "$sql;\nSELECT 'mark $session->{marks}';\n";
	$session->{handle}->pump_nb;
	return;
}

# result($session): waits (at most 60 s) for the statements sent last and returns their output
# and errors (an error as its SQLSTATE), one line each.
sub result
{
	my ($session) = @_;
	my $mark = "mark $session->{marks}";
	my $deadline = time + 60;
	$session->{handle}->pump_nb until $session->{out} =~ /^\Q$mark\E$/m || time > $deadline;
	my $out = $session->{out} =~ s/^\Q$mark\E\n?//mr;
	my @errors = map { s/^psql:[^ ]* ERROR:\s+//r } split(/\n/, $session->{err});
	my $text = join("\n", grep { $_ ne '' } split(/\n/, $out), @errors);
	$session->{out} = $session->{err} = '';
	return $text;
}

sub ask
{
	my ($session, $sql) = @_;
	send_sql($session, $sql);
	return result($session);
}

sub close_session
{
	my ($session) = @_;
	$session->{in} .= "\\q\n";
	$session->{handle}->finish;
	return;
}

my $append = qq{INSERT INTO events (ledger_id, event, entities, data)
	VALUES ($ledger, 'paid', '{}', '{"order": 1}') RETURNING event};

# A role without any privilege holds an advisory lock on 0.4.0's key for the ledger.
my $hostile = open_session('hostile');
is(ask($hostile, qq{BEGIN; SELECT pg_advisory_xact_lock(
	hashtextextended('idgen ledger ' || $events_oid || ' ' || $ledger, 0))}), '',
	'a role without privileges holds an advisory lock on the key of the ledger');
is($node->safe_psql('postgres', q{
	SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a USING (pid)
	WHERE l.locktype = 'advisory' AND l.granted AND a.usename = 'hostile'}), '1', 'pg_locks shows it granted');
my $app = open_session('app');
is(ask($app, "SET statement_timeout = '2s'; $append"), 'paid',
	'an append to the ledger does not wait for it (statement_timeout 2 s)');
close_session($app);

# Nor can that role read or lock the ledgers' lock rows, or take a ledger's lock by the helper.
is(ask($hostile, 'ROLLBACK; SELECT count(*) FROM idgen_internal.ledger_tails'), '42501',
	'it cannot read idgen_internal.ledger_tails (42501)');
is(ask($hostile, 'SELECT 1 FROM idgen_internal.ledger_tails FOR UPDATE'), '42501',
	'nor lock its rows (42501)');
is(ask($hostile, 'BEGIN; LOCK TABLE idgen_internal.ledger_tails IN ACCESS SHARE MODE; ROLLBACK'), '42501',
	'nor lock the table (42501)');
is(ask($hostile, "SELECT idgen_lib.ledger_lock('events', $ledger)"), '42501',
	'nor take the ledger\'s lock through the trigger\'s helper (42501)');
close_session($hostile);

# The lock still serialises appends. The first appends to a ledger: two sessions insert the same
# genesis; the second waits for the first and, once it commits, is refused as a ledger that exists.
my $genesis = q{INSERT INTO events (ledger_id, id, event, entities, meta, data)
	SELECT g.ledger_id, g.event_id, convert_from('\xf09f9392f09283bb', 'UTF8'), '{}',
	       '{"notes": "Ledger established by Evently"}',
	       jsonb_build_object('name', 'twice', 'description', 'two first appends')
	FROM idgen.ledger_genesis('twice', 'two first appends', 1767225600000000) g RETURNING true};
my $first = open_session('app');
my $second = open_session('app');
is(ask($first, "BEGIN; $genesis"), 't', 'a session appends a genesis and keeps its transaction open');
send_sql($second, "SET lock_timeout = '60s'; $genesis");
ok($node->poll_query_until('postgres', q{
	SELECT count(*) = 1 FROM pg_stat_activity WHERE usename = 'app' AND wait_event_type = 'Lock'}),
	'a second session appending the same genesis waits for the first');
is(ask($first, 'COMMIT'), '', 'the first commits');
is(result($second), '23505', 'the second is refused: the ledger exists (23505)');
close_session($_) for $first, $second;

# Two sessions append to one ledger at the same time.
my $script = join('', map { "$append;\n" } 1 .. 200);
my $errors = run_scripts_concurrently($node, 'postgres', [ $script, $script ], 300);
is(join('', @$errors), '', 'two sessions append 200 events each to one ledger without error');
is($node->safe_psql('postgres', qq{
	SELECT (v).valid || ' ' || (v).events FROM (
	  SELECT idgen.ledger_verify(id, event, entities, meta, data ORDER BY id) AS v
	  FROM events WHERE ledger_id = $ledger) s}), 'true 402', 'the ledger verifies, with its 402 events');

$node->stop;
done_testing();
