# Whether every generator's ids keep their order through an event (a crash, a clock step, a
# failover): tables that store each generator's ids with the phase (before/after the event) they
# were made in, concurrent loads that fill them, and the checks on what they hold.
#
# Measures, per generator: repeats, ids stored more than once (count(*) - count(DISTINCT id));
# inversions, ids of a phase that sort at or below the largest id of the phases before it, in the
# column type's own order (typeid: text COLLATE "C"); failed INSERTs, statements that stored
# nothing (refused by a key, timed out, or any other error).
package IdgenTest::IdOrder;

use strict;
use warnings;
use Exporter 'import';
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes;
use IdgenTest::Sessions qw(run_scripts_concurrently);

our @EXPORT_OK = qw(create_id_tables load_ids check_ids);

# The generators: name, column type, column default (for the plain sequence, <prefix>_seq, one
# sequence that all of the set's sequence tables share, as every other generator is shared).
my @generators = (
	[ snowflake => 'bigint', 'idgen.snowflake()' ],
	[ uuidv7 => 'uuid', 'idgen.uuidv7()' ],
	[ ulid => 'uuid', 'idgen.ulid()' ],
	[ typeid => 'text COLLATE "C"', q{idgen.typeid('user')} ],
	[ distributed_id => 'idgen.distributed_id', 'idgen.distributed_id()' ],
	[ distributed_id128 => 'uuid', 'idgen.distributed_id128()' ],
	[ sequence => 'bigint', q{nextval('<prefix>_seq')} ]);

# create_id_tables($node, $prefix, $keyed): creates, for every generator, the table
# <prefix>_<generator> (id with the generator as its default, phase; no key, so that a repeated
# id is stored and counted) and, when $keyed, two more, <prefix>_<generator>_key1 and _key2,
# whose id is the PRIMARY KEY (a repeated id there is a refused INSERT). Returns the set of
# tables that load_ids fills and check_ids measures.
sub create_id_tables
{
	my ($node, $prefix, $keyed) = @_;
	my %set = (prefix => $prefix, generators => [], expected => {});
	my @ddl = ("CREATE SEQUENCE ${prefix}_seq");
	for my $generator (@generators)
	{
		my ($name, $type, $default) = @$generator;
		my $column = "id $type NOT NULL DEFAULT " . ($default =~ s/<prefix>/$prefix/r);
		my @tables = ([ "${prefix}_$name", 0 ]);
		push @tables, map { [ "${prefix}_${name}_key$_", 1 ] } 1 .. 2 if $keyed;
		push @ddl, map {
			"CREATE TABLE $_->[0] ($column" . ($_->[1] ? ' PRIMARY KEY' : '') . ', phase text NOT NULL)'
		} @tables;
		push @{ $set{generators} }, { name => $name, tables => \@tables };
	}
	$node->safe_psql('postgres', join(";\n", @ddl));
	return \%set;
}

# load_ids($node, $set, $phase, %options): fills every table of the set with ids made in $phase,
# from concurrent sessions (sessions, default 3), each inserting ids (default 20 000) per table
# in INSERTs of batch (default 2 000) rows, the tables taken in turn (so every generator works
# throughout the phase). Each INSERT is its own transaction; one that fails does not stop the
# session. Every session first sets statement_timeout (default 30 s), a guard against a
# generator that makes its callers wait. Prints the phase's duration and its errors (counted by
# message) and returns the number of errors.
sub load_ids
{
	my ($node, $set, $phase, %options) = @_;
	my $sessions = $options{sessions} // 3;
	my $ids = $options{ids} // 20_000;
	my $batch = $options{batch} // 2_000;
	my $timeout = $options{statement_timeout} // '30s';
	my @tables = map { map { $_->[0] } @{ $_->{tables} } } @{ $set->{generators} };
	my $script = "SET statement_timeout = '$timeout';\n";
	for (1 .. $ids / $batch)
	{
		$script .= "INSERT INTO $_ (phase) SELECT '$phase' FROM generate_series(1, $batch);\n"
		  for @tables;
	}
	$set->{expected}{$_}{$phase} += $sessions * $ids for @tables;
	$set->{batch}{$phase} = $batch;
	my $started = Time::HiRes::time();
	my $errors = run_scripts_concurrently($node, 'postgres', [ ($script) x $sessions ],
		$PostgreSQL::Test::Utils::timeout_default);
	my %messages;
	$messages{$_}++ for map { /(ERROR: .*|timed out .*)/ ? $1 : () } map { split /\n/ } @$errors;
	note(sprintf("%s: %s: %d sessions x %d ids x %d tables in %.1f s",
		$set->{prefix}, $phase, $sessions, $ids, scalar @tables, Time::HiRes::time() - $started));
	diag("$set->{prefix}: $phase: $messages{$_} x $_") for sort keys %messages;
	my $count = 0;
	$count += $_ for values %messages;
	return $count;
}

