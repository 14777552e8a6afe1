#!/usr/bin/env bash
# Runs README.md's carousel walkthrough (the commands between the carousel-walkthrough
# markers, verbatim but for the port) against a fresh scrollstackd, and checks the answers
# the README quotes. Needs the debug build (`swift build`); installs curl and python3 if missing.
set -uo pipefail
cd "$(dirname "$0")/../.."
binary=.build/debug/scrollstackd
[ -x "$binary" ] || { echo "skipped: $binary is not built"; exit 0; }
missing=()
for tool in curl python3; do command -v "$tool" >/dev/null || missing+=("$tool"); done
if [ "${#missing[@]}" -gt 0 ]; then
    SUDO=$([ "$(id -u)" -eq 0 ] || echo sudo)
    $SUDO apt-get -o DPkg::Lock::Timeout=900 install -y -qq "${missing[@]}" >/dev/null \
        || { echo "skipped: cannot install ${missing[*]}"; exit 0; }
fi
work=$(mktemp -d)
pid=""
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

# The server's log goes through a FIFO: read until it names its port (10 s at most), then
# drained in the background so the server never blocks on it.
mkfifo "$work/log.fifo"
"$binary" --port 0 --in-memory --log-level notice 2>"$work/log.fifo" &
pid=$!
exec 3<"$work/log.fifo"
port=""
while IFS= read -r -t 10 line <&3; do
    echo "$line" >>"$work/log"
    if [[ "$line" =~ listening\ on\ http://127\.0\.0\.1:([0-9]+) ]]; then
        port=${BASH_REMATCH[1]}
        break
    fi
done
cat <&3 >>"$work/log" &
[ -n "$port" ] || { echo "the server did not start: $(cat "$work/log")"; echo "0 passed, 1 failed"; exit 1; }

# The walkthrough's commands, run as written (but for the port); every answer ends a line.
{
    echo 'curl() { command curl --max-time 10 "$@"; echo; }'
    sed -n '/<!-- carousel-walkthrough:begin -->/,/<!-- carousel-walkthrough:end -->/p' README.md \
        | grep -v -e '^<!--' -e '^```' | sed "s/localhost:8080/127.0.0.1:$port/g"
} >"$work/walk.sh"
bash "$work/walk.sh" >"$work/out" 2>&1

python3 - "$work/out" <<'PY'
import json, sys
answers = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
checks = []
def check(name, ok):
    checks.append(ok)
    print(("ok    " if ok else "FAIL  ") + name)
check("three answers", len(answers) == 3)
created, settled, layout = (answers + [{}, {}, {}])[:3]
check("created at revision 1 with the menu's defaults filled in",
      created.get("revision") == 1 and created.get("menu", {}).get("selectedScrollPosition") == "preferCentered")
check("the flick springs to page 1 at 375", settled.get("page") == 1 and settled.get("target") == {"x": 375, "y": 0}
      and settled.get("motion") == "spring")
check("the settle is a revision with didScroll", settled.get("revision") == 2
      and {"type": "didScroll", "from": {"x": 0, "y": 0}, "to": {"x": 375, "y": 0}} in settled.get("events", []))
curve = settled.get("curve", [])
check("the curve starts at the release point and ends on the target at the duration",
      curve[:1] == [{"t": 0, "offset": 60}] and curve[-1:] == [{"t": settled.get("duration"), "offset": 375}])
check("paging state", layout.get("paging") == {"pageSize": 375, "pageCount": 5, "currentPage": 1, "progress": 1})
indicator = dict(layout.get("pageIndicator", {}))
dots = indicator.pop("dots", [])
check("page indicator", indicator == {"frame": {"x": 152, "y": 563, "width": 71, "height": 37},
      "numberOfPages": 5, "currentPage": 1, "hidden": False}
      and [d["color"] for d in dots] == ["#FFFFFF4D", "#FFFFFFFF", "#FFFFFF4D", "#FFFFFF4D", "#FFFFFF4D"])
menu = layout.get("menu", {})
check("menu frame, selection, indicator and border",
      menu.get("frame") == {"x": 0, "y": -44, "width": 375, "height": 44}
      and menu.get("selected") == {"index": 1, "id": "news", "rowIndex": 1}
      and menu.get("indicator") == {"x": 120, "y": 40, "width": 120, "height": 4}
      and menu.get("border") == {"x": 8, "y": 43, "width": 584, "height": 1}
      and [i["frame"]["x"] for i in menu.get("items", [])] == [0, 120, 240, 360, 480])
failed = checks.count(False)
print(f"{len(checks) - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
PY
