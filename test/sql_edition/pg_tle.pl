# The SQL edition installs through pg_tle, as on a managed service that offers it: on a server
# with pg_tle and without idgen_sql's files (test/run-all.sh's sql_edition suite runs this script
# against such a copy of an installation, on PostgreSQL 15 and 18), a database owner that is not a
# superuser but holds pgtle_admin (what services grant their administrators) runs
# build/idgen_sql_pg_tle.sql, then CREATE EXTENSION idgen_sql, and gets what the plain script
# makes; DROP EXTENSION and pgtle.uninstall_extension remove it.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $pg_config = $ENV{PG_CONFIG} // 'pg_config';
my $sharedir = `$pg_config --sharedir`;
chomp $sharedir;
ok(!-e "$sharedir/extension/idgen_sql.control",
	'the installation has no idgen_sql control file (pg_tle refuses a name that has one)');
ok(-e "$sharedir/extension/pg_tle.control", 'the installation has pg_tle');
is(system("make -s --no-print-directory PG_CONFIG=$pg_config build/idgen_sql.sql build/idgen_sql_pg_tle.sql >&2"),
	0, 'make writes the plain script and the pg_tle installer');
my $fingerprint = slurp_file('test/sql_edition/fingerprint.sql');

my $node = PostgreSQL::Test::Cluster->new('sql_edition_pg_tle');
$node->init;
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'pg_tle'");
$node->start;
$node->safe_psql('postgres', q{
	CREATE ROLE app_owner LOGIN;
	CREATE DATABASE with_tle OWNER app_owner;
	CREATE DATABASE with_script OWNER app_owner;
});
$node->safe_psql('with_tle', 'CREATE EXTENSION pg_tle; GRANT pgtle_admin TO app_owner');

# as_owner($database, $sql[, $file]): psql as app_owner, running $sql or the script $file (with
# -f: psql may stop reading before its end), returning (status, stdout, stderr).
sub as_owner
{
	my ($database, $sql, $file) = @_;
	return $node->psql($database, $sql, on_error_stop => 1,
		extra_params => [ '-U', 'app_owner', defined $file ? ('-f', $file) : () ]);
}

as_owner($_, 'CREATE EXTENSION pgcrypto') for ('with_tle', 'with_script');
my ($status, $out, $err) = as_owner('with_tle', '', 'build/idgen_sql_pg_tle.sql');
is($status, 0, 'the pg_tle installer runs as a database owner with pgtle_admin') or diag($err);
($status, $out, $err) = as_owner('with_tle', 'CREATE EXTENSION idgen_sql');
is($status, 0, 'then CREATE EXTENSION idgen_sql') or diag($err);
is($node->safe_psql('with_tle',
	q{SELECT extversion FROM pg_extension WHERE extname = 'idgen_sql'}), '0.4.0',
	'at the version of the control file');

($status, $out, $err) = as_owner('with_script', '', 'build/idgen_sql.sql');
is($status, 0, 'the plain script beside it') or diag($err);
is($node->safe_psql('with_tle', $fingerprint), $node->safe_psql('with_script', $fingerprint),
	'pg_tle makes what the plain script makes');

($status, $out, $err) = as_owner('with_tle',
	q{DROP EXTENSION idgen_sql; SELECT pgtle.uninstall_extension('idgen_sql')});
is($status, 0, 'DROP EXTENSION and pgtle.uninstall_extension') or diag($err);
is($node->safe_psql('with_tle',
	q{SELECT count(*) FROM pgtle.available_extensions() WHERE name = 'idgen_sql'}), '0',
	'nothing of idgen_sql is left in pg_tle');

$node->stop;
done_testing();
