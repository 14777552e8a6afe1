"""The plug-in sample (Clients/plugin-sample) in Debian's chromium, driven by Playwright: a
host page embeds plugin.html in a sandboxed iframe (origin `null`), hands it a token, and the
plug-in, using the compiled TypeScript client, creates a screen, shows the service's picture of
it and follows its live events. The check then changes the screen over HTTP and requires the
plug-in to show the new revision. The token never appears in a URL (so never in a log).

    python3 plugin_sample.py BINARY CLIENT_BUILD_DIR

Every wait has a deadline. Prints "N passed, N failed" last."""
import http.server
import json
import os
import re
import secrets
import subprocess
import sys
import threading
import urllib.request

from playwright.sync_api import sync_playwright

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, "..", "..", "Clients", "plugin-sample")
passed = 0
failed = 0


def check(name, condition, detail=""):
    global passed, failed
    if condition:
        passed += 1
        print(f"ok    {name}")
    else:
        failed += 1
        print(f"FAIL  {name} {detail}")


def start_server(binary, token):
    process = subprocess.Popen([binary, "--port", "0", "--in-memory", "--log-level", "info"],
                               env={**os.environ, "SCROLLSTACK_TOKENS": f"{token} write"},
                               stderr=subprocess.PIPE, text=True)
    lines = []
    port_found = threading.Event()
    state = {}

    def read():
        for line in process.stderr:
            lines.append(line)
            match = re.search(r"listening on http://127\.0\.0\.1:(\d+)", line)
            if match and not port_found.is_set():
                state["port"] = int(match.group(1))
                port_found.set()

    threading.Thread(target=read, daemon=True).start()
    if not port_found.wait(10):
        process.kill()
        raise SystemExit("the server did not start: " + "".join(lines))
    return process, state["port"], lines


def start_static(client_build):
    """Serves the sample's pages and, under /client/, the compiled client, with
    Access-Control-Allow-Origin: * (a null-origin page loads module scripts in CORS mode)."""

    class Handler(http.server.SimpleHTTPRequestHandler):
        def translate_path(self, path):
            path = path.split("?", 1)[0]
            if path.startswith("/client/"):
                return os.path.join(client_build, path[len("/client/"):])
            return os.path.join(SAMPLE, path.lstrip("/"))

        def end_headers(self):
            self.send_header("Access-Control-Allow-Origin", "*")
            super().end_headers()

        def log_message(self, *args):
            pass

    Handler.extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".js": "text/javascript"}
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


def main():
    binary, client_build = sys.argv[1], sys.argv[2]
    token = secrets.token_hex(18)
    server, port, log = start_server(binary, token)
    static = start_static(client_build)
    base = f"http://127.0.0.1:{port}"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                                 args=["--no-sandbox"])
            page = browser.new_page()
            errors = []
            page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
            page.on("pageerror", lambda error: errors.append(str(error)))
            url = f"http://127.0.0.1:{static.server_address[1]}/host.html?server={base}&token={token}&stack=plugin-screen"
            page.goto(url)
            frame = page.frame_locator("#plugin")
            status = frame.locator("#status")
            try:
                frame.locator("#status[data-revision='1']").wait_for(timeout=15_000)
            except Exception:
                print("the plug-in did not show revision 1:", status.text_content(), errors)
                raise
            plugin = next(f for f in page.frames if f.url.endswith("plugin.html"))
            check("the plug-in runs with an opaque origin", plugin.evaluate("self.origin") == "null")
            check("it created the screen and shows its revision", status.text_content() == "plugin-screen at revision 1",
                  status.text_content())
            loaded = plugin.evaluate("""() => new Promise((resolve) => {
                const image = document.getElementById('picture');
                if (image.complete && image.naturalWidth > 0) return resolve(image.naturalWidth);
                image.onload = () => resolve(image.naturalWidth);
                image.onerror = () => resolve(0);
                setTimeout(() => resolve(-1), 10000);
            })""")
            check("the service's picture is drawn in the panel", loaded > 0, f"naturalWidth {loaded}")

            request = urllib.request.Request(f"{base}/v1/stacks/plugin-screen/rows", method="POST",
                                             data=json.dumps({"rows": [{"id": "card-4", "view": {"type": "Card"}, "size": {"fixed": 160}}]}).encode(),
                                             headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
            with urllib.request.urlopen(request, timeout=10) as answer:
                check("a change over HTTP is accepted", answer.status == 200)
            frame.locator("#status[data-revision='2']").wait_for(timeout=15_000)
            check("the plug-in followed the live event and redrew", "revision 2" in status.text_content())
            entries = frame.locator("#log li").all_text_contents()
            check("its log names the change's events", any("rowAdded" in entry for entry in entries), str(entries))
            check("no error in the page's console", not errors, str(errors))
            browser.close()
    finally:
        server.terminate()
        server.wait(10)
        static.shutdown()
    check("the token is in no logged line", not any(token in line for line in log))
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
