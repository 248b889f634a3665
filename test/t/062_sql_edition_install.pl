# idgen-test: majors=all tier=full
# The SQL edition installs as a user of a managed service installs it: a role that is not a
# superuser (and so may not use C or any untrusted language), owning its database, with the
# trusted pgcrypto. CREATE EXTENSION idgen_sql (a trusted extension) and the plain script
# build/idgen_sql.sql make the same objects; the plain script stops at the first error and leaves
# nothing behind; an application role can call the functions but cannot change or read the
# SQL edition's state; every installable version updates to the current one as a fresh install;
# DROP EXTENSION removes everything. The pg_tle installer is tested by
# test/sql_edition/pg_tle.pl, on an installation without idgen_sql's files.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $pg_config = $ENV{PG_CONFIG} // 'pg_config';
is(system("make -s --no-print-directory PG_CONFIG=$pg_config build/idgen_sql.sql >&2"),
	0, 'make writes the plain script');
my $fingerprint = slurp_file('test/sql_edition/fingerprint.sql');

my $node = PostgreSQL::Test::Cluster->new('sql_edition_install');
$node->init;
$node->start;
$node->safe_psql('postgres', q{
	CREATE ROLE app_owner LOGIN;
	CREATE ROLE app_user LOGIN;
	CREATE DATABASE with_extension OWNER app_owner;
	CREATE DATABASE with_script OWNER app_owner;
});
is($node->safe_psql('postgres', q{SELECT rolsuper FROM pg_roles WHERE rolname = 'app_owner'}),
	'f', 'the installing role is not a superuser');

# as_role($role, $database, $sql[, $file]): psql as that role, running $sql, or the script
# $file (with -f: psql may stop reading before its end), returning (status, stdout, stderr).
sub as_role
{
	my ($role, $database, $sql, $file) = @_;
	return $node->psql($database, $sql, on_error_stop => 1,
		extra_params => [ '-U', $role, defined $file ? ('-f', $file) : () ]);
}

my ($status, $out, $err) = as_role('app_owner', 'with_extension',
	'CREATE EXTENSION pgcrypto; CREATE EXTENSION idgen_sql');
is($status, 0, 'CREATE EXTENSION idgen_sql as the database owner') or diag($err);

# The plain script, run by the database owner: first a failure half-way (no pgcrypto yet, if the
# script needs it; else a schema idgen that exists) must leave nothing behind.
$node->safe_psql('with_script', 'CREATE SCHEMA idgen AUTHORIZATION app_owner');
($status, $out, $err) = as_role('app_owner', 'with_script', '', 'build/idgen_sql.sql');
isnt($status, 0, 'the plain script stops where schema idgen exists');
like($err, qr/schema "idgen" already exists/, 'and says why');
is($node->safe_psql('with_script',
	q{SELECT count(*) FROM pg_namespace WHERE nspname = 'idgen_internal'}),
	'0', 'and leaves nothing behind');
$node->safe_psql('with_script', 'DROP SCHEMA idgen');
as_role('app_owner', 'with_script', 'CREATE EXTENSION pgcrypto');
($status, $out, $err) = as_role('app_owner', 'with_script', '', 'build/idgen_sql.sql');
is($status, 0, 'the plain script as the database owner') or diag($err);

is($node->safe_psql('with_extension',
	q{SELECT count(*) FROM pg_class WHERE relnamespace = 'idgen_lib'::regnamespace AND relkind <> 'c'}),
	'0', 'idgen_lib, which every role may use, holds no relation (nothing to queue a lock on)');
my $made = $node->safe_psql('with_extension', $fingerprint);
cmp_ok(scalar(split /\n/, $made), '>', 2, 'the extension made objects');
is($node->safe_psql('with_script', $fingerprint), $made,
	'the plain script makes what the extension makes');

