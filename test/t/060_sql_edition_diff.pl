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

# Relocated: schema idgen becomes idgen_sqlx, idgen_internal idgen_sqlx_internal.
$script =~ s/\bidgen_internal\b/idgen_sqlx_internal/g;
$script =~ s/\bidgen\./idgen_sqlx./g;
$script =~ s/\bSCHEMA idgen\b/SCHEMA idgen_sqlx/g;
$script =~ s/'idgen'/'idgen_sqlx'/g;

my $node = PostgreSQL::Test::Cluster->new('editions');
$node->init;
$node->append_conf('postgresql.conf', 'idgen.node_id = 5');
$node->start;
$node->safe_psql('postgres',
	'CREATE DATABASE diff; ');
$node->safe_psql('diff', 'CREATE EXTENSION pgcrypto; CREATE EXTENSION idgen');
my ($status, $out, $err) = $node->psql('diff', $script, on_error_stop => 1);
is($status, 0, 'the relocated SQL edition installs beside idgen') or diag($err);
$node->safe_psql('diff', slurp_file('test/sql_edition/harness.sql'));

for my $file (sort glob('test/sql_edition/diff/*.sql'))
{
	my ($ran, $stdout, $stderr) =
	  $node->psql('diff', slurp_file($file), on_error_stop => 1, extra_params => ['-At']);
	is($ran, 0, "$file runs") or diag($stderr);
	for my $line (grep { /^DIFF / } split /\n/, $stdout)
	{
		my (undef, $label, $rows, $bad) = split / /, $line;
		is($bad, 0, "$file: $label, $rows inputs, same results");
	}
	diag($stderr) if $stderr =~ /WARNING/;
}

$node->stop;
done_testing();
