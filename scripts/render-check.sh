#!/usr/bin/env bash
# Renders oztrace's HTML report in headless Chromium and checks what a person sees:
# - oztrace's own script ran under the page's Content-Security-Policy, and hostile log text
#   stayed text (the test fixture's lines try to inject script and an <img>);
# - for three sample reports: every finding's headline and every evidence row is shown, and
#   every mark on every timeline lies inside its time axis with no two marks of a lane
#   overlapping (measured from the laid-out page: a harness page loads the report in an iframe
#   and writes the geometry into its own DOM, which --dump-dom prints);
# - a screenshot of each page (kept in $RENDER_CHECK_OUT, default target/render-check/).
# It fails when Chromium is missing or cannot run (.ci/run installs Debian's `chromium`).
set -euo pipefail
cd "$(dirname "$0")/.."

browser=""
for candidate in chromium chromium-browser; do
    if command -v "$candidate" >/dev/null 2>&1; then
        browser="$candidate"
        break
    fi
done
fail() {
    echo "render-check: $*" >&2
    exit 1
}
[[ -n "$browser" ]] || fail "no chromium on PATH (Debian: apt-get install chromium)"

out="${RENDER_CHECK_OUT:-target/render-check}"
mkdir -p "$out"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Runs the browser on one URL; extra flags (--dump-dom, --screenshot=…) come from the caller.
render() {
    local url="$1"
    shift
    rm -rf "$work/profile"
    timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$work/profile" --virtual-time-budget=3000 "$@" "$url" \
        2>"$work/browser.log"
}

# The harness: loads a report in a 1400 px wide iframe and, once it is laid out, writes what a
# person would see into <pre id="result"> as JSON.
cat >"$work/harness.html" <<'HTML'
<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>render-check</title></head>
<body>
<iframe id="page" style="width:1400px;height:3000px;border:0"></iframe>
<pre id="result">pending</pre>
<script>
const frame = document.getElementById("page");
frame.addEventListener("load", () => {
  const doc = frame.contentDocument;
  const result = {
    ready: doc.documentElement.getAttribute("data-oztrace"),
    scripts: doc.querySelectorAll("script").length,
    images: doc.querySelectorAll("img").length,
    headlines: [...doc.querySelectorAll("section.finding h3.headline")]
      .filter(h => h.getBoundingClientRect().height > 0).map(h => h.textContent.trim()),
    rows: [...doc.querySelectorAll("tr.ev")].filter(r => r.getBoundingClientRect().height > 0)
      .map(r => r.querySelector("td.loc").textContent.trim()),
    notes_shown: [...doc.querySelectorAll("tr.ev td.note")]
      .filter(td => td.getBoundingClientRect().height > 0 && td.textContent.trim()).length,
    timelines: [],
  };
  for (const svg of doc.querySelectorAll("svg.lanes")) {
    const axis = svg.querySelector(".axis").getBoundingClientRect();
    // What is visible: marks outside clusters, and cluster badges (their marks are hidden).
    const visible = [...svg.querySelectorAll(".mark, .cluster .badge")]
      .filter(el => !el.closest(".cluster:not(.open) .members"))
      .map(el => {
        const box = (el.querySelector("circle, rect, path") || el).getBoundingClientRect();
        const lane = (el.closest("[data-lane]") || el).getAttribute("data-lane");
        return { lane, left: box.left, right: box.right, top: box.top, bottom: box.bottom };
      });
    const outside = visible.filter(b => b.left < axis.left - 0.5 || b.right > axis.right + 0.5).length;
    let overlaps = 0;
    for (let i = 0; i < visible.length; i++) {
      for (let j = i + 1; j < visible.length; j++) {
        const a = visible[i], b = visible[j];
        if (a.lane === b.lane && a.left < b.right - 0.5 && b.left < a.right - 0.5 &&
            a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5) { overlaps++; }
      }
    }
    result.timelines.push({ id: svg.id, marks: visible.length, outside, overlaps,
      ticks: svg.querySelectorAll("text.tick").length });
  }
  document.getElementById("result").textContent = JSON.stringify(result);
});
frame.src = new URLSearchParams(location.search).get("page");
</script>
</body></html>
HTML

# Measures one report; prints the harness's JSON.
measure() {
    local page="$1"
    render "file://$work/harness.html?page=file://$page" --allow-file-access-from-files --dump-dom \
        >"$work/harness.dom" || fail "chromium failed: $(tail -3 "$work/browser.log")"
    python3 - "$work/harness.dom" <<'PY'
import html, json, re, sys
dom = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r'<pre id="result">(.*?)</pre>', dom, re.S)
print(html.unescape(m.group(1)) if m else "missing")
PY
}

