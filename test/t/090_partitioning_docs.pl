# idgen-test: majors=15 tier=full
# docs/partitioning.md's recipes, run as printed: every ```sql block of the page in order (a
# "fresh" block starts a new database), the pg_partman ones included (Debian's
# postgresql-15-partman, which test/lib/deps.sh installs; hence majors=15). Then: every row sits in
# the partition of its id's month (or in the default partition when there is none), each
# partition holds as many rows as the page shows, each EXPLAIN the page prints scans the partitions
# it shows (a range on the id fewer than all of them, a condition on a function or cast of the id
# all of them), and pg_partman's partitions are whole UTC days of Snowflake ids, made ahead by
# run_maintenance, with every row routed to its day, and retention drops the days it should.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $page = slurp_file('docs/partitioning.md');
my @blocks;
while ($page =~ /^```sql([^\n]*)\n(.*?)^```$/msg)
{
	my ($info, $sql) = ($1, $2);
	$info =~ s/^\s+|\s+$//g;
	push @blocks, { info => $info, sql => $sql };
}
cmp_ok(scalar @blocks, '>=', 16, 'docs/partitioning.md has its SQL blocks');

my $node = PostgreSQL::Test::Cluster->new('partitioning');
$node->init;
$node->start;

# chunks(sql): the block cut before each EXPLAIN statement and after its semicolon; an EXPLAIN
# chunk carries the plan the page shows below it (its comment lines).
sub chunks
{
	my ($sql) = @_;
	my @chunks = ({ sql => '' });
	my $in_explain = 0;
	for my $line (split /\n/, $sql)
	{
		if ($line =~ /^EXPLAIN\b/)
		{
			push @chunks, { sql => '', explain => 1, shown => '' };
			$in_explain = 1;
		}
		elsif ($chunks[-1]{explain} && !$in_explain && $line !~ /^--/)
		{
			push @chunks, { sql => '' };
		}
		if ($chunks[-1]{explain} && !$in_explain)
		{
			$chunks[-1]{shown} .= "$line\n";
		}
		else
		{
			$chunks[-1]{sql} .= "$line\n";
		}
		$in_explain = 0 if $in_explain && $line =~ /;\s*(--.*)?$/;
	}
	return grep { $_->{sql} =~ /\S/ } @chunks;
}

