# idgen-test: majors=15 tier=full
# The Drizzle recipe of docs/drizzle.md, run as printed: Drizzle ORM, drizzle-kit and
# node-postgres (npm, pinned in test/stacks/drizzle/package.json and package-lock.json, installed
# by test/stacks/drizzle/prepare.sh), with tables keyed by each idgen family. drizzle-kit generate
# writes the migration from schema.ts and drizzle-kit migrate applies it to a throwaway server;
# then the recipe (recipe.ts, run by tsx) inserts, reads back, looks up by URL id, pages and
# serialises each family's keys and shows the stack's traps, one printed line per check. The page
# must show every file verbatim, the SQL drizzle-kit generates and exactly what the recipe prints,
# so the docs cannot drift from what runs; the files must also pass TypeScript's strict check.
use strict;
use warnings;
use Cwd qw(getcwd);
use IPC::Run;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest::Recipes qw(recipe_node page_blocks page_shows_file page_shows_output);
use IdgenTest::ShellChecks qw(run_shell_checks);

my $stack = 'test/stacks/drizzle';
my $page = 'docs/drizzle.md';
my $blocks = page_blocks($page);

ok( (grep { -f "$stack/node_modules/$_/package.json" } qw(drizzle-orm drizzle-kit pg tsx zod typescript))
	  == 6,
	"Drizzle ORM, drizzle-kit, pg, tsx, Zod and TypeScript are installed in $stack/node_modules "
	  . "($stack/prepare.sh)");

# Snowflake ids need the shared generator and a node number.
my ($node, $server_env) = recipe_node('drizzle', preload => 1);
my $migrations = PostgreSQL::Test::Utils::tempdir;
my %env = (%$server_env, DRIZZLE_OUT => $migrations, NO_COLOR => '1');

# The commands run in the stack's directory, where drizzle.config.ts and node_modules are.
my $top = getcwd();
chdir $stack or die "chdir $stack: $!";

# run_here(@command): runs it with %env; returns whether it succeeded and what it printed.
sub run_here
{
	my @command = @_;
	my $out = '';
	local %ENV = (%ENV, %env);
	my $ran = IPC::Run::run([ 'timeout', '120', @command ], '>&', \$out);
	return ($ran, $out);
}

my ($ran, $out) = run_here('node_modules/.bin/tsc', '-p', '.');
ok($ran, 'the recipe\'s files pass tsc --strict') or diag($out);

($ran, $out) = run_here('node_modules/.bin/drizzle-kit', 'generate', '--name', 'idgen_keys');
ok($ran, 'drizzle-kit generate wrote the migration') or diag($out);
my $sql_file = "$migrations/0000_idgen_keys.sql";
my $sql = -f $sql_file ? slurp_file($sql_file) : '';
ok((grep { $_->{info} eq 'sql' && $_->{text} eq $sql } @$blocks),
	'docs/drizzle.md shows the SQL drizzle-kit generates')
  or diag($sql);

($ran, $out) = run_here('node_modules/.bin/drizzle-kit', 'migrate');
ok($ran, 'drizzle-kit migrate applied it') or diag($out);

# The number of checks the recipe makes: one that stops early prints fewer.
my ($passed, $recipe_out) =
  run_shell_checks([ 'timeout', '120', 'node_modules/.bin/tsx', 'recipe.ts' ], \%env);
cmp_ok($passed, '>=', 43, 'recipe.ts ran its checks');

chdir $top or die "chdir $top: $!";
page_shows_file($page, $blocks, "$stack/$_")
  for qw(drizzle.config.ts recipe.ts schema.ts tsconfig.json);
page_shows_output($page, $blocks, 'recipe.ts', $recipe_out);

$node->stop;
done_testing();