# An application role: no USAGE beyond calling functions, nothing of idgen_internal readable.
for my $database ('with_extension', 'with_script')
{
	my $tables = $node->safe_psql($database, q{
		SELECT string_agg(c.oid::regclass::text, ' ' ORDER BY 1) FROM pg_class c
		JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE n.nspname = 'idgen_internal' AND c.relkind IN ('r', 'S', 'v', 'm', 'p')});
	for my $table (split / /, $tables)
	{
		($status, $out, $err) = as_role('app_user', $database, "SELECT * FROM $table");
		isnt($status, 0, "$database: an application role cannot read $table");
	}
	# What an application role calls works: generators, encoders and decoders of every family,
	# SQL-standard and PL/pgSQL ones (which look their helpers up as the caller).
	($status, $out, $err) = as_role('app_user', $database, q{
		SELECT idgen.comb_valid(idgen.comb()) AND idgen.comb_bound(now()) IS NOT NULL
		   AND idgen.uuid_version(idgen.uuidv7()) = 7
		   AND idgen.ulid_to_uuid(idgen.to_ulid(idgen.ulid())) IS NOT NULL
		   AND idgen.typeid_valid(idgen.typeid('user'), 'user')
		   AND idgen.distributed_id_timestamp(idgen.distributed_id()) IS NOT NULL
		   AND idgen.distributed_id128_timestamp(idgen.distributed_id128()) IS NOT NULL
		   AND idgen.alphanumeric_to_bigint(idgen.to_alphanumeric(12345::bigint)) = 12345
		   AND idgen.public_id_to_bigint(idgen.public_id(7::bigint, '\x000102030405060708090a0b0c0d0e0f'::bytea),
		                                 '\x000102030405060708090a0b0c0d0e0f'::bytea) = 7
		   AND idgen.group_uuid_group(idgen.group_uuid(672, 1)) = 672
		   AND idgen.crc32c('abc'::bytea) > 0
		   AND idgen.event_id_micros(idgen.event_id(1, 2, 3)) = 1});
	is($status . $out, '0t', "$database: an application role calls every family's functions") or diag($err);
	($status, $out, $err) = as_role('app_user', $database,
		'CREATE FUNCTION idgen.planted() RETURNS int LANGUAGE sql RETURN 1');
	isnt($status, 0, "$database: an application role cannot create objects in schema idgen");
}

# Updates, as the update test does for idgen: every version of idgen_sql that the installation
# has must reach the control file's version by ALTER EXTENSION UPDATE (a version script without
# its update path fails here), an update from each equals a fresh install, and UPDATE on a fresh
# install changes nothing. 0.4.0 is idgen_sql's first version: it has no earlier one yet.
my ($sql_edition_version) = slurp_file('idgen_sql.control') =~ /^default_version\s*=\s*'([^']+)'/m;
is($node->safe_psql('with_extension',
	q{SELECT extversion FROM pg_extension WHERE extname = 'idgen_sql'}),
	$sql_edition_version, 'CREATE EXTENSION idgen_sql installs the control file\'s version');
my @unreachable = split /\n/, $node->safe_psql('with_extension', qq{
	SELECT v.version FROM pg_available_extension_versions v
	WHERE v.name = 'idgen_sql' AND v.version <> '$sql_edition_version'
	  AND NOT EXISTS (SELECT FROM pg_extension_update_paths('idgen_sql') p
	                  WHERE p.source = v.version AND p.target = '$sql_edition_version' AND p.path IS NOT NULL)});
is_deeply(\@unreachable, [], "every installable version of idgen_sql updates to $sql_edition_version");
for my $old (split /\n/, $node->safe_psql('with_extension', qq{
	SELECT source FROM pg_extension_update_paths('idgen_sql')
	WHERE target = '$sql_edition_version' AND path IS NOT NULL ORDER BY 1}))
{
	$node->safe_psql('postgres', "CREATE DATABASE updated_from_$old OWNER app_owner" =~ s/\./_/gr);
	my $database = "updated_from_$old" =~ s/\./_/gr;
	as_role('app_owner', $database,
		"CREATE EXTENSION pgcrypto; CREATE EXTENSION idgen_sql VERSION '$old'; ALTER EXTENSION idgen_sql UPDATE");
	is($node->safe_psql($database, $fingerprint), $made, "idgen_sql updated from $old equals a fresh install");
}
($status, $out, $err) = as_role('app_owner', 'with_extension', 'ALTER EXTENSION idgen_sql UPDATE');
is($status, 0, 'ALTER EXTENSION idgen_sql UPDATE on a fresh install') or diag($err);
is($node->safe_psql('with_extension', $fingerprint), $made, 'and it changes nothing');

($status, $out, $err) = as_role('app_owner', 'with_extension', 'DROP EXTENSION idgen_sql');
is($status, 0, 'DROP EXTENSION idgen_sql as its owner') or diag($err);
is($node->safe_psql('with_extension',
	q{SELECT count(*) FROM pg_namespace WHERE nspname IN ('idgen', 'idgen_internal')}),
	'1', 'it leaves only the schema idgen that CREATE EXTENSION made');

$node->stop;
done_testing();
