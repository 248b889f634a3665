# Plots of an insert benchmark run (bench/insert.sh):
#   gnuplot -e "dir='<run dir>'; segment=<rows per segment>" bench/insert.gp
set datafile separator ','
set termoption noenhanced
set key outside right
set grid
keys = "bigserial uuid_v4 comb comb_seq uuidv7 distributed_id distributed_id128 group_uuid ulid typeid snowflake"
data = dir.'/segments.csv'
set terminal pngcairo size 1000,560 font ',10' noenhanced
set xlabel 'rows in the table (millions)'

set output dir.'/throughput.png'
set title 'Insert throughput as the primary-key index grows (shared_buffers 16MB)'
set ylabel 'rows per second (each segment)'
plot for [k in keys] data using ($2/1e6):(strcol(1) eq k ? $4 : 1/0) with linespoints title k

set output dir.'/wal_per_row.png'
set title 'WAL per inserted row'
set ylabel 'WAL bytes per row (each segment)'
plot for [k in keys] data using ($2/1e6):(strcol(1) eq k ? $5 : 1/0) with linespoints title k

set output dir.'/fpi_per_row.png'
set title 'Full-page images per 1000 inserted rows (a checkpoint after every segment)'
set ylabel 'full-page images per 1000 rows (each segment)'
plot for [k in keys] data using ($2/1e6):(strcol(1) eq k ? $6 * 1000 / segment : 1/0) with linespoints title k

set output dir.'/index_size.png'
set title 'Primary-key index size'
set ylabel 'index size (MB)'
plot for [k in keys] data using ($2/1e6):(strcol(1) eq k ? $7/1048576 : 1/0) with linespoints title k
