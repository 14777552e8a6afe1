#!/usr/bin/env bash
# The contract: schemathesis (PyPI, pinned in Scripts/requirements-test.txt) generates requests
# from Docs/openapi.yaml and runs every one of its checks on the answers of a fresh scrollstackd
# (ephemeral port, temporary data dir, --metrics so that GET /metrics is served as the spec
# says): the examples, the coverage phase (each schema
# constraint on both sides of its edge), random fuzzing, and stateful sequences that follow the
# spec's links (a created stack → its rows, layout, history …). Bounded and seeded:
#   SCHEMATHESIS_SEED      the seed (default SCROLLSTACK_SEED, else 20261123; every run prints it)
#   SCHEMATHESIS_EXAMPLES  the examples per operation and phase in one cycle (default 20)
#   SCHEMATHESIS_SECONDS   schemathesis' time budget (default 120): it shares it among the phases
#                          and repeats fuzzing and stateful sequences until it is spent, then
#                          stops gracefully; a run still going 120 s later is killed (a failure).
#                          One cycle of every phase takes about 80 s here (coverage 50, fuzzing
#                          20, stateful 3), so the default runs each phase at least once; a
#                          longer budget only repeats fuzzing and stateful sequences
# Needs the debug build (`swift build`). Prints the requests sent, the checks run and their
# failures (from schemathesis' NDJSON report, kept as .build/schemathesis-report.ndjson), and
# as its last line "N passed, N failed": one per API operation schemathesis tested (and one
# for its stateful sequences), failed when any check failed on it or it errored, one for
# the server still answering /healthz afterwards, one for the spec having no key twice in
# one mapping, one for its Error schema listing every error code the sources answer with, and
# one for the checks in force (every one, but the exceptions schemathesis.toml makes).
# If schemathesis fails inside its own stateful engine (an exception of its own, every check
# passed, nothing wrong on the wire), that phase runs once more and its result stands; each
# error schemathesis met is printed just before the last line either way.
# Settings: Scripts/checks/schemathesis.toml.
set -uo pipefail
cd "$(dirname "$0")/../.."
binary=.build/debug/scrollstackd
[ -x "$binary" ] || { echo "skipped: $binary is not built"; exit 0; }
Scripts/pip-install.sh >/dev/null 2>&1 || true
python3 -c "import schemathesis" 2>/dev/null \
    || { echo "skipped: schemathesis cannot be installed (pip install -r Scripts/requirements-test.txt)"; exit 0; }
seed=${SCHEMATHESIS_SEED:-${SCROLLSTACK_SEED:-20261123}}
examples=${SCHEMATHESIS_EXAMPLES:-20}
seconds=${SCHEMATHESIS_SECONDS:-120}
work=$(mktemp -d)
# The server's data in memory (/dev/shm) where there is one: this check holds answers to the
# contract, and a shared disk that stalls an fsync for seconds would time requests out here
# for reasons of its own (durability on disk is the crash and restart tests' business).
data=$(mktemp -d -p /dev/shm 2>/dev/null || mktemp -d)
pid=""
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work" "$data"; }
trap cleanup EXIT

# The server's log goes through a FIFO: read until it names its port (10 s at most), then
# drained in the background so the server never blocks on it.
mkfifo "$work/log.fifo"
"$binary" --port 0 --data-dir "$data" --metrics --log-level notice 2>"$work/log.fifo" &
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

# schemathesis_run SEED SECONDS REPORT [OPTION …]: the command, as an array in `command`.
schemathesis_run() {
    # No `--checks`: every check is on by default, and a check named on the command line
    # would override the exceptions schemathesis.toml makes per operation (checked below).
    command=(python3 -m schemathesis.cli --config-file Scripts/checks/schemathesis.toml run Docs/openapi.yaml --url "http://127.0.0.1:$port"
             --seed "$1" --max-examples "$examples" --max-time "$2" --workers 1 --request-timeout 10 --no-color
             --generation-database none --report ndjson --report-ndjson-path "$3" "${@:4}")
}
schemathesis_run "$seed" "$seconds" "$work/report.ndjson"
echo "seed $seed; command: schemathesis ${command[*]:3}" | sed "s|$work|TMP|g; s|:$port|:PORT|"
timeout --kill-after=10 $((seconds + 120)) "${command[@]}" >"$work/out" 2>&1
status=$?
# The summary and every failure as schemathesis prints them (its report's paths are temporary).
sed -n '/^=* *FAILURES\|^=* *ERRORS\|^=* *SUMMARY/,$p' "$work/out"
[ "$status" -eq 124 ] && echo "schemathesis did not stop within $((seconds + 120)) s"

