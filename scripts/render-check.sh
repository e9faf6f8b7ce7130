#!/usr/bin/env bash
# Renders oztrace's HTML report in headless Chromium and checks what a person would see:
# oztrace's own script ran under the page's Content-Security-Policy, hostile log text stayed
# text (no element came out of it), and every finding has its swimlane timeline with marks.
# Pages: the test fixture (findings whose log lines try to inject script) and a real scan of a
# sample bundle. Without Chromium (Debian package `chromium`) it prints "skipped: no chromium".
set -euo pipefail
cd "$(dirname "$0")/.."

browser=""
for candidate in chromium chromium-browser; do
    if command -v "$candidate" >/dev/null 2>&1; then
        browser="$candidate"
        break
    fi
done
if [[ -z "$browser" ]]; then
    echo "skipped: no chromium"
    exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

fail() {
    echo "render-check: $*" >&2
    exit 1
}

# Runs the browser on one page; extra flags (--dump-dom, --screenshot=…) come from the caller.
render() {
    local page="$1"
    shift
    rm -rf "$work/profile"
    timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
        --disable-component-update --disable-sync --no-first-run \
        --user-data-dir="$work/profile" --virtual-time-budget=2000 "$@" "file://$page" \
        2>"$work/browser.log"
}

count() {
    grep -o -- "$1" "$2" | wc -l | tr -d ' '
}

check_page() {
    local name="$1" page="$2" findings="$3" marks="$4"
    render "$page" --dump-dom >"$work/$name.dom" || fail "$name: chromium failed: $(tail -3 "$work/browser.log")"
    grep -q 'data-oztrace="ready"' "$work/$name.dom" \
        || fail "$name: oztrace's script did not run (blocked by the page's policy?)"
    [[ "$(count '<script' "$work/$name.dom")" == 1 ]] || fail "$name: more than one script element"
    ! grep -q '<img' "$work/$name.dom" || fail "$name: log text became an <img> element"
    [[ "$(count '<svg class="lanes"' "$work/$name.dom")" == "$findings" ]] \
        || fail "$name: expected $findings timelines"
    if [[ -n "$marks" ]]; then
        [[ "$(count '<g class="mark"' "$work/$name.dom")" == "$marks" ]] \
            || fail "$name: expected $marks evidence marks"
    fi
    render "$page" --window-size=1200,1400 --screenshot="$work/$name.png" >/dev/null \
        || fail "$name: screenshot failed"
    [[ -s "$work/$name.png" ]] || fail "$name: empty screenshot"
    echo "render-check: $name: ok"
}

# The fixture: two findings, five evidence lines, three of them hostile.
OZTRACE_RENDER_FIXTURE="$work/fixture.html" cargo test -q --no-default-features --bin oztrace \
    report::html::tests::write_render_fixture -- --ignored --exact >"$work/cargo.log" 2>&1 \
    || { cat "$work/cargo.log" >&2; fail "could not write the fixture page"; }
check_page fixture "$work/fixture.html" 2 5
grep -q '&lt;script&gt;alert("pwned")&lt;/script&gt;' "$work/fixture.dom" \
    || fail "fixture: the hostile line is not shown as text"
grep -q '<title>oztrace report</title>' "$work/fixture.dom" || fail "fixture: the title changed"

# A real scan of a sample bundle: as many timelines as the JSON report has findings.
sample="samples/HDDS-17400-bug-stale-open-replica"
status=0
cargo run -q --no-default-features -- scan "$sample" --format json --report "$work/sample.html" \
    >"$work/sample.json" 2>"$work/scan.log" || status=$?
[[ "$status" == 0 || "$status" == 1 ]] || { cat "$work/scan.log" >&2; fail "scan of $sample exited $status"; }
findings="$(grep -c '"fingerprint":' "$work/sample.json" || true)"
check_page sample "$work/sample.html" "$findings" ""
echo "render-check: passed"
