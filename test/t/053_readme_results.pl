# idgen-test: majors=15 tier=full
# The README's examples print what their comments say. test/t/doc_examples.sh runs every block of
# the docs but compares only errors; here each README statement whose result the README shows is
# run and its result compared with what is shown:
#
#   SELECT ...;            -- → t                     the one row, its cells split at " | "
#   SELECT ...;            -- → e.g. 48O2QD5Yy4RVfAXm  a generated value: compared by shape
#   SELECT ...;            -- → (0 rows)               no row
#   -- → ...                                           (alone on the line after it: the same)
#   SELECT ...;                                        a result table in comments right after it:
#   --  col_a | col_b                                  the header exactly, the number of rows,
#   -- -------+-------                                 and the cells (by shape where they hold
#   --  value | value                                  digits, since ids and times change)
#   --  (0 rows)                                       alone: no row
#
# Text after a shown value, past two or more spaces, is commentary. Comparing "by shape" keeps
# every character but generalises each run of letters and digits that contains a digit (so a
# uuid matches any uuid, a time any time), and lets a fraction of seconds be absent.
#
# The blocks run as doc_examples.sh runs them: in order, in one session per database, a new
# database at each block marked fresh, fragments and setup blocks skipped, with the public id
# example key of docs/public-id.md configured.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IdgenTest::Recipes qw(page_blocks);
use File::Temp qw(tempdir);

# The sql blocks, each with the words of its info string after "sql", in order.
my @blocks = grep { $_->{info} eq 'sql' } @{ page_blocks('README.md') };

# code_and_comment(line): the line's code and its trailing comment ("" if none); a "--" inside a
# quoted literal is code.
sub code_and_comment
{
	my ($line) = @_;
	my $quoted = 0;
	for my $i (0 .. length($line) - 1)
	{
		my $c = substr($line, $i, 1);
		$quoted = !$quoted if $c eq "'";
		return (substr($line, 0, $i), substr($line, $i + 2))
		  if !$quoted && substr($line, $i, 2) eq '--';
	}
	return ($line, '');
}