# scanned(plan): the relations a plan reads, sorted, and how many subplans it removes at start.
sub scanned
{
	my ($plan) = @_;
	my @rels = $plan =~
	  /(?:Seq Scan|Index Scan using \S+|Index Only Scan using \S+|Bitmap Heap Scan) on (\w+)/g;
	my ($removed) = $plan =~ /Subplans Removed: (\d+)/;
	return { scans => [ sort @rels ], removed => $removed // 0 };
}

my $db = 'app';
my $databases = 0;
my $create_parent_checked = 0;
my $maintenance_checked = 0;
my $late_checked = 0;
my $retention_checked = 0;

# partman_days(): the days of clicks's partitions (their lower bound's time), checked to be the
# Snowflake bound of a UTC midnight each, and their names to be pg_partman's for that bound.
sub partman_days
{
	my $rows = $node->safe_psql(
		$db, q{
		SELECT c.relname,
		       to_char(idgen.snowflake_timestamp(b.lower) AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS'),
		       c.relname = 'clicks_p' || b.lower,
		       b.lower = idgen.snowflake_bound(date_trunc('day', idgen.snowflake_timestamp(b.lower) AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'),
		       b.upper - b.lower = 86400000::bigint << 22
		FROM pg_inherits i
		JOIN pg_class c ON c.oid = i.inhrelid
		CROSS JOIN LATERAL regexp_match(pg_get_expr(c.relpartbound, c.oid),
		                                '^FOR VALUES FROM \(''(\d+)''\) TO \(''(\d+)''\)$') m(bounds)
		CROSS JOIN LATERAL (SELECT m.bounds[1]::bigint AS lower, m.bounds[2]::bigint AS upper) b
		WHERE i.inhparent = 'clicks'::regclass AND m.bounds IS NOT NULL
		ORDER BY b.lower});
	my @days;
	for my $row (split /\n/, $rows)
	{
		my ($name, $day, $named, $midnight, $one_day) = split /\|/, $row;
		ok($named eq 't' && $midnight eq 't' && $one_day eq 't',
			"pg_partman's $name is one UTC day of Snowflake ids, from $day");
		push @days, substr($day, 0, 10);
	}
	return \@days;
}

my $n = 0;
for my $block (@blocks)
{
	$n++;
	if ($n == 1 || $block->{info} =~ /\bfresh\b/)
	{
		$databases++;
		$db = "app$databases";
		$node->safe_psql('postgres', "CREATE DATABASE $db");
		$node->safe_psql($db, 'CREATE EXTENSION idgen');
	}
	my ($want_state) = $block->{info} =~ /\berror=(\w{5})\b/;
	# The block runs in one session, as a reader pastes it; a marker before each EXPLAIN
	# separates its plan in the output.
	my @chunks = chunks($block->{sql});
	my $script = "\\set VERBOSITY verbose\n";
	for my $k (0 .. $#chunks)
	{
		$script .= "\\echo \@\@chunk $k\n$chunks[$k]{sql}";
	}
	my ($ret, $out, $err) = $node->psql($db, $script, on_error_stop => 1);
	if (defined $want_state)
	{
		like($err, qr/ERROR:  $want_state:/, "block $n fails with $want_state as the page shows");
		next;
	}
	is($ret, 0, "block $n runs") or diag($err);
	my (undef, %output) = split /^\@\@chunk (\d+)\n/m, "\n$out", -1;
	my $explains = 0;
	for my $k (0 .. $#chunks)
	{
		my $chunk = $chunks[$k];
		next unless $chunk->{explain};
		$explains++;
		my ($table) = $chunk->{sql} =~ /\bFROM (\w+)/;
		($table) = $block->{sql} =~ /\bFROM (\w+)/ unless defined $table;
		my $partitions = $node->safe_psql($db,
			"SELECT count(*) FROM pg_inherits WHERE inhparent = '$table'::regclass");
		my $got = scanned($output{$k} // '');
		is_deeply($got, scanned($chunk->{shown}),
			"block $n: the plan of its EXPLAIN $explains scans what the page shows")
		  or diag($output{$k});
		if ($chunk->{sql} =~ /_timestamp\(id\)|\bid::/)
		{
			is(scalar @{ $got->{scans} }, $partitions,
				"block $n: a condition on a function or cast of the id reads all $partitions partitions of $table");
		}
		else
		{
			ok(@{ $got->{scans} } >= 1 && @{ $got->{scans} } < $partitions,
				"block $n: a range on $table\'s id reads "
				  . scalar(@{ $got->{scans} })
				  . " of its $partitions partitions");
		}
	}
	if ($block->{sql} =~ /partman\.create_parent/)
	{
		is_deeply(partman_days(), [ '2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23' ],
			'create_parent made the first day and three more');
		is($node->safe_psql($db, "SELECT extversion ~ '^4\\.' FROM pg_extension WHERE extname = 'pg_partman'"),
			't', 'the recipe runs on pg_partman 4.x');
		$create_parent_checked = 1;
	}
	elsif ($block->{sql} =~ /partman\.run_maintenance/ && !$maintenance_checked)
	{
		is_deeply(partman_days(),
			[ '2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23', '2026-11-24', '2026-11-25' ],
			'run_maintenance keeps three days ahead of the highest id');
		$maintenance_checked = 1;
	}
	elsif ($block->{sql} =~ /partman\.partition_data_id/)
	{
		# Every click in the partition of its UTC day, none left in the default partition.
		is( $node->safe_psql(
				$db, q{
				SELECT count(*) || ' ' || count(*) FILTER (WHERE tableoid::regclass::text = 'clicks_p' ||
				  idgen.snowflake_bound(date_trunc('day', idgen.snowflake_timestamp(id) AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'))
				FROM clicks}),
			'4 4',
			'pg_partman: the 4 clicks are each in the partition of their day');
		is($node->safe_psql($db, 'SELECT count(*) FROM ONLY clicks_default'),
			'0', 'pg_partman: nothing left in clicks_default');
		is_deeply(partman_days(),
			[ '2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23', '2026-11-24', '2026-11-25',
			  '2026-11-30', '2026-12-01', '2026-12-02', '2026-12-03' ],
			'partition_data_id made the late day, and run_maintenance three days after it');
		$late_checked = 1;
	}
	elsif ($block->{sql} =~ /retention/)
	{
		is_deeply(partman_days(), [ '2026-11-30', '2026-12-01', '2026-12-02', '2026-12-03' ],
			'retention dropped the days more than three days of ids below the highest id');
		is($node->safe_psql($db, 'SELECT count(*) FROM clicks'), '1', 'with their clicks');
		$retention_checked = 1;
	}
}
ok($create_parent_checked && $maintenance_checked && $late_checked && $retention_checked,
	'the page runs pg_partman, its maintenance, the move of late rows and retention');

# The monthly tables of the first database: every row in the partition of its id's month, or in
# the default partition when that month has none.
my %time_of = (
	readings => 'idgen.uuid_timestamp(id)',
	orders => 'idgen.ulid_timestamp(id::uuid)',
	events => 'idgen.snowflake_timestamp(id)',
	invoices => 'idgen.distributed_id_timestamp(id)',
	messages => 'idgen.distributed_id128_timestamp(id)');
my %count;
for my $table (sort keys %time_of)
{
	my $result = $node->safe_psql(
		'app1', qq{
		SELECT count(*), count(DISTINCT tableoid),
		       count(*) FILTER (WHERE tableoid::regclass::text <> coalesce(
		         (SELECT c.relname::text FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
		          WHERE i.inhparent = '$table'::regclass
		            AND c.relname = '${table}_' || to_char(made AT TIME ZONE 'UTC', 'YYYY_MM')),
		         '${table}_default'))
		FROM (SELECT tableoid, $time_of{$table} AS made FROM $table) t});
	my ($rows, $used, $misplaced) = split /\|/, $result;
	ok($rows > 0 && $used >= 2, "$table: $rows rows in $used partitions");
	is($misplaced, 0, "$table: every row is in its month's partition");
	for my $row (split /\n/,
		$node->safe_psql('app1', "SELECT tableoid::regclass, count(*) FROM $table GROUP BY 1"))
	{
		my ($partition, $rows_in) = split /\|/, $row;
		$count{$partition} = $rows_in;
	}
}
# What the page shows of each partition, last shown value first: the final count.
my %shown;
$shown{$1} = $2 while $page =~ /^--\s+(\w+_(?:\d{4}_\d{2}|default))\s+\|\s+(\d+)\b/mg;
cmp_ok(scalar keys %shown, '>=', 10, 'the page shows the rows of its partitions');
for my $partition (sort keys %shown)
{
	is($count{$partition} // 0, $shown{$partition},
		"$partition holds the $shown{$partition} rows the page shows");
}
is($count{readings_default} // 0, 0, 'the default partition is empty after the move');

$node->stop;
done_testing();
