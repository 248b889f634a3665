# idgen-test: majors=all tier=quick
# Server scope survives a crash: a server with idgen preloaded hands out ids from every generator
# to 4 concurrent sessions, is stopped with -m immediate (no shutdown checkpoint: crash recovery
# on the next start, the server-wide generator state rebuilt from nothing), starts again and keeps
# handing out ids. The tables' unique indexes see no duplicate, before or after, and the scope is
# still the server's.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest::Sessions qw(run_concurrently);

my $node = PostgreSQL::Test::Cluster->new('restart');
$node->init;
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'idgen'");
$node->start;

my %generators = (
	comb => [ 'uuid', 'idgen.comb()' ],
	uuidv7 => [ 'uuid', 'idgen.uuidv7()' ],
	distributed_id => [ 'idgen.distributed_id', 'idgen.distributed_id()' ],
	distributed_id128 => [ 'uuid', 'idgen.distributed_id128()' ],
	group_uuid => [ 'uuid', q{idgen.group_uuid(672, nextval('key_seq'))} ],
	comb_seq => [ 'uuid', q{idgen.comb_seq('key_seq')} ]);
$node->safe_psql('postgres', 'CREATE EXTENSION idgen; CREATE SEQUENCE key_seq');
for my $name (sort keys %generators)
{
	$node->safe_psql('postgres',
		"CREATE TABLE ids_$name (id $generators{$name}[0] NOT NULL UNIQUE, phase text NOT NULL)");
}

# 4 concurrent sessions, 50 000 ids of every generator each.
sub burst
{
	my ($phase) = @_;
	my $sql = join ";\n",
	  map { "INSERT INTO ids_$_ SELECT $generators{$_}[1], '$phase' FROM generate_series(1, 50000)" }
	  sort keys %generators;
	return run_concurrently($node, 'postgres', [ ($sql) x 4 ]);
}

is(burst('before'), 0,
	'before the crash: 4 sessions x 50 000 ids of 6 generators, no unique violation');
is($node->safe_psql('postgres', 'SELECT idgen.generator_scope()'),
	'server', 'the generator state is the server\'s');

$node->stop('immediate');
$node->start;
ok($node->log_contains('database system was interrupted|not properly shut down'),
	'the server restarted through crash recovery');
is($node->safe_psql('postgres', 'SELECT idgen.generator_scope()'),
	'server', 'after the restart the generator state is again the server\'s');
is(burst('after'), 0,
	'after the crash: 4 sessions x 50 000 more ids of every generator, no unique violation');
for my $name (sort keys %generators)
{
	is( $node->safe_psql('postgres',
			"SELECT count(*) || ' ' || count(DISTINCT id) FROM ids_$name"),
		'400000 400000',
		"$name: 400 000 ids across the crash, all distinct");
}

$node->stop;
done_testing();
