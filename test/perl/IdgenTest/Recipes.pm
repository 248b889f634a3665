# What the tests of the docs pages that show a runnable recipe share: a throwaway server for the
# recipe, the page's fenced blocks, and the checks that the page shows a file verbatim and exactly
# what the recipe printed, so that a page cannot drift from what runs.
package IdgenTest::Recipes;

use strict;
use warnings;
use Exporter 'import';
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

our @EXPORT_OK = qw(recipe_node page_blocks page_shows_file page_shows_output);

# recipe_node($name, %options): a started cluster with idgen created in database postgres.
# preload => 1 preloads idgen with node number 1 (what Snowflake ids need); tcp => 1 listens on
# 127.0.0.1, for clients that cannot use a Unix socket. Returns the node and the libpq
# environment a client needs to reach it (PGHOST, PGPORT, PGUSER, PGDATABASE).
sub recipe_node
{
	my ($name, %options) = @_;
	my $node = PostgreSQL::Test::Cluster->new($name);
	$node->init;
	my $conf = '';
	$conf .= "shared_preload_libraries = 'idgen'\nidgen.node_id = 1\n" if $options{preload};
	$conf .= "listen_addresses = '127.0.0.1'\n" if $options{tcp};
	$node->append_conf('postgresql.conf', $conf) if $conf ne '';
	$node->start;
	$node->safe_psql('postgres', 'CREATE EXTENSION idgen');
	my %env = (
		PGHOST => $options{tcp} ? '127.0.0.1' : $node->host,
		PGPORT => $node->port,
		PGUSER => scalar(getpwuid($<)),
		PGDATABASE => 'postgres');
	return ($node, \%env);
}

# page_blocks($path): the fenced blocks of a Markdown page, in order, each a hash of info (the
# first word of its info string: ```sql error=23514 is an sql block), words (the rest of the info
# string, "" if none: "error=23514") and text (its lines).
sub page_blocks
{
	my ($path) = @_;
	my $page = slurp_file($path);
	my @blocks;
	push @blocks, { info => $1, words => $2 // '', text => $3 }
	  while $page =~ /^```(\S*)(?:[ \t]+([^\n]*))?\n(.*?)^```$/msg;
	return \@blocks;
}

# page_shows_file($path, $blocks, $file, $info): checks that a block of the page (of that info
# word, when given) holds exactly the file's text.
sub page_shows_file
{
	my ($path, $blocks, $file, $info) = @_;
	my $code = slurp_file($file);
	return ok(
		(grep { (!defined $info || $_->{info} eq $info) && $_->{text} eq $code } @$blocks),
		"$path shows $file verbatim");
}

# page_shows_output($path, $blocks, $what, $out): checks that a text block of the page holds
# exactly $out, what $what printed (shown on failure).
sub page_shows_output
{
	my ($path, $blocks, $what, $out) = @_;
	return ok((grep { $_->{info} eq 'text' && $_->{text} eq $out } @$blocks),
		"$path shows exactly what $what prints")
	  || diag($out);
}

1;
