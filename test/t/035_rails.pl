# idgen-test: majors=15 tier=full
# The Active Record recipe of docs/rails-activerecord.md, run as printed: Ruby, Active Record 6.1
# and ruby-pg from Debian (test/stacks/rails/prepare.sh), tables keyed by every idgen family made
# by an Active Record migration, each key read back, looked up by its URL form or text, paged by
# key and written to JSON with every digit; the traps (a Float key, JSON numbers, a BigDecimal in
# JSON, malformed text) next to their fixes; and the schema kept as structure.sql, loaded into a
# test database on the same server, against schema.rb, which loses idgen's types. The recipe
# checks its own claims and prints one line per check; the page must show every recipe file
# verbatim and exactly the lines the recipe prints, so the docs cannot drift from what runs.
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest::Recipes qw(recipe_node page_blocks page_shows_file page_shows_output);
use IdgenTest::ShellChecks qw(run_shell_checks);

my $page = 'docs/rails-activerecord.md';
my $blocks = page_blocks($page);

# A missing stack fails here rather than passing silently.
my ($stack_version, $stack_error) = run_command([ 'ruby', '-e',
	'require "active_record"; require "pg"; print ActiveRecord.version.segments.first(2).join(".")' ]);
is($stack_version, '6.1', 'Ruby, Active Record 6.1 and ruby-pg are installed (test/stacks/rails/prepare.sh)')
  or diag($stack_error);

my ($node, $env) = recipe_node('rails', preload => 1);

my @files = (
	'test/stacks/rails/db/migrate/20260301120000_create_keyed_tables.rb',
	'test/stacks/rails/config/initializers/idgen_types.rb',
	'test/stacks/rails/app/models.rb',
	'test/stacks/rails/recipe.rb');
my ($passed, $out) =
  run_shell_checks([ 'timeout', '120', 'ruby', 'test/stacks/rails/recipe.rb' ], $env);
cmp_ok($passed, '>=', 41, 'test/stacks/rails/recipe.rb ran its checks');
page_shows_file($page, $blocks, $_) for @files;
page_shows_output($page, $blocks, 'test/stacks/rails/recipe.rb', $out);

$node->stop;
done_testing();
