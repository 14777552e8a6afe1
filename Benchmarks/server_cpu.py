"""What the A/B scripts (`mutation_cpu.py`, `build_route_cpu.py`, `big_layout_ab.py`,
`cached_get_ab.py`) share: starting a scrollstackd on a free loopback port, reading how much
CPU time its process has used so far, and stopping the servers started."""
import os, socket, subprocess, time

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]

def cpu_seconds(pid):
    """The process's time on a CPU so far, in seconds: the sum over its threads of
    /proc/PID/task/TID/schedstat's first field (nanoseconds; /proc/PID/stat counts in 10 ms
    ticks, too coarse for a few thousand requests of 50 µs)."""
    total = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                total += int(f.read().split()[0])
        except (FileNotFoundError, ProcessLookupError):
            pass  # a thread that ended between the listing and the read
    return total / 1e9

def start_server(binary, *options):
    """`binary --in-memory` with `options` on a free port, once it accepts connections (60 s
    at most): (process, port)."""
    port = free_port()
    process = subprocess.Popen([binary, "--port", str(port), "--log-level", "warning", "--in-memory", *options])
    deadline = time.time() + 60
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return process, port
        except OSError:
            if time.time() > deadline:
                process.kill()
                raise SystemExit(f"{binary} did not start")
            time.sleep(0.1)

def stop_servers(servers):
    """Terminates each server started and waits for it (30 s at most each)."""
    for server in servers:
        server.terminate()
        server.wait(timeout=30)
