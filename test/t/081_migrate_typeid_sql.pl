# idgen-test: majors=15 tier=full
# docs/migrating.md, "From text TypeIDs (typeid-sql)": a schema keyed by TypeID text that
# typeid-sql's own functions make (its SQL files from ../shared/peers/typeid-sql-*.tar.gz, as
# bench/sql_edition.sh installs them), with the CHECK docs/typeid.md recommends on every key and
# reference, a cascading foreign key, a secondary index and a view, converted to idgen.typeid by
# the page's SQL blocks exactly as printed (and the page's LIKE example run as printed too).
# Afterwards: every column is idgen.typeid, every row and the view hold the same text in the same
# order, the CHECKs are the same and still refuse another prefix, the keys refuse and cascade,
# LIKE queries and lookups by text work (the latter through the indexes), and new ids come from
# idgen.new_typeid.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest::Migrating qw(migration_blocks peer_unpack);

my $unpacked = PostgreSQL::Test::Utils::tempdir('typeid_sql');
peer_unpack('typeid-sql', $unpacked);
my $sql_dir = "$unpacked/typeid-sql/sql";
my @peer_files = sort glob("$sql_dir/0*.sql");
is(scalar @peer_files, 4, "typeid-sql's SQL files are unpacked from its archive") or BAIL_OUT('no typeid-sql');

my @blocks = migration_blocks('typeid-sql');
is(scalar @blocks, 3, 'the section shows the LIKE example, the schema and the conversion');
my ($like_example, $schema, $conversion) = @blocks;

my $node = PostgreSQL::Test::Cluster->new('typeid_sql');
$node->init;
$node->start;
my $db = 'postgres';
sub sql
{
	my ($query) = @_;
	return $node->safe_psql($db, $query);
}

sql('CREATE EXTENSION idgen');
sql(slurp_file($_)) for @peer_files;
is(sql(q{SELECT typeid_print(typeid_parse('user_01h455vb4pex5vsknk084sn02q'))}),
	'user_01h455vb4pex5vsknk084sn02q', 'typeid-sql is installed');
is(sql($like_example), "user_01h455vb4pex5vsknk084sn02q\nuser_group_01h455vb4pex5vsknk084sn02q\nuser_01h455vb4pex5vsknk084sn02q",
	"the page's LIKE example: LIKE matches both prefixes, the range only the user");

sql($schema);
my $columns_of = q{SELECT string_agg(a.attrelid::regclass || '.' || a.attname, ', '
                  ORDER BY a.attrelid::regclass || '.' || a.attname)
FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
WHERE a.atttypid = 'TYPE'::regtype AND a.attnum > 0 AND c.relkind = 'r'
  AND a.attrelid::regclass::text IN ('users', 'posts') AND a.attname IN ('id', 'author')};
is(sql($columns_of =~ s/TYPE/text/r), 'posts.author, posts.id, users.id', "the page's schema keys by text");
# Ids made by typeid-sql's default; one known user, whose posts the checks look up.
sql(q{
INSERT INTO users VALUES ('user_01h455vb4pex5vsknk084sn02q', 'Grace');
INSERT INTO users (name) SELECT 'user ' || g FROM generate_series(1, 200) g;
INSERT INTO posts (author, title) SELECT u.id, 'post ' || g FROM users u, generate_series(1, 3) g;
ANALYZE;
});
is(sql(q{SELECT count(*) FROM posts WHERE id LIKE 'post\_%' AND author LIKE 'user\_%'}), '603',
	'LIKE on the text keys, before');

my $snapshot = q{
SELECT (SELECT md5(string_agg(id::text || ' ' || name, ',' ORDER BY id)) FROM users),
       (SELECT md5(string_agg(id::text || ' ' || author::text || ' ' || title, ',' ORDER BY id)) FROM posts),
       (SELECT md5(string_agg(id::text || ' ' || title || ' ' || author_name, ',' ORDER BY id)) FROM post_list)};
my $constraints = q{
SELECT string_agg(conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid), E'\n'
                  ORDER BY conrelid::regclass::text, conname)
