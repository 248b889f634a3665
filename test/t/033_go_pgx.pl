# idgen-test: majors=15 tier=full
# The Go recipe of docs/go-pgx.md, run as printed: pgx v4 (Debian's golang-github-jackc-pgx-v4-dev)
# with tables keyed by every id family idgen generates (COMB, UUIDv7, ULID, TypeID, Snowflake,
# DistributedId), each key read back as a Go value without losing a digit, looked up by its URL
# form, paged by the key and written to JSON, and the stack's traps shown failing next to their
# fixes. The recipe checks its own claims and prints one line per check; the page must show the
# recipe verbatim and exactly the lines it prints, so the docs cannot drift from what runs.
# test/stacks/go/prepare.sh (run by test/run-all.sh) builds the binary, keyed by the
# recipe's SHA-256, into /var/cache/idgen-stacks: a recipe changed since then is not built, and
# this test fails until prepare.sh runs again.
use strict;
use warnings;
use Digest::SHA qw(sha256_hex);
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest::Recipes qw(recipe_node page_blocks page_shows_file page_shows_output);
use IdgenTest::ShellChecks qw(run_shell_checks);

my $recipe = 'test/stacks/go/main.go';
my $code = slurp_file($recipe);
my $binary = '/var/cache/idgen-stacks/go-'
  . substr(sha256_hex($code), 0, 16)
  . '/idgen-go-recipe';

ok(-d '/usr/share/gocode/src/github.com/jackc/pgx/v4',
	'pgx v4 is installed (golang-github-jackc-pgx-v4-dev, test/stacks/go/prepare.sh)');
ok(-x $binary, "$recipe is built as $binary (test/stacks/go/prepare.sh)");

my $page = 'docs/go-pgx.md';
my $blocks = page_blocks($page);

# Snowflake ids need idgen preloaded and a node number.
my ($node, $env) = recipe_node('go_pgx', preload => 1);

my ($passed, $out) = run_shell_checks([ 'timeout', '60', $binary ], $env);
cmp_ok($passed, '>=', 48, "$recipe ran its checks");
page_shows_file($page, $blocks, $recipe, 'go');
page_shows_output($page, $blocks, $recipe, $out);

$node->stop;
done_testing();
