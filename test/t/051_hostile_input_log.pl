# idgen-test: majors=all tier=full
# Hostile input leaves no crash behind: runs the regression suite's hostile-input script
# (sql/hostile_input.sql: every idgen function with malformed, empty, huge, negative, boundary,
# non-ASCII and NULL arguments, about 900 calls) against a throwaway server, then checks that
# server's log: no backend terminated by a signal, no PANIC, no "internal error" report, and the
# server still answers. (Which SQLSTATE each call raises is the regression suite's check; an
# internal error XX000 among them fails it there.)
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('hostile');
$node->init;
# Every log line carries its SQLSTATE (%e), so an internal error (XX000) can be found.
$node->append_conf('postgresql.conf', "log_line_prefix = '%m [%p] %e '");
$node->start;

# sqlstate_of() is made by the regression suite's setup script; define it the same way.
$node->safe_psql(
	'postgres', q{
	CREATE EXTENSION idgen;
	CREATE FUNCTION sqlstate_of(query text) RETURNS text LANGUAGE plpgsql AS $$
	  BEGIN EXECUTE query; RETURN 'no error';
	  EXCEPTION WHEN OTHERS THEN RETURN SQLSTATE || ': ' || SQLERRM; END $$});
my $log_start = -s $node->logfile;
my ($status, $out, $err) = $node->psql('postgres', undef,
	extra_params => [ '-v', 'ON_ERROR_STOP=1', '-f', 'sql/hostile_input.sql' ]);
my ($calls) = $out =~ /^(\d+)\|\d+$/m;
is($status, 0, 'the hostile-input script ran to its end (' . ($calls // '?') . ' calls)')
  or diag($err);
cmp_ok($calls // 0, '>', 800, 'more than 800 hostile calls were made');

# The script catches its errors (each call is a subtransaction), so they are not logged; one
# uncaught error shows that the log would show an internal error's SQLSTATE.
$node->psql('postgres', q{SELECT 'not an id'::idgen.event_id});
my $log = substr(slurp_file($node->logfile), $log_start);
unlike($log, qr/terminated by signal|was terminated/, 'no backend was terminated by a signal');
unlike($log, qr/PANIC|all server processes terminated/, 'no PANIC, no server restart');
like($log, qr/ 22P02 ERROR/, 'an uncaught error is logged with its SQLSTATE (22P02)');
unlike($log, qr/ XX000 /, 'no internal error (XX000) was reported');
is($node->safe_psql('postgres', q{SELECT idgen.crc32c(text '123456789')}),
	'3808858755', 'the server still answers');

$node->stop;
done_testing();
