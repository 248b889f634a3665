# idgen-test: majors=15 tier=full
# Setting up Snowflake ids as a new user does: idgen.snowflake() on a server that lacks its
# prerequisites names every missing one in one message (docs/snowflake.md shows it verbatim), the
# statements of its hint work pasted into a fresh session, and so does the docs' own setup block;
# after a restart ids come with the node number chosen.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $page = slurp_file('docs/snowflake.md');
my ($setup) = $page =~ /^```sql setup\n(.*?)^```$/ms;
ok(defined $setup, 'docs/snowflake.md has its setup block');
my ($shown) = $page =~ /^```text\n(ERROR:  idgen\.snowflake\(\) needs.*?)^```$/ms;
ok(defined $shown, 'docs/snowflake.md shows the error of a server without the settings');

my $node = PostgreSQL::Test::Cluster->new('snowflake_setup');
$node->init;
# A server that already preloads another library, whose hint must keep it.
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'pg_stat_statements'");
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION idgen');

# snowflake_error(): what a fresh session gets from idgen.snowflake(), as psql prints it.
sub snowflake_error
{
	my ($ret, $out, $err) = $node->psql('postgres', 'SELECT idgen.snowflake()',
		extra_params => [ '-v', 'VERBOSITY=default' ]);
	$err =~ s/^psql:<stdin>:\d+: //mg;
	return $err;
}

# hint_statements(error): the statements of the error's hint, as a user copies them.
sub hint_statements
{
	my ($error) = @_;
	my ($hint) = $error =~ /^HINT:  As a superuser: (.*?)(?: then restart the server\.| Give each).*$/m;
	return $hint // '';
}

# 1. Neither setting: one error names both, with the statements.
my $both = snowflake_error();
like($both, qr/^ERROR:  idgen\.snowflake\(\) needs idgen\.node_id set and idgen in shared_preload_libraries$/m,
	'without both settings, one error names both');
like($both, qr/shared_preload_libraries = 'pg_stat_statements', 'idgen';/,
	'the hint keeps the library already preloaded');
is("$both\n", $shown, 'docs/snowflake.md shows that error verbatim') or diag($both);

# 2. Its hint, pasted into a fresh session (psql's own connection), then a restart.
my ($ret, $out, $err) = $node->psql('postgres', hint_statements($both));
is($ret, 0, "the hint's statements run in a fresh session") or diag($err);
$node->restart;
is($node->safe_psql('postgres', 'SELECT idgen.snowflake_node(idgen.snowflake())'),
	'1', 'after the restart ids carry node 1');
is($node->safe_psql('postgres', 'SHOW shared_preload_libraries'),
	'pg_stat_statements, idgen', 'pg_stat_statements is still preloaded');

# 3. Preloaded, the node number reset: the error names only that, and its hint needs no restart.
$node->safe_psql('postgres', 'ALTER SYSTEM RESET idgen.node_id');
$node->reload;
my $node_only = snowflake_error();
like($node_only, qr/^ERROR:  idgen\.snowflake\(\) needs idgen\.node_id set$/m,
	'preloaded without a node number: the error names the node number only');
unlike($node_only, qr/shared_preload_libraries/, 'and not the preload');
($ret, $out, $err) = $node->psql('postgres', hint_statements($node_only));
is($ret, 0, "its hint's statements run in a fresh session") or diag($err);
is($node->safe_psql('postgres', 'SELECT idgen.snowflake_node(idgen.snowflake())'),
	'1', 'and ids come without a restart');

# 4. A node number but no preload: the error names the preload only.
$node->safe_psql('postgres', 'ALTER SYSTEM RESET shared_preload_libraries');
$node->restart;
my $preload_only = snowflake_error();
like($preload_only, qr/^ERROR:  idgen\.snowflake\(\) needs idgen in shared_preload_libraries$/m,
	'a node number without the preload: the error names the preload only');
like($preload_only, qr/ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements', 'idgen'; then restart/,
	'with the statement and the restart');

# 5. The docs' setup block pasted into a fresh session of a server that has neither setting (on
# PostgreSQL 15 and 16 its LOAD is what makes ALTER SYSTEM SET idgen.node_id work there).
$node->safe_psql('postgres', 'ALTER SYSTEM RESET ALL');
$node->restart;
like(snowflake_error(), qr/needs idgen\.node_id set and idgen in shared_preload_libraries/,
	'the server has neither setting again');
($ret, $out, $err) = $node->psql('postgres', $setup);
is($ret, 0, "docs/snowflake.md's setup runs in a fresh session") or diag($err);
$node->restart;
is($node->safe_psql('postgres', 'SELECT idgen.snowflake_node(idgen.snowflake())'),
	'1', 'after the restart the docs\' setup makes ids of node 1');

$node->stop;
done_testing();
