# idgen-test: majors=15 tier=full
# The Java recipe of docs/java-jdbc.md, run as printed: JDBC (Java 17, Debian's pgjdbc 42.5) with
# tables keyed by every id family through their column DEFAULTs (COMB, UUIDv7, Snowflake,
# DistributedId, ULID, TypeID), the keys read back as Java types with no loss, looked up by their
# URL forms, paged by keyset, written to JSON as strings, and the stack's traps next to their
# fixes. The recipe checks its own claims and prints one line per check; the page must show the
# recipe verbatim and exactly the lines it prints, so the docs cannot drift from what runs.
# test/stacks/java/prepare.sh installs the packages and compiles the recipe into a cache keyed by
# its source; pgjdbc connects over TCP only, so the server also listens on 127.0.0.1.
use strict;
use warnings;
use Digest::SHA qw(sha256_hex);
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest::Recipes qw(recipe_node page_blocks page_shows_file page_shows_output);
use IdgenTest::ShellChecks qw(run_shell_checks);

my $recipe = 'test/stacks/java/IdgenJdbc.java';
my $jar = '/usr/share/java/postgresql.jar';
my $code = slurp_file($recipe);
my $classes = '/var/cache/idgen-stacks/java-' . substr(sha256_hex($code), 0, 16);

my $page = 'docs/java-jdbc.md';
my $blocks = page_blocks($page);

like(scalar(`java -version 2>&1`), qr/version "(1[7-9]|[2-9][0-9])[".]/,
	'Java 17 or later is installed (test/stacks/java/prepare.sh)');
ok(-f $jar, "pgjdbc is installed as $jar (test/stacks/java/prepare.sh)");
my $compiled = ok(-f "$classes/IdgenJdbc.class",
	"test/stacks/java/prepare.sh compiled this $recipe into $classes");

my ($node, $env) = recipe_node('jdbc', preload => 1, tcp => 1);

# Without the compiled classes (already a failure above), the source still runs, 2 s slower.
my @java = $compiled
  ? ('java', '-cp', "$classes:$jar", 'IdgenJdbc')
  : ('java', '-cp', $jar, $recipe);
my ($passed, $out) = run_shell_checks([ 'timeout', '120', @java ], $env);
cmp_ok($passed, '>=', 54, "$recipe ran its checks");
page_shows_file($page, $blocks, $recipe);
page_shows_output($page, $blocks, $recipe, $out);

$node->stop;
done_testing();
