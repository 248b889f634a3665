# idgen-test: majors=all tier=quick
# Rotating the public-id key as docs/public-id.md ("Rotating the key") tells, end to end, with idgen
# loaded per backend and preloaded: public ids made under key A; B staged after A (it decodes, A
# still encodes); a new key file with B first and A after it, switched to with a reload: old
# public ids still decode (bigint and DistributedId forms by themselves, the uuid form through
# public_id_to_uuids), new ones are made under B (compared with OpenSSL's AES outside the server)
# and decode; the ring shows its check values, current first; A retired: its public ids stop
# decoding. Bad rings (the same key twice, too many keys, a bad second key) are refused with their
# own errors. No key, in base64 or hex, reaches an error, the server log (log_statement = all) or
# an ordinary role.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use File::Spec;
use IPC::Run qw(run);
use MIME::Base64 qw(decode_base64);
use IdgenTest::KeyFile qw(random_key write_key_file);

# aes_hex($key_text, $block_hex): AES-256 of one block under the base64 key, by OpenSSL's command.
sub aes_hex
{
	my ($key_text, $block_hex) = @_;
	my $key_hex = unpack('H*', decode_base64($key_text));
	my ($out, $err);
	run([ 'openssl', 'enc', '-aes-256-ecb', '-nopad', '-K', $key_hex ],
		'<', \pack('H*', $block_hex), '>', \$out, '2>', \$err)
	  or die "openssl: $err";
	return unpack('H*', $out);
}

# public_id_of_bigint($key_text, $v): the public id of a bigint (docs/public-id.md, "Format").
sub public_id_of_bigint
{
	my ($key_text, $v) = @_;
	my $c = aes_hex($key_text, ('00' x 8) . unpack('H*', pack('Q<', $v)));
	my @b = $c =~ /(..)/g;
	my $u = join('', @b[ 3, 2, 1, 0, 5, 4, 7, 6, 8 .. 15 ]);
	return join('-', unpack('A8 A4 A4 A4 A12', $u));
}

sub key_check_of
{
	my ($key_text) = @_;
	return substr(aes_hex($key_text, "00" x 16), 0, 6);
}

