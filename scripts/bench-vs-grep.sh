#!/usr/bin/env bash
# Throughput of `oztrace stats` against grep and zcat on the same generated data.
# Usage: scripts/bench-vs-grep.sh [MB]   (default 200). Needs a release build:
#   cargo build --release --no-default-features
# Prints one line per tool: seconds and MB/s. Numbers, not assertions: run it on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/.."
mb=${1:-200}
bin=target/release/oztrace
[ -x "$bin" ] || { echo "build first: cargo build --release --no-default-features" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work/ozone-hadoop-datanode-dn1.log" "$mb" <<'PY'
import sys
path, mb = sys.argv[1], int(sys.argv[2])
lines = [
 "2026-08-20 14:{m:02}:{s:02},{ms:03} [3f2b9c1e-7a4d-4e8b-9c0f-5d6e7f8a9b0c@group-D2C8A1B9F0E4-StateMachineUpdater] INFO org.apache.ratis.server.impl.StateMachineUpdater: 3f2b9c1e-7a4d-4e8b-9c0f-5d6e7f8a9b0c@group-D2C8A1B9F0E4-StateMachineUpdater: Took a snapshot at index {i}\n",
 "2026-08-20 14:{m:02}:{s:02},{ms:03} [IPC Server handler 3 on default port 9861] INFO org.apache.hadoop.ozone.container.common.statemachine.commandhandler.CloseContainerCommandHandler: Processing Close Container command container #{i}\n",
 "2026-08-20 14:{m:02}:{s:02},{ms:03} [3f2b9c1e-7a4d-4e8b-9c0f-5d6e7f8a9b0c-EndpointStateMachineTaskThread-scm1.example.com:9861/scm1.example.com/10.20.0.11-0 ] WARN org.apache.hadoop.ozone.container.common.statemachine.EndpointStateMachine: Unable to communicate to SCM server at scm1.example.com:9861/scm1.example.com/10.20.0.11 past 60 seconds.\njava.net.ConnectException: Connection refused\n\tat sun.nio.ch.SocketChannelImpl.checkConnect(Native Method)\n",
]
target = mb << 20
written = 0
i = 0
with open(path, "w") as f:
    while written < target:
        s = lines[i % 3].format(m=(i // 60000) % 60, s=(i // 1000) % 60, ms=i % 1000, i=i)
        f.write(s)
        written += len(s)
        i += 1
PY
log="$work/ozone-hadoop-datanode-dn1.log"
gzip -k -1 "$log"
size=$(stat -c %s "$log")
run() {
  local name=$1; shift
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null
  end=$(date +%s.%N)
  python3 -c "import sys; t=float(sys.argv[2])-float(sys.argv[1]); print(f'{sys.argv[3]:<32} {t:7.2f} s  {int(sys.argv[4])/t/1e6:8.1f} MB/s')" "$start" "$end" "$name" "$size"
}
echo "data: $((size >> 20)) MiB plain, $(( $(stat -c %s "$log.gz") >> 20 )) MiB gzip"
run "grep -c ' WARN '" grep -c ' WARN ' "$log"
run "zcat | wc -l" sh -c "zcat '$log.gz' | wc -l"
run "oztrace stats (plain, 1 file)" "$bin" stats "$log"
run "oztrace stats (gzip, 1 file)" "$bin" stats "$log.gz"
