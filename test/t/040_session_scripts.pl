# idgen-test: majors=all tier=full
# Tests that drive a server through many sessions at once (psql coprocesses, pgbench) are shell
# scripts in test/t/sessions/ printing one result per check; each runs here against a fresh node
# of the installation under test, with idgen loaded per backend or preloaded as the script's mode
# asks: the fixed clock outside a session's own SET (startup options, postgresql.conf, ALTER
# SYSTEM, database settings), fresh backends, generator scope, the group registry cache,
# concurrent ledger appends, the UUIDv7 lead bound and the public-id key file (which also reads
# the node's server log: IDGEN_SERVER_LOG), and the attacks that need several sessions: a
# tenant probing a busy ledger hidden from it, a registry writer holding back DROPs, lock requests
# queued on idgen's objects to stall other roles' ids and DROPs, Snowflake ids on clocks pinned by
# roles that are not superusers, and clocks pinned for other sessions.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest::ShellChecks qw(run_shell_checks);

# script => [ [ mode argument, whether idgen is preloaded ], ... ]
my @runs = (
	[ 'fixed_clock_config', [ 'plain', 0 ], [ 'preloaded', 1 ] ],
	[ 'fresh_backends', [ 'plain', 0 ], [ 'preloaded', 1 ] ],
	[ 'generator_scope', [ 'backend', 0 ], [ 'server', 1 ] ],
	[ 'group_registry_cache', [ 'backend', 0 ], [ 'preloaded', 1 ] ],
	[ 'hidden_ledger_lock', [ undef, 0 ] ],
	[ 'ledger_append', [ undef, 0 ] ],
	[ 'lock_queue', [ 'backend', 0 ], [ 'server', 1 ] ],
	[ 'public_id_key_file', [ 'plain', 0 ], [ 'preloaded', 1 ] ],
	[ 'registry_drop', [ undef, 0 ] ],
	[ 'snowflake_pinned_clock', [ 'backend', 0 ], [ 'server', 1 ] ],
	[ 'uuidv7_lead', [ 'backend', 0 ], [ 'server', 1 ] ]);

for my $run (@runs)
{
	my ($script, @modes) = @$run;
	for my $mode (@modes)
	{
		my ($argument, $preloaded) = @$mode;
		my $node = PostgreSQL::Test::Cluster->new($script . ($preloaded ? '_preloaded' : ''));
		$node->init;
		$node->append_conf('postgresql.conf', "shared_preload_libraries = 'idgen'")
		  if $preloaded;
		$node->start;
		my @command = ('bash', "test/t/sessions/$script.sh", '--inside');
		push @command, $argument if defined $argument;
		my $passed = run_shell_checks(\@command,
			{
				PGHOST => $node->host,
				PGPORT => $node->port,
				PGDATABASE => 'postgres',
				IDGEN_SERVER_LOG => $node->logfile
			});
		cmp_ok($passed, '>', 0, "$script" . (defined $argument ? " ($argument)" : '') . ' passed checks');
		$node->stop;
	}
}

done_testing();
