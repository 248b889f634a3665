# idgen-test: majors=15 tier=full
# What docs/durability.md and docs/upgrading.md say of ids made while idgen is not preloaded
# (backend scope): each backend orders its own ids only, nothing of that state outlives the
# backend, and no generator mark covers them, so once idgen is preloaded again new ids may sort
# below them. A server without idgen preloaded makes UUIDv7s, ULIDs, DistributedId128s and plain
# sequence values and writes no mark; restarted with idgen preloaded and its wall clock 30 s
# behind (libfaketime, as an administrator's step or a VM restored from a snapshot would leave
# it), its server-wide ids sort below every one of those ids, and its mark lies below them too.
# The plain sequence next to them goes on above its earlier values.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest::ShiftedClock qw(start_shifted);

my $node = PostgreSQL::Test::Cluster->new('backend_scope');
$node->init;
$node->start;
my @generators = qw(uuidv7 ulid distributed_id128);
$node->safe_psql(
	'postgres', q{
CREATE EXTENSION idgen;
CREATE SEQUENCE plain;
CREATE TABLE ids (generator text, phase text, id uuid, n bigint DEFAULT nextval('plain'));});
my $insert = sub {
	my ($phase) = @_;
	return join ";\n",
	  map { "INSERT INTO ids (generator, phase, id) SELECT '$_', '$phase', idgen.$_() FROM generate_series(1, 2000)" }
	  @generators;
};
# Two sessions, each with its own generator state.
$node->safe_psql('postgres', "SELECT idgen.generator_scope(); " . $insert->('backend')) for 1 .. 2;
is( $node->safe_psql('postgres', 'SELECT idgen.generator_scope()')
	  . ' '
	  . (-e $node->data_dir . '/idgen_generator_mark' ? 'mark file' : 'no mark file'),
	'backend no mark file',
	'not preloaded: backend scope, and no generator mark is written');

$node->stop;
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'idgen'");
ok(start_shifted($node, -30), 'restarted with idgen preloaded, the wall clock 30 s behind');
$node->safe_psql('postgres', $insert->('server'));
is( $node->safe_psql(
		'postgres', q{
SELECT idgen.generator_scope(),
       (SELECT count(*) FROM ids s WHERE phase = 'server'
          AND id < (SELECT b.id FROM ids b WHERE b.phase = 'backend' AND b.generator = s.generator
                    ORDER BY b.id LIMIT 1)),
       (SELECT mark < (SELECT max(idgen.uuid_timestamp(id)) FROM ids WHERE phase = 'backend' AND generator = 'uuidv7')
        FROM idgen.generator_status('uuidv7')),
       (SELECT min(n) FROM ids WHERE phase = 'server') > (SELECT max(n) FROM ids WHERE phase = 'backend')}),
	'server|6000|t|t',
	'preloaded again: all 6 000 server-wide ids (UUIDv7, ULID, DistributedId128) sort below the '
	  . 'ids made without preloading, whose times no mark covers; the plain sequence goes on above its values'
);

$node->stop;
done_testing();
