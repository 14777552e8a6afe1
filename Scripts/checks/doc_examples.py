#!/usr/bin/env python3
"""Runs the curl examples of the documents against a fresh scrollstackd and compares answers.

Usage: doc_examples.py BINARY DOCUMENT...   (or --list DOCUMENT... to print the pairing only)

For each document, in the order given: a fresh server (`--in-memory`, port 0) is started, and
every example of the document is run in document order, each seeing the state the previous
ones left. The conventions (stated for readers in Docs/API.md, "Conventions", "The examples"):

- An example is a ```sh block that runs `curl`. It runs whole, as one bash script, in a
  scratch folder (files it writes go there), with `127.0.0.1:8080` and `localhost:8080`
  pointed at the fresh server, and every curl bounded by --max-time 10 unless it says less.
  Each curl's answer ends a line.
- Its shown answer is the first fenced block after it that is not ```sh or ```js, if that
  block comes before the next ```sh block and the next heading. It is compared with the
  answers of every curl of the example, one after the other, or with the last one's alone.
- Comparison ignores whitespace outside double-quoted strings and carriage returns; `…`
  stands for any text (elided members, volatile values such as times); a generated id
  (`r-` or `s-` and 12 hex digits) stands for any generated id, and an event time
  (`"2026-12-05T05:09:07.123Z"`) for any event time. Otherwise the text must be
  the same from its first character to its last.
- A live event stream (`Accept: text/event-stream`) must be bounded with --max-time (-m).
- An example without a shown answer passes when none of its answers is a JSON error.
- A line `scrollstackd OPTIONS &` starts a fresh server with those options (in the scratch
  folder, after the lines before it have run); it serves the rest of the example and of its
  section (up to the next heading), then the document's server serves again. Environment
  assignments may come first (`SCROLLSTACK_TOKENS="TOKEN write,TOKEN read" scrollstackd
  --cors-origin null &`): the server is started with them added to the runner's environment.
  A ```sh block with such a line is an example even without a curl, so a recipe can start
  its server in a step of its own: the rest of the section runs against that server.
- `<!-- example: not run (reason) -->` on the line just before a ```sh block excludes it
  (it needs a server started otherwise, a damaged journal, a browser…).
- `<!-- example: answer in PATH -->` there (PATH relative to the document) says the answer
  (of the block's one curl) is the file at PATH, byte for byte: a picture the document shows.
  With DOC_EXAMPLES_UPDATE=1 the file is written instead.

With DOC_EXAMPLES_DUMP=FOLDER, every example's answers are written to FOLDER/DOC-LINE.txt.
Prints each failing example with its document and line, and ends with "N passed, N failed".
"""
import os
import re
import select
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time

NOT_RUN = re.compile(r"^<!--\s*example:\s*not run\b.*-->\s*$")
ANSWER_IN = re.compile(r"^<!--\s*example:\s*answer in\s+(\S+)\s*-->\s*$")
FENCE = re.compile(r"^```(\S*)\s*$")
HEADING = re.compile(r"^#{1,6} ")
GENERATED_ID = re.compile(r"\b[rs]-[0-9a-f]{12}\b")
# An event time (ISO 8601 UTC with milliseconds) shown in a document stands for any time.
EVENT_TIME = re.compile(r'"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"')
LIMITED = re.compile(r"(^|\s)(-m|--max-time)\s+\d")
# `[NAME=VALUE …] scrollstackd [OPTIONS] &`: the environment, then the options.
SERVER_START = re.compile(
    r"""^((?:[A-Za-z_][A-Za-z0-9_]*=(?:"[^"]*"|'[^']*'|[^\s"']+)\s+)*)scrollstackd(?:\s+(.*?))?\s*&\s*$""")
CURL = re.compile(r"(^|[|;&(]\s*|\$\(\s*)curl\s", re.MULTILINE)


class Example:
    def __init__(self, document, line, script):
        self.document, self.line, self.script = document, line, script
        self.shown = None      # the shown answer's text, or None
        self.shown_line = None
        self.answer_file = None  # a file holding the whole answer, byte for byte
        self.section = 0         # how many headings come before it


