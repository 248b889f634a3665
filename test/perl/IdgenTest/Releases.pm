# Servers on earlier releases of idgen, and updating them as operators do: each server gets its
# own copy of the PostgreSQL installation under test (PG_CONFIG), as each machine has its own,
# whose idgen files are a release's, built from this repository's git history and cached by
# test/lib/releases.sh, or the installation's own (the version under test), put in place while
# the server runs, as a package update or `make install` does.
#
# The history is that of the repository run_tap copied the test from (IDGEN_SOURCE_DIR): without
# it, or when a build fails, the test dies (fails), it is not skipped.
package IdgenTest::Releases;

use strict;
use warnings;
use Exporter 'import';
use File::Basename qw(dirname);
use File::Path qw(make_path remove_tree);
use File::Spec;
use IPC::Run;
use PostgreSQL::Test::Utils;

our @EXPORT_OK = qw(installation_copy install_release install_current release_source
  current_version);

# _pg_config($option): what the installation under test's pg_config says.
sub _pg_config
{
	my ($option) = @_;
	my $pg_config = $ENV{PG_CONFIG} or die "PG_CONFIG is not set\n";
	my $value = `$pg_config --$option`;
	die "$pg_config --$option failed\n" if $? != 0;
	chomp $value;
	return $value;
}

# The directories a server and its client programs use. PostgreSQL finds each relative to the
# running binary where it was built relocatable (and Debian's split layout relocates as well), so
# a copy of each at the same path under another root is a working installation.
my @copied = qw(bindir pkglibdir sharedir);

# installation_copy($name): a copy of the installation under test under a new temporary root.
# Returns { root => that root, path => what PostgreSQL::Test::Cluster takes as install_path }.
sub installation_copy
{
	my ($name) = @_;
	my $root = File::Spec->rel2abs(PostgreSQL::Test::Utils::tempdir("install_$name"));
	for my $dir (map { _pg_config($_) } @copied)
	{
		make_path("$root$dir");
		IPC::Run::run([ 'cp', '-a', "$dir/.", "$root$dir" ])
		  or die "copying $dir to $root$dir failed\n";
	}
	return { root => $root, path => $root . dirname(_pg_config('bindir')) };
}

# _remove_idgen($copy): removes idgen's files from the copy: the library, its JIT bitcode, the
# control file and every script (make install adds files and never removes one).
sub _remove_idgen
{
	my ($copy) = @_;
	my $lib = $copy->{root} . _pg_config('pkglibdir');
	my $extension = $copy->{root} . _pg_config('sharedir') . '/extension';
	unlink glob("$lib/idgen.so $lib/bitcode/idgen.index.bc $extension/idgen.control $extension/idgen--*.sql");
	remove_tree("$lib/bitcode/idgen");
	die "idgen's files are still in $copy->{root}\n" if -e "$lib/idgen.so" || -e "$extension/idgen.control";
	return;
}

# _copy_into($from, $to): copies the contents of directory $from into $to.
sub _copy_into
{
	my ($from, $to) = @_;
	IPC::Run::run([ 'cp', '-a', "$from/.", $to ]) or die "copying $from into $to failed\n";
	return;
}

my %builds;    # version => cache entry

# _release_build($version): the cache entry of release $version for this installation, built first
# when the cache lacks it (test/lib/releases.sh, in the repository that holds the history).
sub _release_build
{
	my ($version) = @_;
	return $builds{$version} if $builds{$version};
	my $source = $ENV{IDGEN_SOURCE_DIR}
	  or die "IDGEN_SOURCE_DIR is not set: run the test through run_tap (test/lib/tap.sh), "
	  . "which names the repository whose history holds idgen $version\n";
	my $script = File::Spec->rel2abs('test/lib/releases.sh');
	my ($out, $err) = ('', '');
	IPC::Run::run([ 'bash', $script, 'build', $version, $ENV{PG_CONFIG} ],
		'>', \$out, '2>', \$err, init => sub { chdir $source or die "chdir $source: $!" })
	  or die "building idgen $version from the history of $source failed:\n$err";
	chomp $out;
	die "test/lib/releases.sh printed no cache entry for $version\n" unless -d "$out/lib";
	return $builds{$version} = $out;
}

# install_release($copy, $version): the release's idgen files in place of the copy's.
sub install_release
{
	my ($copy, $version) = @_;
	my $entry = _release_build($version);
	_remove_idgen($copy);
	_copy_into("$entry/lib", $copy->{root} . _pg_config('pkglibdir'));
	_copy_into("$entry/extension", $copy->{root} . _pg_config('sharedir') . '/extension');
	return;
}

# install_current($copy): the installation under test's idgen files in place of the copy's.
sub install_current
{
	my ($copy) = @_;
	_remove_idgen($copy);
	my $lib = _pg_config('pkglibdir');
	my $extension = _pg_config('sharedir') . '/extension';
	my @copies = ([ "$lib/idgen.so", $lib ],
		map { [ $_, "$extension" ] } glob("$extension/idgen.control $extension/idgen--*.sql"));
	push @copies, map { [ $_, "$lib/bitcode" ] } "$lib/bitcode/idgen", "$lib/bitcode/idgen.index.bc"
	  if -d "$lib/bitcode/idgen";
	for (@copies)
	{
		my ($file, $dir) = @$_;
		IPC::Run::run([ 'cp', '-a', $file, $copy->{root} . $dir ]) or die "copying $file failed\n";
	}
	return;
}

# release_source($version): the release's own source tree (its fixtures).
sub release_source
{
	my ($version) = @_;
	return _release_build($version) . '/source';
}

# current_version(): the version the installation under test installs (its control file's).
sub current_version
{
	my $control = slurp_file(_pg_config('sharedir') . '/extension/idgen.control');
	my ($version) = $control =~ /^default_version\s*=\s*'([^']+)'/m
	  or die "no default_version in idgen.control\n";
	return $version;
}

1;
