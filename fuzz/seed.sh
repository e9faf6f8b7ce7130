#!/bin/sh
# Seeds fuzz/corpus/<target>/ from the sample bundles (run from anywhere; corpora are not kept
# in git, the crash inputs they found are, as regression tests in parser/tests/fuzz_regressions.rs).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
samples="$here/../samples"
corpus="$here/corpus"
mkdir -p "$corpus/records" "$corpus/catalog" "$corpus/archive" "$corpus/audit_params"
i=0
find "$samples" -type f \( -name '*.log*' -o -name '*.out*' \) | sort | while read -r f; do
    i=$((i + 1))
    cp "$f" "$corpus/archive/sample-$i"
    case "$f" in
        *.gz) gzip -dc "$f" | head -c 4096 > "$corpus/records/sample-$i" || true ;;
        *) head -c 4096 "$f" > "$corpus/records/sample-$i" ;;
    esac
    # The catalogue target reads its first byte as the component (12 of them).
    { printf "\\$(printf '%03o' $((i % 12)))"; cat "$corpus/records/sample-$i"; } > "$corpus/catalog/sample-$i"
    grep -ho 'user=.*' "$corpus/records/sample-$i" 2>/dev/null | head -20 | while read -r line; do
        i=$((i + 1000))
        printf '%s' "$line" > "$corpus/audit_params/sample-$i-$(printf '%s' "$line" | cksum | cut -d' ' -f1)"
    done
done
# Archives whole: one bundle as tar, tar.gz and zip-free tar inside gzip.
tar -C "$samples" -cf "$corpus/archive/bundle.tar" HDDS-17400-bug-stale-open-replica
gzip -c "$corpus/archive/bundle.tar" > "$corpus/archive/bundle.tar.gz"
ls "$corpus"/* | wc -l
