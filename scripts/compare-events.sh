#!/usr/bin/env bash
# Compares the recorded trace of two oztrace binaries over every sample bundle: `events --format
# jsonl` and `events --all --format jsonl` must be byte-identical. For changes that must not change
# what is typed (the catalogue, the record reader).
# Usage: scripts/compare-events.sh BASE_BIN [NEW_BIN]   (NEW_BIN: target/release/oztrace)
#   e.g. git worktree add /tmp/base main && (cd /tmp/base && cargo build --release --no-default-features)
#        scripts/compare-events.sh /tmp/base/target/release/oztrace
# Exits 1 when a sample differs (the first lines of each diff are printed), 0 when all agree.
set -uo pipefail
cd "$(dirname "$0")/.."
base=${1:?usage: scripts/compare-events.sh BASE_BIN [NEW_BIN]}
new=${2:-target/release/oztrace}
for bin in "$base" "$new"; do
  [ -x "$bin" ] || { echo "not an executable: $bin" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
differ=0
samples=0
for dir in samples/HDDS-*/; do
  name=$(basename "$dir")
  for mode in typed all; do
    args=(events --format jsonl)
    [ "$mode" = all ] && args+=(--all)
    "$base" "${args[@]}" "$dir" >"$work/base" 2>"$work/base.err"
    "$new" "${args[@]}" "$dir" >"$work/new" 2>"$work/new.err"
    if ! cmp -s "$work/base" "$work/new" || ! cmp -s "$work/base.err" "$work/new.err"; then
      echo "DIFFERS: $name ($mode)"
      diff "$work/base" "$work/new" | head -20
      diff "$work/base.err" "$work/new.err" | head -5
      differ=1
    fi
  done
  samples=$((samples + 1))
done
if [ "$differ" = 0 ]; then
  echo "identical: $samples samples, events and events --all"
fi
exit "$differ"