# _one_row($node, $sql): the columns of the query's one row.
sub _one_row
{
	my ($node, $sql) = @_;
	return split /\|/, $node->safe_psql('postgres', $sql), -1;
}

# check_ids($node, $set, $event, @phases): the checks after an event, one per generator and
# measure, each named with its figures: 0 failed INSERTs over the set's loads; 0 repeats among
# the generator's ids (all its tables together) and, with keyed tables, in the table without a
# key; and, for every phase after the first, 0 inversions against the phases before it. @phases
# lists [ phase ] for the first and [ phase, what happened before it ] for the others, in order.
# Also prints the figures as a table.
sub check_ids
{
	my ($node, $set, $event, @phases) = @_;
	my @lines;
	for my $generator (@{ $set->{generators} })
	{
		my $name = $generator->{name};
		my @tables = @{ $generator->{tables} };
		my $ids = '(' . join(' UNION ALL ', map { "SELECT id, phase FROM $_->[0]" } @tables) . ')';

		my ($expected, $stored, $failed) = (0, 0, 0);
		for my $table (@tables)
		{
			my %counts = map { split /\|/ } split /\n/,
			  $node->safe_psql('postgres', "SELECT phase, count(*) FROM $table->[0] GROUP BY phase");
			for my $phase (map { $_->[0] } @phases)
			{
				my $missing = ($set->{expected}{ $table->[0] }{$phase} // 0) - ($counts{$phase} // 0);
				$expected += $set->{expected}{ $table->[0] }{$phase} // 0;
				$stored += $counts{$phase} // 0;
				$failed += $missing / $set->{batch}{$phase} if $missing;
			}
		}
		is($failed, 0, "$event: $name: 0 INSERTs failed ($stored of $expected ids stored)");

		my ($rows, $distinct) =
		  _one_row($node, "SELECT count(*), count(DISTINCT id) FROM $ids ids");
		my $where = @tables > 1 ? ' in its 3 tables' : '';
		is($rows - $distinct, 0, "$event: $name: 0 repeats$where ($rows ids, $distinct distinct)");
		my $line = sprintf('%-18s %8d %8d', $name, $rows, $rows - $distinct);
		if (@tables > 1)
		{
			my ($unkeyed_rows, $unkeyed_distinct) = _one_row($node,
				"SELECT count(*), count(DISTINCT id) FROM $tables[0][0]");
			is($unkeyed_rows - $unkeyed_distinct, 0,
				"$event: $name: 0 repeats in the table without a key ($unkeyed_rows ids, $unkeyed_distinct distinct)"
			);
			$line .= sprintf(' %8d', $unkeyed_rows - $unkeyed_distinct);
		}

		for my $i (1 .. $#phases)
		{
			my ($phase, $what) = @{ $phases[$i] };
			my $earlier = join ', ', map { "'$_->[0]'" } @phases[ 0 .. $i - 1 ];
			my ($inversions, $after, $largest_before, $smallest_after) = _one_row(
				$node, qq{
WITH ids AS $ids,
     bound AS (SELECT id FROM ids WHERE phase IN ($earlier) ORDER BY id DESC LIMIT 1)
SELECT count(*) FILTER (WHERE id <= (SELECT id FROM bound)), count(*), (SELECT id FROM bound),
       (SELECT id FROM ids WHERE phase = '$phase' ORDER BY id LIMIT 1)
FROM ids WHERE phase = '$phase'});
			is($inversions, 0,
				"$event: $name: 0 inversions after $what ($inversions of $after ids of phase $phase at or "
				  . "below the largest before, $largest_before; smallest of $phase $smallest_after)");
			$line .= sprintf(' %10d', $inversions);
		}
		$line .= sprintf(' %8d', $failed);
		push @lines, $line;
	}
	my $header = sprintf('%-18s %8s %8s', 'generator', 'ids', 'repeats');
	$header .= sprintf(' %8s', 'unkeyed') if @{ $set->{generators}[0]{tables} } > 1;
	$header .= sprintf(' %10s', "inv.$_->[0]") for @phases[ 1 .. $#phases ];
	$header .= sprintf(' %8s', 'failed');
	note("$event: figures");
	note($_) for $header, @lines;
	return;
}

1;