# statements(block text): [ { sql, shown } ], where shown is undef or
# { rows => n or undef, header => [...] or undef, cells => [[...]], shape => 0|1 }.
sub statements
{
	my @lines = split /\n/, shift;
	my (@out, @buffer);
	my $i = 0;
	while ($i < @lines)
	{
		my $line = $lines[$i++];
		my ($code, $comment) = code_and_comment($line);
		if ($code =~ /^\s*$/)
		{
			push @buffer, $line if @buffer;    # a comment inside a statement
			next;
		}
		push @buffer, $line;
		next unless $code =~ /;\s*$/ || $code =~ /\\gset\s*$/;
		my $statement = { sql => join("\n", @buffer), shown => undef };
		@buffer = ();
		# A shown value on the statement's line, or alone on the next one.
		if ($comment !~ /^\s*→/ && $i < @lines && $lines[$i] =~ /^--\s*→/)
		{
			(undef, $comment) = code_and_comment($lines[ $i++ ]);
		}
		if ($comment =~ /^\s*→\s*(.*)$/)
		{
			my $value = $1;
			$value =~ s/\s{2,}.*$//;
			if ($value =~ /^\((\d+) rows?\)$/)
			{
				$statement->{shown} = { rows => $1, cells => [] };
			}
			else
			{
				my $shape = $value =~ s/^e\.g\.\s+//;
				$statement->{shown} =
				  { rows => 1, cells => [ [ split / \| /, $value ] ], shape => $shape };
			}
		}
		elsif ($i < @lines && $lines[$i] =~ /^--\s+\((\d+) rows?\)\s*$/)
		{
			$statement->{shown} = { rows => $1, cells => [] };
			$i++;
		}
		elsif ($i + 1 < @lines && $lines[$i] =~ /^-- .*\S/ && $lines[ $i + 1 ] =~ /^-- -+(?:\+-+)*\s*$/)
		{
			my @header = map { s/^\s+|\s+$//gr } split /\|/, substr($lines[$i], 3);
			$i += 2;
			my @rows;
			while ($i < @lines && $lines[$i] =~ /^-- (.*)$/ && $lines[$i] !~ /^--\s*$/)
			{
				my @cells = map { s/^\s+|\s+$//gr } split /\|/, $1;
				$cells[-1] =~ s/\s{3,}.*$//;    # commentary beside the table
				push @rows, \@cells;
				$i++;
			}
			$statement->{shown} =
			  { rows => scalar(@rows), header => \@header, cells => \@rows, table => 1 };
		}
		push @out, $statement;
	}
	return @out;
}

# shape(value): a regular expression for values of its shape.
sub shape
{
	my ($value) = @_;
	my $re = '';
	while ($value =~ /\G(?:(\.)(\d+)|([0-9A-Za-z]+)|(.))/gc)
	{
		if (defined $1) { $re .= '(?:\.[0-9]+)?'; }
		elsif (defined $3) { $re .= $3 =~ /\d/ ? '[0-9A-Za-z]+' : quotemeta($3); }
		else { $re .= quotemeta($4); }
	}
	return qr/^$re$/;
}

sub cell_matches
{
	my ($shown, $got, $by_shape) = @_;
	return 1 if $shown eq $got;
	return 0 unless $by_shape || $shown =~ /\d/;
	return $got =~ shape($shown) ? 1 : 0;
}

my $node = PostgreSQL::Test::Cluster->new('readme');
$node->init;
$node->start;
my $keys = tempdir(CLEANUP => 1);
chmod 0755, $keys;
my $key = "$keys/public_id.key";
open my $fh, '>', $key or die "cannot write $key: $!";
print $fh "k7fBDJcQam02hsByaOWPeP2CqeDeGXvrPUkEAQBtAFc=\n";
close $fh;
chmod 0600, $key;
$node->safe_psql('postgres',
	"LOAD 'idgen'; ALTER SYSTEM SET idgen.public_id_key_file = '$key'; SELECT pg_reload_conf();");

# Segments: the blocks that run in one database and session.
my @segments = ([]);
for my $block (@blocks)
{
	next if $block->{words} =~ /\b(fragment|setup)\b/;
	push @segments, [] if $block->{words} =~ /\bfresh\b/ && @{ $segments[-1] };
	push @{ $segments[-1] }, $block;
}

my ($checked, $database) = (0, 0);
for my $segment (@segments)
{
	next unless @$segment;
	my $db = 'readme_' . ++$database;
	$node->safe_psql('postgres', "CREATE DATABASE $db");
	$node->safe_psql($db, 'CREATE EXTENSION idgen')
	  unless $segment->[0]{text} =~ /^\s*CREATE EXTENSION idgen/m;
	my @statements = map { statements($_->{text}) } @$segment;
	my $script = "\\pset format unaligned\n\\pset fieldsep ' | '\n";
	for my $n (0 .. $#statements)
	{
		$script .= "\\echo '\@\@ $n'\n$statements[$n]{sql}\n";
	}
	my $out = '';
	IPC::Run::run(
		[ 'psql', '-X', '-q', '-d', $node->connstr($db) ],
		'<', \$script, '>', \$out, '2>&1');
	my %output;
	my $current;
	for my $line (split /\n/, $out)
	{
		if ($line =~ /^\@\@ (\d+)$/) { $current = $1; $output{$current} = []; next; }
		push @{ $output{$current} }, $line if defined $current;
	}
	for my $n (0 .. $#statements)
	{
		my $shown = $statements[$n]{shown} or next;
		my $sql = $statements[$n]{sql} =~ s/\s*\n\s*/ /gr;
		$sql = substr($sql, 0, 70) . '...' if length($sql) > 73;
		my @got = @{ $output{$n} // [] };
		my @problems;
		push @problems, grep { /ERROR|FATAL/ } @got;
		my ($footer) = @got ? $got[-1] =~ /^\((\d+) rows?\)$/ : ();
		if (!@problems && !defined $footer)
		{
			push @problems, 'no result rows printed';
		}
		if (!@problems)
		{
			my @header = split / \| /, $got[0], -1;
			my @rows = map { [ split / \| /, $_, -1 ] } @got[ 1 .. $#got - 1 ];
			push @problems, "$footer rows, shown $shown->{rows}"
			  if $footer != $shown->{rows};
			push @problems, "header '@header', shown '@{ $shown->{header} }'"
			  if $shown->{header} && "@header" ne "@{ $shown->{header} }";
			for my $r (0 .. $#{ $shown->{cells} })
			{
				my $want = $shown->{cells}[$r];
				my $have = $rows[$r] // [];
				if (@$want != @$have)
				{
					push @problems, "row " . ($r + 1) . ": '@$have', shown '@$want'";
					next;
				}
				for my $c (0 .. $#$want)
				{
					push @problems, "row " . ($r + 1) . ": '$have->[$c]', shown '$want->[$c]'"
					  unless cell_matches($want->[$c], $have->[$c], $shown->{shape});
				}
			}
		}
		ok(!@problems, "README: $sql prints what it shows")
		  or diag(join("\n", @problems, 'printed:', @got));
		$checked++;
	}
}
cmp_ok($checked, '>=', 15, 'the README shows the results of at least 15 statements');

$node->stop;
done_testing();