# Schemathesis' own stateful engine can fail with an exception of its own (its stateful
# phase has had internal errors: schemathesis#2377, #2977), seen once in CI with every check
# passed. Such an error, and only when no check failed and nothing went wrong on the wire, is
# told apart from the server's faults: the stateful phase then runs once more (another seed,
# 120 s), and its result stands for "Stateful tests". Transport errors (a reset, a broken
# chunk, a timeout, a bad gzip) are the server's and are never run again.
tool_error=$(python3 - "$work/report.ndjson" <<'PY'
import json, sys
SERVER = {"ConnectionError", "ChunkedEncodingError", "ReadTimeout", "ConnectTimeout", "Timeout", "UnhealthyAPIError",
          "ProtocolError", "RemoteDisconnected", "ConnectionResetError", "ContentDecodingError", "TooManyRedirects"}
errors, failed = [], 0
try:
    for line in open(sys.argv[1]):
        for kind, body in json.loads(line).items():
            if kind == "NonFatalError":
                errors.append(body)
            elif kind == "ScenarioFinished":
                failed += sum(r.get("status") == "failure" for rs in body.get("recorder", {}).get("checks", {}).values() for r in rs)
except (OSError, ValueError):
    sys.exit()
value = lambda e: e.get("value") or {}
if errors and not failed and all(e.get("label") == "Stateful tests" and value(e).get("type") not in SERVER for e in errors):
    print(f"{value(errors[0]).get('type')}: {' '.join(str(value(errors[0]).get('message', '')).split())[:300]}")
PY
)
again=""
if [ -n "$tool_error" ] && [ "$status" -le 1 ]; then
    echo "schemathesis failed inside its stateful phase ($tool_error): that phase runs once more, seed $((seed + 1))"
    again="$work/again.ndjson"
    schemathesis_run $((seed + 1)) 120 "$again" --phases stateful
    timeout --kill-after=10 240 "${command[@]}" >"$work/again.out" 2>&1
    sed -n '/^=* *FAILURES\|^=* *ERRORS/,/^=* *SUMMARY/p' "$work/again.out"
fi

# An answer that breaks the contract is shown with where it breaks it: schemathesis prints
# only the top of a `oneOf` and a truncated body, and the clean clone that ran the check goes.
python3 - Docs/openapi.yaml "$work/report.ndjson" $again <<'PY'
import base64, json, sys, yaml
import jsonschema
spec = yaml.safe_load(open(sys.argv[1]))
shown = 0
lines = []
for report in sys.argv[2:]:
    try:
        lines += open(report).readlines()
    except OSError:
        pass
for line in lines:
    try:
        scenario = json.loads(line).get("ScenarioFinished")
    except ValueError:  # a last line cut short
        continue
    if not scenario:
        continue
    recorder = scenario.get("recorder", {})
    for case, results in recorder.get("checks", {}).items():
        if not any(r.get("name") == "response_schema_conformance" and r.get("status") == "failure" for r in results):
            continue
        exchange = recorder.get("interactions", {}).get(case) or {}
        response, request = exchange.get("response") or {}, exchange.get("request") or {}
        # The case's own method and path (a stateful scenario's label names no operation).
        value = (recorder.get("cases", {}).get(case) or {}).get("value", {})
        method, path = value.get("method", ""), value.get("path", "")
        status = str(response.get("status_code"))
        try:
            body = json.loads(base64.b64decode(response["content"]["$base64"]))
            answer = spec["paths"][path][method.lower()]["responses"][status]
            if "$ref" in answer:
                answer = spec["components"]["responses"][answer["$ref"].split("/")[-1]]
            schema = dict(answer["content"]["application/json"]["schema"], components=spec["components"])
        except (KeyError, TypeError, ValueError):
            continue
        errors = list(jsonschema.Draft202012Validator(schema).iter_errors(body))
        print(f"answer against the contract: {method} {request.get('uri', path)} ({status})")
        said = set()
        for error in errors[:2]:
            for e in sorted(error.context or [error], key=lambda e: -len(e.absolute_path))[:4]:
                where = "/".join(str(p) for p in e.absolute_path) or "(the answer)"
                if (where, e.message) not in said:
                    said.add((where, e.message))
                    print(f"    at {where}: {e.message[:300]}")
        print("    body: " + json.dumps(body, separators=(",", ":"))[:3000])
        shown += 1
        if shown >= 4:
            sys.exit()
