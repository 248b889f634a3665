# idgen-test: majors=all tier=full
# Every SQL example of the docs runs as printed (test/t/doc_examples.sh extracts and runs them; one
# result per block), against a throwaway server of the installation under test.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest::ShellChecks qw(run_shell_checks);

my $node = PostgreSQL::Test::Cluster->new('docs');
$node->init;
$node->start;

my $passed = run_shell_checks(
	[ 'bash', 'test/t/doc_examples.sh' ],
	{
		PGHOST => $node->host,
		PGPORT => $node->port,
		PGDATABASE => 'postgres'
	});
cmp_ok($passed, '>', 50, 'the docs hold more than 50 SQL blocks that ran');

$node->stop;
done_testing();
