# idgen-test: majors=15 tier=full
# idgen through real client drivers, as applications use them: psycopg 3 (Debian's
# python3-psycopg) and node-postgres (npm pg, pinned in test/drivers/package.json and
# package-lock.json), against a server with idgen loaded per backend and one with it preloaded.
# Each script creates tables with idgen defaults, inserts with parameters, reads the ids back as
# the driver's own types and checks event ids in text and binary, public ids, the encoders,
# SQLSTATEs, and tables keyed by idgen.ulid and idgen.typeid (the text as the id: lookups and
# keyset pages with text parameters, the primary key's index in their plans, JSON; idgen's
# functions on their columns; in psycopg's binary cursors, str through the loaders
# docs/drivers.md prints, run as printed), printing one
# result per check (see test/drivers/). test/drivers/prepare.sh installs the drivers first
# (test/run-all.sh runs it).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest::ShellChecks qw(run_shell_checks);

ok(-f 'test/drivers/node_modules/pg/package.json',
	'node-postgres is installed in test/drivers/node_modules (test/drivers/prepare.sh)');

for my $mode ('backend', 'preloaded')
{
	my $node = PostgreSQL::Test::Cluster->new($mode);
	$node->init;
	$node->append_conf('postgresql.conf', "shared_preload_libraries = 'idgen'")
	  if $mode eq 'preloaded';
	$node->start;
	$node->safe_psql('postgres', 'CREATE EXTENSION idgen');
	my %env = (
		PGHOST => $node->host,
		PGPORT => $node->port,
		PGDATABASE => 'postgres',
		PGAPPNAME => "idgen-drivers-$mode");
	# Each script's number of checks: one that stops early prints fewer.
	cmp_ok(run_shell_checks([ 'timeout', '60', '/usr/bin/python3', 'test/drivers/idgen_psycopg.py' ], \%env),
		'>=', 95, "$mode: psycopg ran its checks");
	cmp_ok(run_shell_checks([ 'timeout', '60', 'node', 'test/drivers/idgen_node_pg.js' ], \%env),
		'>=', 80, "$mode: node-postgres ran its checks");
	$node->stop;
}

done_testing();