PY

# Kept for a look at every request and check (the temporary folder goes).
mkdir -p .build && cp "$work/report.ndjson" .build/schemathesis-report.ndjson 2>/dev/null
health=$(curl -s --max-time 5 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/healthz")
python3 - "$work/report.ndjson" "$status" "$health" Docs/openapi.yaml "$work/log" "$again" <<'PY'
import json, sys, yaml
path, status, health, spec, server_log, again = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6]

# YAML keeps the last of two equal keys in a mapping without a word, so a response listed
# twice under one status silently loses the first: the spec is read once more, refusing them.
class StrictLoader(yaml.SafeLoader):
    pass
duplicates = []
def construct_mapping(loader, node, deep=False):
    seen = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            duplicates.append(f"{key!r} at line {key_node.start_mark.line + 1}")
        seen.add(key)
    return yaml.SafeLoader.construct_mapping(loader, node, deep)
StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, construct_mapping)
yaml.load(open(spec), StrictLoader)
ok_spec = not duplicates
print(("ok    " if ok_spec else "FAIL  ") + "the spec has no key twice in one mapping"
      + (f": {', '.join(duplicates)}" if duplicates else ""))
# Every error code the sources answer with (the cases of `APIError.Code`, where each is
# spelled once) is one the spec's Error schema lists: the run below reaches no code that only
# tokens or admitted origins produce (the server runs without them).
import re
text = open("Sources/ScrollStackService/APIError+Code.swift", encoding="utf-8").read()
written = set(re.findall(r'^\s*case \w+ = "([a-z_]+)"$', text, re.M)) | set(re.findall(r'^\s*case ([a-z]+)$', text, re.M))
listed = set(yaml.safe_load(open(spec))["components"]["schemas"]["Error"]["properties"]["error"]["properties"]["code"]["enum"])
unlisted = sorted(written - listed)
ok_codes = bool(written) and not unlisted
print(("ok    " if ok_codes else "FAIL  ") + f"the spec's Error schema lists all {len(written)} error codes of the sources"
      + (f"; missing: {', '.join(unlisted)}" if unlisted else ""))
# The checks in force, read from schemathesis.toml as the run reads it: every registered check
# on for the run, and off only where the file says so (`use_after_free` for the rows list,
# whose DELETE clears it): a `--checks` on the command line once switched that exception back
# on, and the stateful phase then failed on a right answer.
import schemathesis
from schemathesis.checks import CHECKS, load_all_checks
from schemathesis.config import SchemathesisConfig
load_all_checks()
names = sorted(CHECKS.get_all_names())
loaded = schemathesis.openapi.from_path(spec, config=SchemathesisConfig.from_path("Scripts/checks/schemathesis.toml"))
def checks_off(operation=None, phase=None):
    in_force = loaded.config.checks_config_for(operation=operation, phase=phase)
    return sorted(name for name in names if not in_force.get_by_name(name=name).enabled)
exceptions = {}
for result in loaded.get_all_operations():
    operation = result.ok()
    for phase in ("examples", "coverage", "fuzzing", "stateful"):
        off = checks_off(operation, phase)
        if off:
            exceptions.setdefault(f"{operation.method.upper()} {operation.path}", set()).update(off)