def examples_of(path):
    """The examples of a markdown file, in order, each with its shown answer (if any)."""
    lines = open(path, encoding="utf-8").read().split("\n")
    examples, pending = [], None   # pending: the last example still waiting for an answer
    i, section = 0, 0
    while i < len(lines):
        line = lines[i]
        if HEADING.match(line):
            pending = None
            section += 1
        match = FENCE.match(line)
        if not match:
            i += 1
            continue
        language, start = match.group(1), i
        j = i + 1
        while j < len(lines) and not lines[j].startswith("```"):
            j += 1
        body = "\n".join(lines[start + 1:j])
        skipped = start > 0 and NOT_RUN.match(lines[start - 1])
        starts = any(SERVER_START.match(text) for text in body.split("\n"))
        if language in ("sh", "bash") and (CURL.search(body) or starts) and not skipped:
            pending = Example(path, start + 1, body)
            pending.section = section
            examples.append(pending)
            kept = start > 0 and ANSWER_IN.match(lines[start - 1])
            if kept:
                pending.answer_file = os.path.join(os.path.dirname(path), kept.group(1))
                pending = None
        elif language in ("sh", "bash", "js"):
            pending = None
        elif pending is not None:
            pending.shown, pending.shown_line = body, start + 2
            pending = None
        i = j + 1
    return examples


def squeeze(text):
    """The text without whitespace outside double-quoted strings (escapes respected)."""
    out, in_string, escaped = [], False, False
    for ch in text.replace("\r", ""):
        if in_string:
            out.append(ch)
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
            out.append(ch)
        elif not ch.isspace():
            out.append(ch)
    return EVENT_TIME.sub("\x00time", GENERATED_ID.sub("\x00id", "".join(out)))


def mismatch(shown, actual):
    """None when the shown answer matches the actual one, else where it stops matching.

    Leftmost matching of each literal piece between `…` is exact for such patterns, and
    takes O(len(actual) × pieces)."""
    pattern, text = squeeze(shown), squeeze(actual)
    pieces = pattern.split("…")
    if len(pieces) == 1:
        return None if pattern == text else describe(pattern, text)
    if not text.startswith(pieces[0]):
        return describe(pieces[0], text)
    position = len(pieces[0])
    for piece in pieces[1:-1]:
        found = text.find(piece, position)
        if found < 0:
            return "not found after offset %d: %s" % (position, clip(piece))
        position = found + len(piece)
    last = pieces[-1]
    if not text.endswith(last) or len(text) - len(last) < position:
        return "the answer does not end with: %s" % clip(last)
    return None


def describe(expected, text):
    common = 0
    while common < min(len(expected), len(text)) and expected[common] == text[common]:
        common += 1
    return "differs at offset %d: shown %s, answered %s" % (
        common, clip(expected[common:]), clip(text[common:]))


def clip(text, width=160):
    text = text.replace("\x00id", "<generated id>").replace("\x00time", "<event time>")
    return repr(text if len(text) <= width else text[:width] + "…")


def is_error(output):
    return any(line.lstrip().startswith('{"error":') for line in output.split("\n"))


class Server:
    """A fresh `scrollstackd --in-memory --port 0`; its log is drained by a thread."""

    def __init__(self, binary, options=(), folder=None, environment=None):
        self.process = subprocess.Popen(
            [binary, "--port", "0", "--in-memory", "--log-level", "notice", *options],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=folder,
            env={**os.environ, **(environment or {})})
        self.log, self.port = b"", None
        descriptor = self.process.stderr.fileno()
        deadline = time.monotonic() + 15
        # Unbuffered reads: a buffered reader could hold the line select() no longer reports.
        while self.port is None and time.monotonic() < deadline:
            ready, _, _ = select.select([descriptor], [], [], 0.5)
            if not ready:
                continue
            chunk = os.read(descriptor, 65536)
            if not chunk:
                break
            self.log += chunk
            found = re.search(rb"listening on http://127\.0\.0\.1:(\d+)", self.log)
            if found:
                self.port = int(found.group(1))
        threading.Thread(target=self._drain, args=(descriptor,), daemon=True).start()
        if self.port is None:
            self.stop()
            raise RuntimeError("the server did not start: " + self.log.decode("utf-8", "replace"))

    def _drain(self, descriptor):
        while True:
            chunk = os.read(descriptor, 65536)
            if not chunk:
                return
            self.log = (self.log + chunk)[-65536:]

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


# Each curl's answer ends a line, and is followed by a record separator (0x1E), so that the
# answers can be told apart.
PRELUDE = 'curl() { command curl --max-time 10 "$@"; local status=$?; printf \'\\n\\036\'; return $status; }\n'


