# The ORM recipes of docs/orm-recipes.md, run as printed: Django (Debian's python3-django),
# SQLAlchemy (python3-sqlalchemy) and Sequelize (npm, pinned in test/orms/package.json), each with
# keys the database generates through idgen, read back, looked up by their short URL form, the
# 28-digit key exact in the application and in JSON, and tables keyed by idgen.ulid and
# idgen.typeid (the text is the id: found by it, paged by it, another prefix finding nothing).
# Each recipe checks its own claims and prints one line per check; the page must show every
# recipe file verbatim and exactly the lines it prints, so the docs cannot drift from what runs.
# test/drivers/prepare.sh installs the packages.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest::ShellChecks qw(run_shell_checks);

my $page = slurp_file('docs/orm-recipes.md');
# The fenced blocks of the page, in order, with the first word of their info strings (```sql
# error=23514 is an sql block).
my @blocks;
push @blocks, { info => $1, text => $2 } while $page =~ /^```(\S*)[^\n]*\n(.*?)^```$/msg;

ok(-f 'test/orms/node_modules/sequelize/package.json',
	'Sequelize is installed in test/orms/node_modules (test/drivers/prepare.sh)');

my $node = PostgreSQL::Test::Cluster->new('orms');
$node->init;
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION idgen');
my %env = (
	PGHOST => $node->host,
	PGPORT => $node->port,
	PGUSER => scalar(getpwuid($<)),
	PGDATABASE => 'postgres');

# Each recipe with the number of checks it makes: a recipe that stops early prints fewer.
for my $recipe (
	[ 'test/orms/django_recipe.py', '/usr/bin/python3', 18 ],
	[ 'test/orms/sqlalchemy_recipe.py', '/usr/bin/python3', 16 ],
	[ 'test/orms/sequelize_recipe.js', 'node', 18 ])
{
	my ($file, $interpreter, $checks) = @$recipe;
	my ($passed, $out) =
	  run_shell_checks([ 'timeout', '120', $interpreter, $file ], \%env);
	cmp_ok($passed, '>=', $checks, "$file ran its checks");
	my $code = slurp_file($file);
	ok((grep { $_->{text} eq $code } @blocks),
		"docs/orm-recipes.md shows $file verbatim");
	ok((grep { $_->{info} eq 'text' && $_->{text} eq $out } @blocks),
		"docs/orm-recipes.md shows exactly what $file prints")
	  or diag($out);
}

$node->stop;
done_testing();
