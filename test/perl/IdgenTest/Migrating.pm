# docs/migrating.md's paths as its tests run them: the SQL blocks of one path, exactly as the page
# prints them (its fences say ```sql migration=NAME; test/t/doc_examples.sh leaves them to these
# tests), and the peers the paths start from, from their archives in ../shared/peers: extensions
# built into a cache outside the checkout (test/lib/peers.sh) and put into a copy of the
# installation under test, or SQL files unpacked.
package IdgenTest::Migrating;

use strict;
use warnings;
use Exporter 'import';
use File::Spec;
use IPC::Run;
use PostgreSQL::Test::Utils;
use IdgenTest::Releases qw(installation_copy);

our @EXPORT_OK = qw(migration_blocks installation_with_peer peer_archive peer_unpack);

# migration_blocks($name): the SQL of every block of path $name, in page order, each without the
# fence's indentation. Dies when the page has none: the test then fails, it does not skip.
sub migration_blocks
{
	my ($name) = @_;
	my $page = slurp_file('docs/migrating.md');
	my @blocks;
	while ($page =~ /^( *)```sql migration=\Q$name\E\n(.*?)^\1```$/msg)
	{
		my ($indent, $sql) = ($1, $2);
		$sql =~ s/^$indent//mg;
		push @blocks, $sql;
	}
	die "docs/migrating.md has no block of path $name\n" unless @blocks;
	return @blocks;
}

# _pg_config($option): what the installation under test's pg_config says.
sub _pg_config
{
	my ($option) = @_;
	my $value = `$ENV{PG_CONFIG} --$option`;
	die "$ENV{PG_CONFIG} --$option failed\n" if $? != 0;
	chomp $value;
	return $value;
}

# peer_archive($peer): the file name of the newest archive of a peer in IDGEN_PEERS_DIR (which
# run_tap sets), $peer-<commit>.tar.*; dies when there is none.
sub peer_archive
{
	my ($peer) = @_;
	my $dir = $ENV{IDGEN_PEERS_DIR} or die "IDGEN_PEERS_DIR is not set (test/lib/tap.sh sets it)\n";
	my @archives = sort glob("$dir/$peer-*.tar.*");
	die "no archive of $peer in $dir\n" unless @archives;
	return (File::Spec->splitpath($archives[-1]))[2];
}

# peer_unpack($peer, $dir): unpacks the newest archive of a peer of SQL files (nothing to build)
# into $dir.
sub peer_unpack
{
	my ($peer, $dir) = @_;
	my $archive = "$ENV{IDGEN_PEERS_DIR}/" . peer_archive($peer);
	IPC::Run::run([ 'tar', '-xf', $archive, '-C', $dir ])
	  or die "cannot unpack $archive\n";
	return;
}

# installation_with_peer($name, $archive): a copy of the installation under test (as
# IdgenTest::Releases makes them) with the peer of $archive (a file of IDGEN_PEERS_DIR, which
# run_tap sets) built against it and installed. Returns what installation_copy returns.
sub installation_with_peer
{
	my ($name, $archive) = @_;
	my ($out, $err) = ('', '');
	IPC::Run::run([ 'bash', File::Spec->rel2abs('test/lib/peers.sh'), 'build', $archive, $ENV{PG_CONFIG} ],
		'>', \$out, '2>', \$err)
	  or die "building the peer $archive failed:\n$err";
	chomp $out;
	die "test/lib/peers.sh printed no cache entry for $archive\n" unless -d "$out/lib";
	my $copy = installation_copy($name);
	for ([ "$out/lib", _pg_config('pkglibdir') ], [ "$out/extension", _pg_config('sharedir') . '/extension' ])
	{
		my ($from, $to) = @$_;
		IPC::Run::run([ 'cp', '-a', "$from/.", $copy->{root} . $to ])
		  or die "copying $from into the installation copy failed\n";
	}
	return $copy;
}

1;
