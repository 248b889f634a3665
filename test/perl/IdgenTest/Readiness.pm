# Whether a server that is restarting (crash recovery, a reinitialisation after a killed backend)
# accepts queries yet, without the race of $node->psql and poll_query_until: both write the query
# to psql's standard input, and while the server refuses connections psql exits at once; a write
# to that closed pipe makes IPC::Run die (EPIPE), which neither catches, so the test script dies
# ("Dubious, test returned 32") instead of trying again. Here the query is on psql's command line.
package IdgenTest::Readiness;

use strict;
use warnings;
use Exporter 'import';
use IPC::Run;
use PostgreSQL::Test::Utils;
use Time::HiRes qw(usleep);

our @EXPORT_OK = qw(accepts_queries wait_until_accepting);

# accepts_queries($node): whether a new session of database postgres runs a query now.
sub accepts_queries
{
	my ($node) = @_;
	my ($out, $err) = ('', '');
	return IPC::Run::run(
		[
			$node->installed_command('psql'), '-XAtq',
			'-d', $node->connstr('postgres'),
			'-c', 'SELECT 1'
		],
		'>', \$out, '2>', \$err,
		IPC::Run::timeout($PostgreSQL::Test::Utils::timeout_default)) ? 1 : 0;
}

# wait_until_accepting($node): waits (10 ms steps, at most the framework's default timeout) until
# the server accepts queries; returns whether it does.
sub wait_until_accepting
{
	my ($node) = @_;
	my $deadline = time + $PostgreSQL::Test::Utils::timeout_default;
	until (accepts_queries($node))
	{
		return 0 if time > $deadline;
		usleep(10_000);
	}
	return 1;
}

1;