for my $preloaded (0, 1)
{
	my $mode = $preloaded ? 'preloaded' : 'per backend';
	my $node = PostgreSQL::Test::Cluster->new('key_ring' . ($preloaded ? '_preloaded' : ''));
	$node->init;
	$node->append_conf('postgresql.conf', "shared_preload_libraries = 'idgen'") if $preloaded;
	$node->append_conf('postgresql.conf', "log_statement = 'all'\nlog_min_messages = debug1");
	$node->start;
	$node->safe_psql('postgres', 'CREATE EXTENSION idgen; CREATE ROLE app LOGIN');
	# Absolute: the server resolves a relative path from its data directory, and the TAP framework
	# of PostgreSQL 16 and later names data directories relative to the test's directory.
	my $dir = File::Spec->rel2abs($node->data_dir . '/keys');
	mkdir $dir, 0700 or die "$dir: $!";
	my ($key_a, $key_b) = (random_key(), random_key());
	my ($check_a, $check_b) = (key_check_of($key_a), key_check_of($key_b));

	# use_key_file($path): points the setting at $path and waits until new sessions have it.
	my $use_key_file = sub {
		my ($path) = @_;
		$node->safe_psql('postgres',
			"LOAD 'idgen'; ALTER SYSTEM SET idgen.public_id_key_file = '$path'; SELECT pg_reload_conf()");
		$node->poll_query_until('postgres',
			"SELECT current_setting('idgen.public_id_key_file') = '$path'")
		  or die "the setting $path never arrived";
	};
	# q($sql): what a new session prints, or its error.
	my $q = sub {
		my ($ret, $out, $err) = $node->psql('postgres', $_[0]);
		return $ret == 0 ? $out : $err;
	};

	# 1. One key, A: public ids of each kind.
	write_key_file("$dir/public_id.key", $key_a);
	$use_key_file->("$dir/public_id.key");
	is($q->('SELECT idgen.public_id_key_checks()'), "{$check_a}", "$mode: a ring of one key, A");
	my $a_bigint = $q->('SELECT idgen.public_id(42)');
	my $a_numeric = $q->('SELECT idgen.public_id(1088824355131185736905670087)');
	my $uuid = '0190f3c4-2a5e-7a3b-8c1d-5e6f7a8b9c0d';
	my $a_uuid = $q->("SELECT idgen.public_id('$uuid'::uuid)");
	is($a_bigint, public_id_of_bigint($key_a, 42), "$mode: under A, the public id is AES under A");
	is($q->("SELECT idgen.public_id_key_number('$a_bigint')"), '1', "$mode: A is key 1 of a ring of one");

	# 2. Staging: B added after A, for decoding only (what every server gets before any makes a
	# public id under B).
	write_key_file("$dir/public_id.staged.key", "$key_a\n$key_b");
	$use_key_file->("$dir/public_id.staged.key");
	is($q->('SELECT idgen.public_id_key_checks()'), "{$check_a,$check_b}", "$mode: staged, the ring is A, then B");
	is($q->('SELECT idgen.public_id(42)'), $a_bigint, "$mode: staged, public ids are still made under A");
	my $b_seven = public_id_of_bigint($key_b, 7);
	is($q->("SELECT idgen.public_id_to_bigint('$b_seven') || ',' || idgen.public_id_key_number('$b_seven')"),
		'7,2', "$mode: staged, a public id made under B elsewhere decodes, by key 2");

	# 3. Rotation: a new file with B first and A kept, switched to with a reload.
	write_key_file("$dir/public_id.2.key", "$key_b\n$key_a");
	$use_key_file->("$dir/public_id.2.key");
	is($q->('SELECT idgen.public_id_key_checks()'), "{$check_b,$check_a}",
		"$mode: after the rotation the ring is B, then A");
	is($q->('SELECT idgen.public_id_key_check()'), $check_b, "$mode: after the rotation the current key is B");
	my $b_bigint = $q->('SELECT idgen.public_id(42)');
	is($b_bigint, public_id_of_bigint($key_b, 42), "$mode: new public ids are made under B");
	is($q->("SELECT idgen.public_id_to_bigint('$a_bigint')"), '42', "$mode: A's bigint public id still decodes");
	is($q->("SELECT idgen.public_id_to_bigint('$b_bigint')"), '42', "$mode: B's bigint public id decodes");
	is($q->("SELECT idgen.public_id_to_numeric('$a_numeric')"), '1088824355131185736905670087',
		"$mode: A's DistributedId public id still decodes");
	is($q->("SELECT idgen.public_id_to_numeric('$a_bigint')"), '42', "$mode: A's bigint public id decodes as numeric");
	is($q->("SELECT idgen.public_id_key_number('$a_bigint') || ',' || idgen.public_id_key_number('$b_bigint')"),
		'2,1', "$mode: public_id_key_number tells A's public id (2) from B's (1)");
	is($q->("SELECT idgen.public_id_to_uuid(idgen.public_id('$uuid'::uuid)) = '$uuid'"), 't',
		"$mode: B's uuid public id decodes");
	is($q->("SELECT idgen.public_id_to_uuid('$a_uuid') = '$uuid'"), 'f',
		"$mode: A's uuid public id does not decode by public_id_to_uuid (current key only)");
	is($q->("SELECT (idgen.public_id_to_uuids('$a_uuid'))[2] = '$uuid'"), 't',
		"$mode: public_id_to_uuids gives A's decoding second");
	is($q->("SELECT cardinality(idgen.public_id_to_uuids('$a_uuid'))"), '2', "$mode: one decoding per key");

	# 4. An ordinary role uses the ring without seeing a key or the file.
	my ($ret, $out, $err) = $node->psql('postgres',
		"SET ROLE app; SELECT idgen.public_id_to_bigint('$a_bigint'), idgen.public_id_key_checks()");
	is($out, "42|{$check_b,$check_a}", "$mode: an ordinary role decodes under the ring and sees check values");
	($ret, $out, $err) = $node->psql('postgres',
		"SET ROLE app; SELECT pg_read_file('$dir/public_id.2.key')");
	isnt($ret, 0, "$mode: an ordinary role cannot read the key file");

	# 5. Bad rings: each refused with its own error, naming no key.
	my @bad = (
		[ 'the same key twice', 'twice', "$key_b\n$key_a\n$key_b",
			qr/F0000: public id key file holds the same key twice\nDETAIL:  Key 3 repeats key 1\./ ],
		[ 'nine keys', 'nine', join("\n", map { random_key() } 1 .. 9),
			qr/F0000: public id key file holds too many keys\nDETAIL:  It holds 9 keys; a key file holds at most 8/ ],
		[ 'a bad second key', 'second', "$key_b\n" . substr($key_a, 0, 10) . '*' . substr($key_a, 11),
			qr/F0000: public id key file does not hold valid base64\nDETAIL:  Character 56 is not in the base64 alphabet.*\nCONTEXT:  key 2 of the public id key file/s ]);
	my $errors = '';
	for my $case (@bad)
	{
		my ($name, $file, $text, $expected) = @$case;
		write_key_file("$dir/public_id.$file.key", $text);
		$use_key_file->("$dir/public_id.$file.key");
		($ret, $out, $err) = $node->psql('postgres', 'SELECT idgen.public_id(1)',
			extra_params => [ '-v', 'VERBOSITY=verbose' ]);
		like($err, $expected, "$mode: $name is refused");
		$errors .= $err;
	}

	# 6. A retired: a file with B only.
	write_key_file("$dir/public_id.3.key", $key_b);
	$use_key_file->("$dir/public_id.3.key");
	is($q->('SELECT idgen.public_id_key_checks()'), "{$check_b}", "$mode: after the retirement the ring is B alone");
	is($q->("SELECT coalesce(idgen.public_id_to_bigint('$a_bigint')::text, 'null')"), 'null',
		"$mode: after A's retirement its bigint public id no longer decodes");
	is($q->("SELECT coalesce(idgen.public_id_to_numeric('$a_numeric')::text, 'null')"), 'null',
		"$mode: nor its DistributedId public id");
	is($q->("SELECT coalesce(idgen.public_id_key_number('$a_bigint')::text, 'null')"), 'null',
		"$mode: no key of the ring decodes it");
	is($q->("SELECT idgen.public_id_to_bigint('$b_bigint')"), '42', "$mode: B's public id still decodes");

	# 7. No key in any error or in the server log.
	$node->stop;
	my $log = slurp_file($node->logfile);
	for my $key ([ 'A', $key_a ], [ 'B', $key_b ])
	{
		my ($name, $text) = @$key;
		my $hex = unpack('H*', decode_base64($text));
		my $piece = substr($text, 0, 12);
		unlike($errors, qr/\Q$piece\E/, "$mode: no error shows key $name");
		unlike($log, qr/\Q$piece\E/, "$mode: the server log holds no piece of key $name (base64)");
		unlike($log, qr/\Q@{[substr($hex, 0, 16)]}\E/i, "$mode: nor of its hex");
	}
	like($log, qr/idgen\.public_id_key_checks/, "$mode: the log did record the statements");
}

done_testing();
