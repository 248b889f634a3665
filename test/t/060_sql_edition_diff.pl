# idgen-test: majors=15,18 tier=full
# The SQL edition gives idgen's results: one database holds both editions, idgen (C) in schema
# idgen and idgen_sql's plain script relocated into schema idgen_sqlx, and every script of
# test/sql_edition/diff feeds both the same inputs (test vectors, random valid, boundary and
# invalid values) through test/sql_edition/harness.sql, which compares results and SQLSTATEs and
# prints each mismatch with its input. Each compared function (and each cross-edition check: ids
# made by one edition read by the other) is one check.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

# The plain script, made from the sources as `make` makes it.
my $pg_config = $ENV{PG_CONFIG} // 'pg_config';
my $made = system("make -s --no-print-directory PG_CONFIG=$pg_config build/idgen_sql.sql >&2");
is($made, 0, 'make writes the plain script');
my $script = slurp_file('build/idgen_sql.sql');

# Relocated: schema idgen becomes idgen_sqlx, idgen_internal and idgen_lib idgen_sqlx_internal
# and idgen_sqlx_lib.
$script =~ s/\bidgen_(internal|lib)\b/idgen_sqlx_$1/g;
$script =~ s/\bidgen\./idgen_sqlx./g;
$script =~ s/\bSCHEMA idgen\b/SCHEMA idgen_sqlx/g;
$script =~ s/'idgen'/'idgen_sqlx'/g;

my $node = PostgreSQL::Test::Cluster->new('editions');
$node->init;
$node->append_conf('postgresql.conf', 'idgen.node_id = 5');
$node->start;
# The comparisons run as diff_user, the database's owner but neither a superuser nor the role
# that installed the editions: as an application role, which may use no schema of idgen_sql's
# state (a function that names one as its caller fails, and the comparison shows it).
$node->safe_psql('postgres', 'CREATE ROLE diff_user LOGIN');
$node->safe_psql('postgres', 'CREATE DATABASE diff OWNER diff_user');
$node->safe_psql('diff', 'CREATE EXTENSION pgcrypto; CREATE EXTENSION idgen');
my ($status, $out, $err) = $node->psql('diff', $script, on_error_stop => 1);
is($status, 0, 'the relocated SQL edition installs beside idgen') or diag($err);
# The node number of the SQL edition's Snowflake ids, as idgen.node_id above.
$node->safe_psql('diff', 'SELECT idgen_sqlx.set_node_id(5)');
$node->safe_psql('diff', slurp_file('test/sql_edition/harness.sql'));

# Same API: every function of idgen whose arguments and result are built-in types (or the domain
# idgen.distributed_id) exists in the SQL edition with the same arguments, defaults, result,
# volatility, strictness and parallel label. The rest take or return the base types that need C
# (idgen.ulid, idgen.typeid, idgen.event_id) or are support functions of such types (they take
# internal), which docs/sql-edition.md lists. One difference is deliberate: the generators that
# take their ticks from a sequence are PARALLEL UNSAFE where idgen's are RESTRICTED, since nextval
# refuses to run in parallel mode, which a restricted function's leader is in.
my %sequence_generators = map { $_ => 1 } ('distributed_id()', 'distributed_id128()', 'snowflake()');
# And one is left out: PostgreSQL takes no argument of type unknown in an SQL or PL/pgSQL function.
# idgen has typeid(unknown) so that a literal prefix does not have to choose between typeid(text)
# and new_typeid's type; without that type, a literal resolves to typeid(text) (060's typeid
# script checks it).
# to_ulid(unknown) and ulid_timestamp(unknown) keep a literal a uuid beside their idgen.ulid forms,
# which the SQL edition does not have either.
my %left_out = (
	'typeid(prefix unknown)' => 'no SQL function takes unknown',
	'to_ulid(id unknown)' => 'no SQL function takes unknown',
	'ulid_timestamp(id unknown)' => 'no SQL function takes unknown');
my $api = q{
	SELECT p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')',
	       pg_get_function_arguments(p.oid) || ' -> ' || pg_get_function_result(p.oid)
	       || ' ' || p.provolatile::text || p.proparallel::text
	       || CASE WHEN p.proisstrict THEN ' strict' ELSE '' END
	FROM pg_proc p
	WHERE p.pronamespace = 'SCHEMA'::regnamespace AND p.prokind IN ('f', 'p')
	  AND NOT EXISTS (
	    SELECT FROM unnest(coalesce(p.proallargtypes, p.proargtypes::oid[]) || p.prorettype) t(oid)
	    JOIN pg_type ty ON ty.oid = t.oid
	    WHERE (ty.typnamespace <> 'pg_catalog'::regnamespace
	           AND ty.oid IS DISTINCT FROM to_regtype('SCHEMA.distributed_id'))
	       OR ty.oid = 'internal'::regtype)
	ORDER BY 1};
my %sql_edition;
for my $row (split /\n/, $node->safe_psql('diff', $api =~ s/SCHEMA/idgen_sqlx/gr))
{
	$row =~ s/\bidgen_sqlx\./idgen./g;
	my ($name, $shape) = split /\|/, $row, 2;
	$sql_edition{$name} = $shape;
}
for my $row (split /\n/, $node->safe_psql('diff', $api =~ s/SCHEMA/idgen/gr))
{
	my ($name, $shape) = split /\|/, $row, 2;
	if ($left_out{$name})
	{
		ok(!exists $sql_edition{$name}, "idgen_sql has no idgen.$name ($left_out{$name})");
		next;
	}
	if ($sequence_generators{$name})
	{
		$shape =~ s/ vr$/ vu/;
		is($sql_edition{$name}, $shape, "idgen_sql has idgen.$name, with the same shape but PARALLEL UNSAFE");
		next;
	}
	is($sql_edition{$name}, $shape, "idgen_sql has idgen.$name, with the same shape");
}

for my $file (sort glob('test/sql_edition/diff/*.sql'))
{
	my ($ran, $stdout, $stderr) = $node->psql('diff', slurp_file($file),
		on_error_stop => 1, extra_params => [ '-At', '-U', 'diff_user' ]);
	is($ran, 0, "$file runs") or diag($stderr);
	for my $line (grep { /^DIFF / } split /\n/, $stdout)
	{
		my ($label, $rows, $bad) = $line =~ /^DIFF (.+) (\d+) (\d+)$/;
		is($bad, 0, "$file: $label, $rows inputs, same results");
	}
	diag($stderr) if $stderr =~ /WARNING/;
}

$node->stop;
done_testing();