def run_script(script, port, folder):
    """The answers of a script's curls (each ended by the separator), or None after 60 s."""
    script = script.replace("127.0.0.1:8080", "127.0.0.1:%d" % port) \
        .replace("localhost:8080", "localhost:%d" % port) \
        .replace("127.0.0.1/8080", "127.0.0.1/%d" % port)
    try:
        done = subprocess.run(["bash", "-c", PRELUDE + script], cwd=folder, capture_output=True,
                              timeout=60, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return None
    return done.stdout.decode("utf-8", "replace")


class Servers:
    """The document's server, and the one an example started with other options, which
    serves that example and the rest of its section (up to the next heading)."""

    def __init__(self, binary):
        self.binary, self.main, self.other, self.section = binary, Server(binary), None, None

    def port(self, example):
        if self.other is not None and example.section != self.section:
            self.stop_other()
        return (self.other or self.main).port

    def start_other(self, options, environment, example, folder):
        self.stop_other()
        self.other = Server(self.binary, options, folder, environment)
        self.section = example.section

    def stop_other(self):
        if self.other is not None:
            self.other.stop()
            self.other = None

    def stop(self):
        self.stop_other()
        self.main.stop()


def run(example, servers, folder):
    """Runs the example; a line `[NAME=VALUE …] scrollstackd OPTIONS &` in it starts a server
    with that environment and those options (after the lines before it have run) for the lines
    after it."""
    if "text/event-stream" in example.script and not LIMITED.search(example.script):
        return None, "it opens a live event stream without --max-time (-m): a reader's copy would never end"
    lines = example.script.split("\n")
    start = next((n for n, line in enumerate(lines) if SERVER_START.match(line)), None)
    if start is None:
        stdout = run_script(example.script, servers.port(example), folder)
    else:
        stdout = run_script("\n".join(lines[:start]), servers.port(example), folder)
        match = SERVER_START.match(lines[start])
        environment = dict(pair.split("=", 1) for pair in shlex.split(match.group(1)))
        options = shlex.split(match.group(2) or "")
        try:
            servers.start_other(options, environment, example, folder)
        except RuntimeError as error:
            return stdout, str(error)
        later = run_script("\n".join(lines[start + 1:]), servers.port(example), folder)
        stdout = None if stdout is None or later is None else stdout + later
    if stdout is None:
        return None, "the example did not end within 60 s"
    answers = stdout.split("\x1e")
    output = "".join(answers)
    if example.answer_file is not None:
        return output, compare_file(example.answer_file, answers[0][:-1])
    if example.shown is not None:
        problem = mismatch(example.shown, output)
        last = [answer for answer in answers if answer.strip()][-1:]
        if problem is not None and len(answers) > 2 and last and mismatch(example.shown, last[0]) is None:
            problem = None
        return output, problem
    if is_error(output):
        return output, "no answer is shown, and it answered an error"
    return output, None


def compare_file(path, answer):
    """None when the file holds exactly the answer; with DOC_EXAMPLES_UPDATE=1, writes it."""
    if os.environ.get("DOC_EXAMPLES_UPDATE") == "1":
        with open(path, "w", encoding="utf-8") as file:
            file.write(answer)
        return None
    try:
        kept = open(path, encoding="utf-8").read()
    except OSError as error:
        return "cannot read %s: %s" % (path, error)
    if kept == answer:
        return None
    return "%s is not the answer (run with DOC_EXAMPLES_UPDATE=1 to write it): %s" % (
        path, describe(kept, answer))


def main(argv):
    if argv[:1] == ["--list"]:
        for path in argv[1:]:
            for example in examples_of(path):
                first = example.script.strip().split("\n")[0][:90]
                print("%s:%d  %s  -> %s" % (path, example.line, first,
                                            example.shown_line or "(no answer shown)"))
        return 0
    binary, documents = os.path.abspath(argv[0]), argv[1:]
    dump = os.environ.get("DOC_EXAMPLES_DUMP")   # a folder: every answer is written there
    passed = failed = 0
    for path in documents:
        examples = examples_of(path)
        servers = Servers(binary)
        folder = tempfile.mkdtemp(prefix="doc-examples-")
        try:
            for example in examples:
                output, problem = run(example, servers, folder)
                if dump:
                    name = "%s-%d.txt" % (os.path.basename(example.document), example.line)
                    with open(os.path.join(dump, name), "w", encoding="utf-8") as file:
                        file.write(output or "")
                if problem is None:
                    passed += 1
                    continue
                failed += 1
                print("FAIL %s:%d (answer shown %s)" % (
                    example.document, example.line,
                    "in " + example.answer_file if example.answer_file else
                    "at line %d" % example.shown_line if example.shown_line else "nowhere"))
                print("     %s" % example.script.strip().split("\n")[0][:120])
                print("     %s" % problem)
                if output is not None:
                    print("     answered: %s" % clip(output.strip(), 600))
        finally:
            servers.stop()
            shutil.rmtree(folder, ignore_errors=True)
        print("%s: %d examples" % (path, len(examples)))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
