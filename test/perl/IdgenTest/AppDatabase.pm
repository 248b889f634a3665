# The application database of test/fixtures/app_database.sql (every idgen type, domain and family
# in columns, defaults, CHECKs, generated columns, indexes, views and the registry) and what the
# operational tests (dump and restore, replication, pg_upgrade) do with it: make it, digest it
# (test/fixtures/app_snapshot.sql), run the client programs against a node, read an error.
package IdgenTest::AppDatabase;

use strict;
use warnings;
use Exporter 'import';
use IPC::Run;
use PostgreSQL::Test::Utils qw(slurp_file);
use Test::More;

our @EXPORT_OK = qw(create_app_database app_snapshot run_client error_of words);

# create_app_database($node, $dbname): creates the database and fills it from the fixture; a
# failure is a failed test with psql's errors.
sub create_app_database
{
	my ($node, $dbname) = @_;
	$node->safe_psql('postgres', "CREATE DATABASE $dbname");
	my ($status, $out, $err) = $node->psql($dbname, undef,
		extra_params => [ '-v', 'ON_ERROR_STOP=1', '-f', 'test/fixtures/app_database.sql' ]);
	return is($status, 0,
		'application database ' . $node->name . "/$dbname: every idgen type, domain and family in "
		  . 'columns, defaults, CHECKs, generated columns, indexes, views and the registry')
	  || diag($err);
}

# app_snapshot($node, $dbname): one line per relation (rows and their md5), the registry, every
# index, default and constraint, the idgen version and the event trigger.
sub app_snapshot
{
	my ($node, $dbname) = @_;
	return $node->safe_psql($dbname, slurp_file('test/fixtures/app_snapshot.sql'));
}

# run_client($node, $program, @arguments): runs a client program of the node's installation
# against the node (pg_dump, pg_restore, psql ...). Returns (succeeded, stdout, stderr).
sub run_client
{
	my ($node, $program, @arguments) = @_;
	my ($out, $err) = ('', '');
	my $ok = IPC::Run::run(
		[
			$node->installed_command($program), '-h', $node->host,
			'-p', $node->port, @arguments
		],
		'>', \$out, '2>', \$err);
	return ($ok, $out, $err);
}

# error_of($node, $dbname, $sql): "SQLSTATE: message" of the first error the SQL raises, or
# "no error".
sub error_of
{
	my ($node, $dbname, $sql) = @_;
	my ($status, $out, $err) =
	  $node->psql($dbname, $sql, extra_params => [ '-v', 'VERBOSITY=verbose' ]);
	return $err =~ /ERROR: +([0-9A-Z]{5}: [^\n]*)/ ? $1 : 'no error';
}

# words($text): psql's unaligned output (fields split by |, rows by newlines) as one line of
# space-separated words, for comparing many small answers at once.
sub words
{
	my ($text) = @_;
	return join ' ', split /[|\s]+/, $text;
}

1;
