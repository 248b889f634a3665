# A server whose wall clock is shifted from the real one, with Debian's libfaketime (package
# faketime) preloaded into the postmaster and every process it starts: the shift is read from a
# file of the node's (re-read at most once a second, so it can change while the server runs),
# CLOCK_MONOTONIC stays real (as when an administrator or NTP steps the clock), and psql and the
# test itself keep the real clock. The clock can also be frozen at an instant. Also: killing one backend with SIGKILL, which makes the
# postmaster end every other process, reinitialise shared memory and run crash recovery.
package IdgenTest::ShiftedClock;

use strict;
use warnings;
use Exporter 'import';
use File::Spec;
use POSIX ();
use IPC::Run;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);
use IdgenTest::Readiness qw(wait_until_accepting);

our @EXPORT_OK =
  qw(start_shifted crash_and_restart_shifted shift_clock wait_for_shift freeze_clock kill_a_backend);

# The libfaketime library of Debian's package faketime, in the multiarch directory of whatever
# architecture this is (/usr/lib/<triplet>/faketime/); found at the first start.
my $faketime_library;

sub _faketime_library
{
	return $faketime_library if defined $faketime_library;
	my ($found) = glob('/usr/lib/*/faketime/libfaketime.so.1');
	die "libfaketime not found (no /usr/lib/*/faketime/libfaketime.so.1): "
	  . "install the Debian package faketime (apt-get install faketime)\n"
	  unless defined $found && -f $found;
	return $faketime_library = $found;
}

# The file that holds a node's shift, in the node's base directory, as an absolute path: the
# server's processes re-read it from their data directory, and the framework of PostgreSQL 16 and
# later gives the node a base directory relative to the test's own (unless TESTDATADIR is set).
sub _shift_file
{
	my ($node) = @_;
	return File::Spec->rel2abs($node->basedir . '/clock_shift');
}

# _write_clock($node, $text): writes libfaketime's clock text for the node's processes: a
# relative shift ("+0", "-6s", "+20s") or an absolute instant; they read it within a second.
sub _write_clock
{
	my ($node, $text) = @_;
	open my $fh, '>', _shift_file($node) or die "cannot write " . _shift_file($node) . ": $!";
	print $fh "$text\n";
	close $fh or die "cannot write " . _shift_file($node) . ": $!";
	return;
}

# _write_shift($node, $seconds): writes the shift in libfaketime's relative form.
sub _write_shift
{
	my ($node, $seconds) = @_;
	return _write_clock($node, $seconds == 0 ? '+0' : sprintf('%+ds', $seconds));
}

# _poll_server_clock($node, $miss): asks the server's clock_timestamp() (new sessions, every
# 0.1 s, for at most the framework's default timeout) until $miss->($server_epoch, $asked,
# $answered) returns undef, the test's own clock read just before and after asking; $miss returns
# what it saw otherwise. Returns undef when the clock got there, else the last thing seen.
sub _poll_server_clock
{
	my ($node, $miss) = @_;
	my $deadline = time + $PostgreSQL::Test::Utils::timeout_default;
	my $seen = 'no answer';
	while (time < $deadline)
	{
		my $asked = Time::HiRes::time();
		my ($status, $server_time) =
		  $node->psql('postgres', 'SELECT extract(epoch FROM clock_timestamp())');
		my $answered = Time::HiRes::time();
		if ($status == 0 && $server_time =~ /^[0-9.]+$/)
		{
			$seen = $miss->($server_time, $asked, $answered);
			return unless defined $seen;
		}
		usleep(100_000);
	}
	return $seen;
}

# start_shifted($node, $seconds): starts the node (stopped) with its wall clock $seconds from the
# real one (negative: behind), libfaketime in the server's environment only, and waits until a
# session sees the shift. Returns whether it did (wait_for_shift).
sub start_shifted
{
	my ($node, $seconds) = @_;
	_write_shift($node, $seconds);
	{
		# Cluster::start hands %ENV to pg_ctl, and pg_ctl to the postmaster; pg_ctl runs under the
		# same shift, so its check of the start time in postmaster.pid agrees with the server's.
		local $ENV{LD_PRELOAD} = _faketime_library();
		local $ENV{FAKETIME_TIMESTAMP_FILE} = _shift_file($node);
		local $ENV{FAKETIME_DONT_FAKE_MONOTONIC} = 1;
		local $ENV{FAKETIME_CACHE_DURATION} = 1;
		$node->start;
	}
	return wait_for_shift($node, $seconds);
}

