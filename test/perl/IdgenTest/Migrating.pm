# docs/migrating.md's paths as its tests run them: the SQL blocks of one path, exactly as the page
# prints them (its fences say ```sql migration=NAME; test/t/doc_examples.sh leaves them to these
# tests), and the peer extensions the paths start from, built from ../shared/peers into a cache
# outside the checkout (test/lib/peers.sh) and put into a copy of the installation under test.
package IdgenTest::Migrating;

use strict;
use warnings;
use Exporter 'import';
use File::Spec;
use IPC::Run;
use PostgreSQL::Test::Utils;
use IdgenTest::Releases qw(installation_copy);

our @EXPORT_OK = qw(migration_blocks installation_with_peer);

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
