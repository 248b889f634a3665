# Public-id key files for tests: a fresh random AES-256 key as the base64 text idgen reads, written
# where a server's idgen.public_id_key_file names it, with the mode idgen requires (0600).
package IdgenTest::KeyFile;

use strict;
use warnings;
use Exporter 'import';
use MIME::Base64 qw(encode_base64);

our @EXPORT_OK = qw(random_key write_key_file);

sub random_key
{
	open my $urandom, '<:raw', '/dev/urandom' or die "/dev/urandom: $!";
	read($urandom, my $key, 32) == 32 or die 'short read from /dev/urandom';
	close $urandom;
	return encode_base64($key, '');
}

# write_key_file($path, $key_text): a file owned by the caller (the server's user), mode 0600.
sub write_key_file
{
	my ($path, $key_text) = @_;
	open my $fh, '>', $path or die "$path: $!";
	print $fh "$key_text\n";
	close $fh;
	chmod 0600, $path or die "chmod $path: $!";
	return;
}

1;