# Checks one report against the findings of its JSON document; $3: expected script check only.
check_report() {
    local name="$1" page="$2" json="$3"
    measure "$page" >"$work/$name.geometry"
    python3 - "$name" "$work/$name.geometry" "$json" <<'PY' || fail "$name: see above"
import json, sys
name, geometry, expected = sys.argv[1], sys.argv[2], sys.argv[3]
try:
    seen = json.load(open(geometry))
except ValueError:
    sys.exit(f"render-check: {name}: the harness did not measure the page: {open(geometry).read()[:200]}")
doc = json.load(open(expected))
problems = []
if seen["ready"] != "ready":
    problems.append("oztrace's script did not run (blocked by the page's policy?)")
if seen["scripts"] != 1:
    problems.append(f"{seen['scripts']} script elements, expected 1")
if seen["images"]:
    problems.append("log text became an <img> element")
want_headlines = [f'{f["entity"]} — {f["confidence"]}' for f in doc["findings"]]
if seen["headlines"] != want_headlines:
    problems.append(f"headlines {seen['headlines']} != {want_headlines}")
want_rows = [f'{e["file"]}:{e["line"]}' for f in doc["findings"] for e in f["evidence"]]
if seen["rows"] != want_rows:
    problems.append(f"{len(seen['rows'])} evidence rows shown, expected {len(want_rows)}")
if seen["notes_shown"] != len(want_rows):
    problems.append(f"{seen['notes_shown']} notes shown, expected {len(want_rows)}")
expected_timelines = len(doc["findings"]) + 1  # the overview, then one per finding
if len(seen["timelines"]) != expected_timelines:
    problems.append(f"{len(seen['timelines'])} timelines, expected {expected_timelines}")
for t in seen["timelines"]:
    if t["outside"]:
        problems.append(f"timeline {t['id']}: {t['outside']} marks outside the axis")
    if t["overlaps"]:
        problems.append(f"timeline {t['id']}: {t['overlaps']} overlapping marks")
    if t["ticks"] < 2:
        problems.append(f"timeline {t['id']}: {t['ticks']} tick labels")
timed = sum(1 for f in doc["findings"] for e in f["evidence"] if e["ts"])
if timed and not any(t["marks"] for t in seen["timelines"][1:]):
    problems.append("no marks on the findings' timelines")
for p in problems:
    print(f"render-check: {name}: {p}", file=sys.stderr)
sys.exit(1 if problems else 0)
PY
    render "file://$page" --window-size=1400,2000 --hide-scrollbars --screenshot="$out/$name.png" \
        >/dev/null || fail "$name: screenshot failed"
    [[ -s "$out/$name.png" ]] || fail "$name: empty screenshot"
    echo "render-check: $name: ok ($(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(len(d["rows"]), "evidence rows,", sum(t["marks"] for t in d["timelines"]), "marks")' "$work/$name.geometry"))"
}

cargo build -q --no-default-features 2>"$work/cargo.log" || { cat "$work/cargo.log" >&2; fail "build failed"; }
oztrace=target/debug/oztrace

# The fixture: findings whose log lines try to inject script and markup.
OZTRACE_RENDER_FIXTURE="$work/fixture.html" OZTRACE_RENDER_FIXTURE_JSON="$work/fixture.json" \
    cargo test -q --no-default-features --bin oztrace \
    report::html::tests::write_render_fixture -- --ignored --exact >"$work/cargo.log" 2>&1 \
    || { cat "$work/cargo.log" >&2; fail "could not write the fixture page"; }
check_report fixture "$work/fixture.html" "$work/fixture.json"
render "file://$work/fixture.html" --dump-dom >"$work/fixture.dom" || fail "fixture: chromium failed"
grep -q '&lt;script&gt;alert("pwned")&lt;/script&gt;' "$work/fixture.dom" \
    || fail "fixture: the hostile line is not shown as text"

# Three sample reports: two bugs with clustered and linked marks, and a clean scan.
for sample in HDDS-17400-bug-stale-open-replica HDDS-17675-bug-info HDDS-17219-control-node-dies; do
    status=0
    "$oztrace" scan "samples/$sample" --format json --report "$work/$sample.html" \
        >"$work/$sample.json" 2>"$work/scan.log" || status=$?
    [[ "$status" == 0 || "$status" == 1 ]] || { cat "$work/scan.log" >&2; fail "scan of $sample exited $status"; }
    check_report "$sample" "$work/$sample.html" "$work/$sample.json"
done
echo "render-check: passed (screenshots in $out)"