# crash_and_restart_shifted($node, $seconds): stops the node with -m immediate (no shutdown
# checkpoint: the next start runs crash recovery) and starts it again with its clock $seconds
# from the real one. Returns whether the server came back through crash recovery with that shift.
sub crash_and_restart_shifted
{
	my ($node, $seconds) = @_;
	my $log_offset = -s $node->logfile;
	$node->stop('immediate');
	my $shifted = start_shifted($node, $seconds);
	my $recovered = $node->log_contains(
		qr/database system was interrupted|database system was not properly shut down/,
		$log_offset);
	diag('the restart did not go through crash recovery') unless $recovered;
	return $shifted && $recovered;
}

# shift_clock($node, $seconds): changes the running server's shift (as a clock step: every
# process of the server sees it within about a second) and waits until a session sees it.
# Returns whether it did.
sub shift_clock
{
	my ($node, $seconds) = @_;
	_write_shift($node, $seconds);
	return wait_for_shift($node, $seconds);
}

# wait_for_shift($node, $seconds): polls (new sessions, every 0.1 s, for at most the framework's
# default timeout) until the server's clock_timestamp() is the test's own clock plus $seconds,
# within 1 s. Returns whether it got there; when not, prints the last difference seen.
sub wait_for_shift
{
	my ($node, $seconds) = @_;
	my $seen = _poll_server_clock(
		$node,
		sub {
			my ($server_time, $asked, $answered) = @_;
			my $difference = $server_time - ($asked + $answered) / 2;
			return abs($difference - $seconds) < 1 ? undef : sprintf('%+.2f s', $difference);
		});
	return 1 unless defined $seen;
	diag($node->name . ": the server's clock is not shifted by $seconds s (last seen: $seen)");
	return 0;
}

# freeze_clock($node, $unix_seconds): stops the running server's wall clock at that whole
# second (libfaketime's absolute form, in the local time zone the server's processes share with
# the test) and waits until a session reads exactly that instant. Freezing it ahead of the real
# clock keeps the server clock on the wall clock (it only leaves it when the wall clock goes back).
# Returns whether the session saw it; shift_clock or a restart unfreezes it.
sub freeze_clock
{
	my ($node, $unix_seconds) = @_;
	_write_clock($node, POSIX::strftime('%Y-%m-%d %H:%M:%S', localtime($unix_seconds)));
	my $seen = _poll_server_clock($node,
		sub { my ($server_time) = @_; return $server_time == $unix_seconds ? undef : $server_time; });
	return 1 unless defined $seen;
	diag($node->name . ": the server's clock is not frozen at $unix_seconds (last seen: $seen)");
	return 0;
}

# kill_a_backend($node): starts a session (application_name idgen_victim) that sleeps in a query,
# kills its backend with SIGKILL, and waits until the postmaster has reinitialised and accepts
# connections again. Returns the backend's pid and the part of the server log written meanwhile
# (both '' when the session never showed up), for the caller to check the log for the kill and
# the reinitialisation.
sub kill_a_backend
{
	my ($node) = @_;
	my $log_offset = -s $node->logfile;
	my ($out, $err) = ('', '');
	my $victim = IPC::Run::start(
		[
			$node->installed_command('psql'), '-XAtq',
			'-d', $node->connstr('postgres') . ' application_name=idgen_victim',
			'-c', 'SELECT pg_sleep(600)'
		],
		'>', \$out, '2>', \$err,
		IPC::Run::timeout($PostgreSQL::Test::Utils::timeout_default));
	my $found = $node->poll_query_until('postgres',
		q{SELECT count(*) = 1 FROM pg_stat_activity WHERE application_name = 'idgen_victim' AND state = 'active'}
	);
	my $pid = $found
	  ? $node->safe_psql('postgres',
		q{SELECT pid FROM pg_stat_activity WHERE application_name = 'idgen_victim'})
	  : '';
	kill 'KILL', $pid if $pid =~ /^[0-9]+$/;
	# The victim's psql ends when its connection goes away (or when its timeout kills it).
	eval { $victim->finish; 1 } or $victim->kill_kill;
	return ('', '') unless $pid =~ /^[0-9]+$/;
	# Wait for the postmaster to reinitialise before asking for connections, so that a session
	# opened in between does not pass for the server being back.
	my $deadline = time + $PostgreSQL::Test::Utils::timeout_default;
	usleep(100_000)
	  until time > $deadline
	  || $node->log_contains(qr/all server processes terminated; reinitializing/, $log_offset);
	wait_until_accepting($node);
	return ($pid, PostgreSQL::Test::Utils::slurp_file($node->logfile, $log_offset));
}

1;
