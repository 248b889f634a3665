# Helpers shared by idgen's TAP tests (test/t/*.pl), on top of PostgreSQL::Test::Cluster.
package IdgenTest::Sessions;

use strict;
use warnings;
use Exporter 'import';
use IPC::Run;

our @EXPORT_OK = qw(run_concurrently);

# run_concurrently($node, $dbname, \@scripts): runs each SQL script in its own psql session, all
# at the same time, and waits for them. Returns the number of sessions that failed (each
# failure's output is printed as a TAP diagnostic).
sub run_concurrently
{
	my ($node, $dbname, $scripts) = @_;
	my @running;
	for my $sql (@$scripts)
	{
		my %session = (out => '', err => '');
		$session{handle} = IPC::Run::start(
			[
				'psql', '-XAtq', '-v', 'ON_ERROR_STOP=1',
				'-d', $node->connstr($dbname), '-c', $sql
			],
			'>', \$session{out}, '2>', \$session{err});
		push @running, \%session;
	}
	my $failed = 0;
	for my $session (@running)
	{
		next if $session->{handle}->finish;
		$failed++;
		Test::More::diag("session failed: $session->{err}");
	}
	return $failed;
}

1;
