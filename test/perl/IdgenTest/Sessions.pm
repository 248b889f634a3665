# Helpers shared by idgen's TAP tests (test/t/*.pl), on top of PostgreSQL::Test::Cluster.
package IdgenTest::Sessions;

use strict;
use warnings;
use Exporter 'import';
use IPC::Run;

our @EXPORT_OK =
  qw(run_concurrently run_concurrently_on run_scripts_concurrently start_pgbench finish_pgbench);

# run_concurrently($node, $dbname, \@scripts): runs each SQL script in its own psql session, all
# at the same time, and waits for them. Returns the number of sessions that failed (each
# failure's output is printed as a TAP diagnostic).
sub run_concurrently
{
	my ($node, $dbname, $scripts) = @_;
	return run_concurrently_on([ map { [ $node, $dbname, $_ ] } @$scripts ]);
}

# run_concurrently_on(\@jobs): the same with each job [ $node, $dbname, $sql ] on a node of its
# own, so that sessions on several servers overlap.
sub run_concurrently_on
{
	my ($jobs) = @_;
	my @running;
	for my $job (@$jobs)
	{
		my ($node, $dbname, $sql) = @$job;
		my %session = (out => '', err => '');
		$session{handle} = IPC::Run::start(
			[
				$node->installed_command('psql'), '-XAtq', '-v', 'ON_ERROR_STOP=1',
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

# run_scripts_concurrently($node, $dbname, \@scripts, $timeout): runs each SQL script in its own
# psql session fed on standard input, all at the same time, and waits for them. Unlike
# run_concurrently, every statement is its own transaction and an error does not stop the script
# (the statements after it still run). A session still running after $timeout seconds is killed.
# Returns a reference to the sessions' error output, one string per script ('' for a session
# without error; "timed out after N s" added for a session that was killed).
sub run_scripts_concurrently
{
	my ($node, $dbname, $scripts, $timeout) = @_;
	my @running;
	for my $sql (@$scripts)
	{
		my %session = (in => $sql, out => '', err => '');
		$session{handle} = IPC::Run::start(
			[
				$node->installed_command('psql'), '-XAtq', '-v', 'ON_ERROR_STOP=0',
				'-d', $node->connstr($dbname), '-f', '-'
			],
			'<', \$session{in}, '>', \$session{out}, '2>', \$session{err},
			IPC::Run::timeout($timeout));
		push @running, \%session;
	}
	for my $session (@running)
	{
		next if eval { $session->{handle}->finish; 1 };
		$session->{handle}->kill_kill;
		$session->{err} .= "timed out after $timeout s\n";
	}
	return [ map { $_->{err} } @running ];
}

# start_pgbench($node, @arguments): starts pgbench (-n, against the node's postgres database)
# without waiting, so that loads on several nodes overlap. finish_pgbench($run) waits for it and
# returns (succeeded, stdout, stderr).
sub start_pgbench
{
	my ($node, @arguments) = @_;
	my %run = (out => '', err => '');
	$run{handle} = IPC::Run::start(
		[
			$node->installed_command('pgbench'), '-n', '-h', $node->host,
			'-p', $node->port, @arguments, 'postgres'
		],
		'>', \$run{out}, '2>', \$run{err});
	return \%run;
}

sub finish_pgbench
{
	my ($run) = @_;
	my $ok = $run->{handle}->finish;
	return ($ok, $run->{out}, $run->{err});
}

1;
