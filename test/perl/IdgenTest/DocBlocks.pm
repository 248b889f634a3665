# The SQL blocks of one section of a docs page, as printed, so that a test runs what the page
# shows (a recipe whose prerequisites test/t/doc_examples.sh cannot provide, such as another
# extension, and that the page therefore marks `sql fragment`) and the page cannot drift from
# what was tested.
package IdgenTest::DocBlocks;

use strict;
use warnings;
use Exporter 'import';
use PostgreSQL::Test::Utils;

our @EXPORT_OK = qw(section_sql_blocks);

# section_sql_blocks($file, $heading): the contents of the ```sql blocks (any markers) between the
# line $heading (exactly) and the next heading of the same or a higher level, in order. Dies if
# the heading is missing: a renamed section fails the test instead of leaving it with nothing.
sub section_sql_blocks
{
	my ($file, $heading) = @_;
	my ($level) = $heading =~ /^(#+) /
	  or die "\"$heading\" is not a Markdown heading\n";
	my @blocks;
	my ($inside, $block) = (0, undef);
	for my $line (split /\n/, slurp_file($file))
	{
		if (!$inside)
		{
			$inside = 1 if $line eq $heading;
			next;
		}
		if (defined $block)
		{
			if ($line =~ /^```\s*$/)
			{
				push @blocks, $block;
				$block = undef;
			}
			else
			{
				$block .= "$line\n";
			}
			next;
		}
		last if $line =~ /^(#+) / && length($1) <= length($level);
		$block = '' if $line =~ /^```sql\b/;
	}
	die "no heading \"$heading\" in $file\n" unless $inside;
	die "an unclosed ```sql block in \"$heading\" of $file\n" if defined $block;
	return @blocks;
}

1;