rows_list = {f"{method} /v1/stacks/{{stack}}/rows" for method in ("GET", "POST", "DELETE", "OPTIONS")}
ok_checks = (len(names) >= 10 and not checks_off() and set(exceptions) == rows_list
             and all(off == {"use_after_free"} for off in exceptions.values()))
print(("ok    " if ok_checks else "FAIL  ") + f"all {len(names)} checks are on for every operation but use_after_free on the rows list"
      + ("" if ok_checks else f" (off for the run: {checks_off()}; by operation: {exceptions})"))
requests = checks = failed_checks = 0
operations = {}  # label → passed
errors = []  # NonFatalError events
try:
    events = [json.loads(line) for line in open(path) if line.strip()]
except OSError:
    events = []
if again:
    # The stateful phase ran again after schemathesis failed inside it: its events replace
    # the first run's account of "Stateful tests" (every other operation keeps both runs').
    try:
        rerun = [json.loads(line) for line in open(again) if line.strip()]
    except OSError:
        rerun = [{"NonFatalError": {"label": "Stateful tests", "phase": "stateful", "value": {"type": "missing", "message": "the second run left no report"}}}]
    events = [e for e in events if not any(kind == "NonFatalError" and body.get("label") == "Stateful tests" for kind, body in e.items())]
    events = [e for e in events if not any(kind == "ScenarioFinished" and body.get("recorder", {}).get("label") == "Stateful tests" for kind, body in e.items())]
    events += rerun
for event in events:
    for kind, body in event.items():
        if kind == "ScenarioFinished":
            recorder = body.get("recorder", {})
            requests += len(recorder.get("interactions", {}))
            for results in recorder.get("checks", {}).values():
                checks += len(results)
                failed_checks += sum(result.get("status") == "failure" for result in results)
            label = recorder.get("label")
            if label and body.get("status") != "skip":
                operations[label] = operations.get(label, True) and body.get("status") == "success"
        elif kind == "NonFatalError":
            operations[body.get("label", "?")] = False
            errors.append(body)
bad = sorted(name for name, ok in operations.items() if not ok)
print(f"{requests} requests, {checks} checks, {failed_checks} failed checks, {len(operations)} operations tested"
      + (f"; failing: {', '.join(bad)}" if bad else ""))
# Each error schemathesis met (a transport failure, its own exception), here near the last
# line, where a truncated CI log still shows it.
for error in errors:
    value = error.get("value") or {}
    message = " ".join(str(value.get("message", "")).split())[:600]
    print(f"error in {error.get('phase')} ({error.get('label')}): {value.get('type')}: {message}")
ok_health = health == "200"
print(("ok    " if ok_health else "FAIL  ") + f"the server still answers /healthz ({health})")
complete = status in (0, 1) and requests > 0
if not complete:
    print(f"FAIL  schemathesis exited {status} after {requests} requests")
if bad or errors:
    # The server's own account (warnings and errors) of what went wrong, the last few.
    try:
        lines = [line.rstrip() for line in open(server_log, errors="replace")
                 if "warning" in line or "error" in line or " slow: " in line]
    except OSError:
        lines = []
    for line in lines[-8:]:
        print("server: " + line[:400])
    # The requests that got no answer (a timeout, a reset), as sent, for a replay with curl.
    unanswered = [interaction.get("request") or {} for event in events for kind, body in event.items() if kind == "ScenarioFinished"
                  for interaction in body.get("recorder", {}).get("interactions", {}).values() if not interaction.get("response")]
    import base64
    for request in unanswered[-5:]:
        body = request.get("body") or {}
        body = base64.b64decode(body["$base64"]).decode(errors="replace") if isinstance(body, dict) and "$base64" in body else str(body)
        print(f"unanswered: {request.get('method')} {request.get('uri')} body {body[:800]!r}")
passed = len(operations) - len(bad) + ok_health + ok_spec + ok_codes + ok_checks
failed = len(bad) + (not ok_health) + (not ok_spec) + (not ok_codes) + (not ok_checks) + (not complete) + (status == 1 and not bad)
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
PY