FROM pg_constraint WHERE conrelid::regclass::text IN ('users', 'posts')};
my $indexes = q{
SELECT string_agg(indexrelid::regclass::text, ', ' ORDER BY indexrelid::regclass::text)
FROM pg_index WHERE indrelid::regclass::text IN ('users', 'posts')};
my %before = (
	snapshot => sql($snapshot),
	constraints => sql($constraints),
	indexes => sql($indexes),
	max_id => sql('SELECT max(id) FROM posts'));

my ($status, $out, $err) = $node->psql($db, $conversion, on_error_stop => 1);
is($status, 0, "the page's conversion runs as printed") or diag($err);
unlike($err, qr/ERROR|WARNING/, 'without an error or a warning');

is(sql($columns_of =~ s/TYPE/idgen.typeid/r), 'posts.author, posts.id, users.id', 'every key and reference is idgen.typeid');
is(sql($snapshot), $before{snapshot}, 'every row and the view: the same text in the same order');
is(sql($constraints), $before{constraints},
	'the same constraints with the same definitions: CHECK (idgen.typeid_valid(id, ...)) survives');
is(sql($indexes), $before{indexes}, 'the same indexes');
is(sql(q{SELECT count(*) FROM pg_index WHERE NOT indisvalid}), '0', 'every index valid');

# The CHECKs still refuse another prefix, in keys and references.
my ($ret, $stdout, $stderr) = $node->psql($db, q{INSERT INTO users VALUES ('post_01h455vb4pex5vsknk084sn02q', 'x')});
like($stderr, qr/violates check constraint "users_id_check"/, 'the CHECK refuses a post id as a user id');
($ret, $stdout, $stderr) = $node->psql($db,
	q{INSERT INTO posts (author, title) VALUES ('post_01h455vb4pex5vsknk084sn02q', 'x')});
like($stderr, qr/violates check constraint "posts_author_check"/, 'and as an author');
# The key refuses a missing user and cascades.
($ret, $stdout, $stderr) = $node->psql($db,
	q{INSERT INTO posts (author, title) VALUES ('user_7zzzzzzzzzzzzzzzzzzzzzzzzz', 'x')});
like($stderr, qr/violates foreign key constraint "posts_author_fkey"/, 'the foreign key refuses a missing user');

# LIKE and lookups by text; the indexes serve the lookups and the prefix's range.
is(sql(q{SELECT count(*) FROM posts WHERE id LIKE 'post\_%' AND author LIKE 'user\_%'}), '603', 'LIKE on the keys, after');
is(sql(q{SELECT count(*) FROM posts WHERE author = 'user_01h455vb4pex5vsknk084sn02q'}), '3', 'a user\'s posts by text');
my $plan = sql(q{SET enable_seqscan = off; SET enable_bitmapscan = off;
	EXPLAIN (COSTS OFF) SELECT * FROM posts WHERE author = 'user_01h455vb4pex5vsknk084sn02q'});
like($plan, qr/Index Scan using posts_author/, 'the secondary index serves a lookup by text');
$plan = sql(q{SET enable_seqscan = off;
	EXPLAIN (COSTS OFF) SELECT count(*) FROM users
	WHERE id BETWEEN 'user_00000000000000000000000000' AND 'user_7zzzzzzzzzzzzzzzzzzzzzzzzz'});
like($plan, qr/users_pkey/, "the primary key serves the prefix's range");
is(sql(q{DELETE FROM users WHERE id = 'user_01h455vb4pex5vsknk084sn02q';
         SELECT count(*) FROM posts WHERE author = 'user_01h455vb4pex5vsknk084sn02q'}), '0',
	'deleting a user cascades to the posts');
is(sql(q{SELECT count(*) FROM post_list}), '600', 'the view reads the new columns');

# New ids from idgen.new_typeid: the prefix, a UUIDv7, after the ids typeid-sql made.
my $new = sql(q{INSERT INTO users (name) VALUES ('new') RETURNING id});
like($new, qr/^user_[0-7][0-9a-hjkmnp-tv-z]{25}$/, 'a new user id from the default');
is(sql(qq{INSERT INTO posts (author, title) VALUES ('$new', 'new')
          RETURNING (id > '$before{max_id}')::text || ' ' || idgen.typeid_prefix(id) || ' ' || idgen.uuid_version(id::uuid)}),
	'true post 7', 'a new post id sorts after the old ones, with its prefix and a UUIDv7');

$node->stop;
done_testing();
