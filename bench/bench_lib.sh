# shellcheck shell=bash
# Helpers of the benchmarks that build and start their own PostgreSQL installations
# (bench/peers.sh, bench/builds.sh): sourced from the repository's root.
# shellcheck source=test/lib/clusters.sh
source test/lib/clusters.sh  # as_server, free_ports_in, copy_for_server
# shellcheck source=test/lib/deps.sh
source test/lib/deps.sh      # remove_installed_scripts

# say TEXT: progress, on stderr (the report goes to stdout).
say() { echo "-- $*" >&2; }
# load_average: the 1, 5 and 15 minute load averages, for the report's header.
load_average() { cut -d' ' -f1-3 /proc/loadavg; }

# run LOG COMMAND...: runs COMMAND with its output appended to LOG; on failure shows the log's
# tail and ends the script.
run() {
  local log=$1
  shift
  if ! "$@" >>"$log" 2>&1; then
    echo "failed: $*" >&2
    tail -n 30 "$log" >&2
    exit 1
  fi
}
