#!/usr/bin/env bash
# Throughput of a fleet run, in bundles per minute: every sample bundle as a .tar.gz, the set
# repeated REPEAT times (hard links, each copy in a folder of its own), scanned by
# `oztrace scan --each` with -j 1 and on every core, then by the Spark job
# (integrations/spark/oztrace_spark.py) on local[2] over the same files, shipping the same binary.
# Each run's count of bundles is checked before its figure is printed.
#
# Usage: scripts/fleet-bench.sh [REPEAT]   (default 200; files in target/fleet-bench/)
#   OZTRACE=path   the binary (default: target/release/oztrace, built --no-default-features;
#                  a binary built with the parquet feature also gets a --dataset run)
#   SPARK=0        skip the Spark job (it needs java and pyspark's spark-submit on PATH)
# Numbers, not assertions: note `uptime` next to them, since other builds share the machine.
set -euo pipefail
cd "$(dirname "$0")/.."
repeat=${1:-200}
if [ -z "${OZTRACE:-}" ]; then
  cargo build --release --no-default-features -p oztrace >&2
fi
bin=$(realpath "${OZTRACE:-target/release/oztrace}")
work=$PWD/target/fleet-bench
mkdir -p "$work/tarballs"

# The samples as tarballs, their members relative to the bundle (as support bundles are).
samples=()
for sample in samples/*/; do
  [ -f "$sample/EXPECTED.json" ] || continue
  name=$(basename "$sample")
  samples+=("$name")
  tarball="$work/tarballs/$name.tar.gz"
  [ -f "$tarball" ] || tar -czf "$tarball" -C "$sample" .
done
rm -rf "$work/archive" "$work/out"
mkdir -p "$work/out"
for i in $(seq -w 1 "$repeat"); do
  mkdir -p "$work/archive/r$i"
  ln "$work"/tarballs/*.tar.gz "$work/archive/r$i/"
done
bundles=$((${#samples[@]} * repeat))
bytes=$(du -sbL "$work/tarballs" | cut -f1)
echo "bundles: ${#samples[@]} samples x $repeat = $bundles tar.gz files, $(((bytes * repeat) >> 20)) MiB"
echo "machine: $(nproc) cores; load $(uptime | sed 's/.*load average: //')"
echo "binary: $bin ($("$bin" --version))"

# run NAME CHECK CMD...: wall time of CMD, then CHECK (a command that prints the bundles done).
run() {
  local name=$1 check=$2; shift 2
  local start end done_count
  start=$(date +%s.%N)
  "$@" || [ $? -eq 1 ] # 1: findings
  end=$(date +%s.%N)
  done_count=$(eval "$check")
  if [ "$done_count" != "$bundles" ]; then
    echo "$name: $done_count bundles done of $bundles" >&2
    exit 1
  fi
  printf '%-46s %8.1f s %9.0f bundles/min\n' "$name" "$(echo "$end - $start" | bc -l)" \
    "$(echo "$bundles * 60 / ($end - $start)" | bc -l)"
}

summaries() { grep -c '"schema":"oztrace.summary/v1"' "$1"; }
archive=("$work"/archive/*/*.tar.gz)
out=$work/out
# Standard error (the total line) goes to a file: only the table is printed.
each_one() { "$bin" scan --each -j 1 --format jsonl "${archive[@]}" > "$out/j1.jsonl" 2>> "$out/stderr"; }
each_all() { "$bin" scan --each --format jsonl "${archive[@]}" > "$out/jn.jsonl" 2>> "$out/stderr"; }
each_dataset() {
  "$bin" scan --each --format jsonl --dataset "$out/dataset" "${archive[@]}" > /dev/null 2>> "$out/stderr"
}
dataset_bundles() { "$bin" query "$out/dataset" 'SELECT COUNT(*) AS n FROM bundles' --format csv | tail -1; }
spark_job() {
  # One oztrace per task, two tasks at once; a driver big enough to hold two bundles' bytes.
  spark-submit --master "local[2]" --driver-memory 2g --conf spark.ui.enabled=false \
    --conf spark.sql.shuffle.partitions=2 --files "$bin" integrations/spark/oztrace_spark.py \
    --out "$out/spark" "$work/archive/*/*.tar.gz" > "$out/spark.log" 2>&1
}
spark_bundles() { sed -n 's/^oztrace_spark: \([0-9]*\) bundles, 0 failed.*/\1/p' "$out/spark.log"; }

printf '%-46s %10s %20s\n' run wall throughput
run "oztrace scan --each -j 1" "summaries $out/j1.jsonl" each_one
run "oztrace scan --each -j $(nproc)" "summaries $out/jn.jsonl" each_all
probe=$("$bin" query "$work" "SELECT 1" 2>&1 || true)
if [[ $probe != *'without the `parquet` feature'* ]]; then
  run "oztrace scan --each -j $(nproc) --dataset" dataset_bundles each_dataset
fi
if [ "${SPARK:-1}" = 1 ]; then
  run "oztrace_spark.py, local[2]" spark_bundles spark_job
fi
