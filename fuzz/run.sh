#!/bin/sh
# Runs each fuzz target in turn, at the lowest priority and one job at a time, to RUNS executions
# (default 10 million); libFuzzer's closing "Done N runs" line is the count. Crash inputs land in
# fuzz/artifacts/<target>/. Usage: fuzz/run.sh [RUNS] [TARGET...]
set -u
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
runs=${1:-10000000}
[ $# -gt 0 ] && shift
targets=${*:-records audit_params catalog archive}
[ -d corpus ] || ./seed.sh
mkdir -p logs
for target in $targets; do
    case $target in
        audit_params) max_len=4096 ;;
        *) max_len=8192 ;;
    esac
    nice -n 19 cargo +nightly fuzz run -O -s none "$target" "corpus/$target" -- \
        -runs="$runs" -max_len="$max_len" -rss_limit_mb=2048 -timeout=20 -print_final_stats=1 \
        > "logs/$target.log" 2>&1
    echo "$target: exit $?; $(grep -E '^Done [0-9]+ runs' "logs/$target.log" || tail -1 "logs/$target.log")"
done
