# Runs a shell script that prints its own TAP lines ("ok - ...", "not ok - ...", "# ...") and
# reports each of its lines as a result of the calling TAP test, so a script that checks many
# things (every SQL block of the docs) keeps one result per check.
package IdgenTest::ShellChecks;

use strict;
use warnings;
use Exporter 'import';
use IPC::Run;
use Test::More;

our @EXPORT_OK = qw(run_shell_checks);

# run_shell_checks(\@command, \%env): runs the command with %env added to the environment.
# Returns the number of "ok" lines it printed (in list context also what it printed); the script's
# failure to finish is one more failure.
sub run_shell_checks
{
	my ($command, $env) = @_;
	my ($out, $err) = ('', '');
	my $finished;
	{
		local %ENV = (%ENV, %$env);
		$finished = IPC::Run::run($command, '>', \$out, '2>', \$err);
	}
	my $passed = 0;
	my $failing;    # the description of the last "not ok", for the diagnostics after it
	for my $line (split /\n/, $out)
	{
		if ($line =~ /^ok - (.*?)(?: # SKIP (.*))?$/)
		{
			if (defined $2)
			{
			  SKIP: { skip "$1: $2", 1; }
			}
			else
			{
				pass($1);
				$passed++;
			}
			undef $failing;
		}
		elsif ($line =~ /^not ok - (.*)$/)
		{
			fail($1);
			$failing = $1;
		}
		elsif ($line =~ /^# ?(.*)$/)
		{
			defined $failing ? diag($1) : note($1);
		}
	}
	ok($finished, "@$command ran to its end") or diag($err);
	return wantarray ? ($passed, $out) : $passed;
}

1;
