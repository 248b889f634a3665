# idgen-test: majors=15 tier=full
# The ORM recipes of docs/orm-recipes.md, run as printed: Django (Debian's python3-django),
# SQLAlchemy (python3-sqlalchemy) and Sequelize (npm, pinned in test/orms/package.json), each with
# keys the database generates through idgen, read back, looked up by their short URL form, the
# 28-digit key exact in the application and in JSON, and tables keyed by idgen.ulid and
# idgen.typeid (the text is the id: found by it, paged by it, another prefix finding nothing).
# Each recipe checks its own claims and prints one line per check; the page must show every
# recipe file verbatim and exactly the lines it prints, so the docs cannot drift from what runs.
# test/orms/prepare.sh installs the packages.
use strict;
use warnings;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest::Recipes qw(recipe_node page_blocks page_shows_file page_shows_output);
use IdgenTest::ShellChecks qw(run_shell_checks);

my $page = 'docs/orm-recipes.md';
my $blocks = page_blocks($page);

ok(-f 'test/orms/node_modules/sequelize/package.json',
	'Sequelize is installed in test/orms/node_modules (test/orms/prepare.sh)');

my ($node, $env) = recipe_node('orms');

# Each recipe with the number of checks it makes: a recipe that stops early prints fewer.
for my $recipe (
	[ 'test/orms/django_recipe.py', '/usr/bin/python3', 18 ],
	[ 'test/orms/sqlalchemy_recipe.py', '/usr/bin/python3', 16 ],
	[ 'test/orms/sequelize_recipe.js', 'node', 18 ])
{
	my ($file, $interpreter, $checks) = @$recipe;
	my ($passed, $out) =
	  run_shell_checks([ 'timeout', '120', $interpreter, $file ], $env);
	cmp_ok($passed, '>=', $checks, "$file ran its checks");
	page_shows_file($page, $blocks, $file);
	page_shows_output($page, $blocks, $file, $out);
}

$node->stop;
done_testing();
