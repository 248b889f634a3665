# idgen-test: majors=15 tier=full
# Concurrency: for every generator, 16 pgbench sessions insert 100 000 ids each into a table with
# a unique index, every transaction on a new connection (pgbench -C), so each of the 1 600
# transactions runs in a freshly forked backend and the random stream's fork safety is exercised;
# once with idgen loaded per backend and once preloaded (server-wide generator state). Zero
# duplicates: no unique violation, and 1 600 000 distinct ids per generator. Snowflake ids run only
# preloaded: loaded per backend, idgen.snowflake() must refuse (each backend would count alone).
use strict;
use warnings;
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my @generators = (
	[ 'comb', 'uuid', 'idgen.comb()' ],
	[ 'comb_seq', 'uuid', q{idgen.comb_seq('key_seq')} ],
	[ 'uuidv7', 'uuid', 'idgen.uuidv7()' ],
	[ 'distributed_id', 'idgen.distributed_id', 'idgen.distributed_id()' ],
	[ 'distributed_id128', 'uuid', 'idgen.distributed_id128()' ],
	[ 'group_uuid', 'uuid', q{idgen.group_uuid(672, nextval('key_seq'))} ],
	[ 'ulid', 'uuid', 'idgen.ulid()' ],
	[ 'typeid', 'text', q{idgen.typeid('user')} ],
	[ 'snowflake', 'bigint', 'idgen.snowflake()', 'preloaded' ]);

for my $mode ('backend', 'preloaded')
{
	my $node = PostgreSQL::Test::Cluster->new($mode);
	$node->init;
	$node->append_conf('postgresql.conf', "shared_preload_libraries = 'idgen'")
	  if $mode eq 'preloaded';
	$node->append_conf('postgresql.conf', 'synchronous_commit = off');
	$node->append_conf('postgresql.conf', 'idgen.node_id = 3');
	$node->start;
	$node->safe_psql('postgres', 'CREATE EXTENSION idgen; CREATE SEQUENCE key_seq');
	my $dir = PostgreSQL::Test::Utils::tempdir;
	for my $generator (@generators)
	{
		my ($name, $type, $expr, $only) = @$generator;
		if (defined $only && $only ne $mode)
		{
			my ($ret, $stdout, $stderr) = $node->psql('postgres', "SELECT $expr");
			like($stderr, qr/needs idgen in shared_preload_libraries/,
				"$mode: $name: refused, as sessions would count alone");
			next;
		}
		$node->safe_psql('postgres', "CREATE TABLE ids_$name (id $type NOT NULL UNIQUE)");
		PostgreSQL::Test::Utils::append_to_file("$dir/$name.sql",
			"INSERT INTO ids_$name SELECT $expr FROM generate_series(1, 1000);\n");
		my ($out, $err) = ('', '');
		my $ran = IPC::Run::run(
			[
				'pgbench', '-n', '-C', '-c', '16', '-j', '2', '-t', '100',
				'-f', "$dir/$name.sql", '-h', $node->host, '-p', $node->port, 'postgres'
			],
			'>', \$out, '2>', \$err);
		ok($ran && $err !~ /ERROR|duplicate key/,
			"$mode: $name: 16 pgbench sessions, a new connection per transaction, no error")
		  or diag($err);
		is( $node->safe_psql(
				'postgres', "SELECT count(*) || ' ' || count(DISTINCT id) FROM ids_$name"),
			'1600000 1600000',
			"$mode: $name: 1 600 000 ids, all distinct");
		$node->safe_psql('postgres', "DROP TABLE ids_$name");
	}
	$node->stop;
}

done_testing();
