"""Two scrollstackd binaries (a baseline and a candidate) served side by side, for the
benchmarks that compare them request by request: start both, measure a server's CPU around
a request, stop both. Imported by animated_batch_cpu.py, past_read_cost.py and
amplified_answer_cost.py (run them from any folder: Python puts their own folder first)."""
import json, os, subprocess, sys, tempfile, time, urllib.error, urllib.request


def ticks(pid):
    """The process's CPU so far, user + system, in seconds (/proc/PID/stat)."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def request(port, method, path, body=None):
    """(status, body bytes) of one request to 127.0.0.1:PORT; `body` is sent as JSON."""
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=600) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def start(binaries, first_port, durable=False, prefix="bench-"):
    """Starts each binary (--in-memory, or with `durable` a data dir of its own) on
    first_port, first_port + 1, …, and returns [(binary, process, port)] once each answers
    /healthz (10 s at most each; exits otherwise)."""
    servers = []
    for i, binary in enumerate(binaries):
        port = first_port + i
        store = ["--data-dir", tempfile.mkdtemp(prefix=prefix)] if durable else ["--in-memory"]
        process = subprocess.Popen([binary, *store, "--port", str(port), "--log-level", "warning"], stderr=subprocess.DEVNULL)
        servers.append((binary, process, port))
    for _, _, port in servers:
        deadline = time.time() + 10
        while True:
            try:
                if request(port, "GET", "/healthz")[0] == 200:
                    break
            except OSError:
                pass
            if time.time() > deadline:
                stop(servers)
                sys.exit(f"the server on port {port} did not start")
            time.sleep(0.1)  # polling for start-up, bounded by the deadline
    return servers


def stop(servers):
    for _, process, _ in servers:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
