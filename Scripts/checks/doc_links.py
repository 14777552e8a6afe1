#!/usr/bin/env python3
"""Checks that every relative link of the given markdown files points to an existing file,
and every `#anchor` (in the same file or another markdown file) to an existing heading.

Usage: doc_links.py FILE.md...   Links are `[text](target)` and `src="…"`/`href="…"`
attributes, outside fenced code blocks and inline code. Anchors are made from headings as
GitHub makes them: lower case, everything but letters, digits, spaces, `-` and `_` dropped,
spaces turned into `-`, and `-1`, `-2`… added to repeats. Prints each broken link with its
file and line, and ends with "N passed, N failed".
"""
import os
import re
import sys

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)|(?:src|href)=\"([^\"]+)\"")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def slug(heading):
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        found, seen, fenced = set(), {}, False
        for line in open(path, encoding="utf-8"):
            if line.startswith("```"):
                fenced = not fenced
                continue
            match = None if fenced else HEADING.match(line)
            if match:
                base = slug(match.group(2))
                count = seen.get(base, 0)
                seen[base] = count + 1
                found.add(base if count == 0 else "%s-%d" % (base, count))
        cache[path] = found
    return cache[path]


def links(path):
    fenced = False
    for number, line in enumerate(open(path, encoding="utf-8"), 1):
        if line.startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            continue
        for match in LINK.finditer(re.sub(r"`[^`]*`", "", line)):
            yield number, match.group(1) or match.group(2)


def problem(document, target):
    if re.match(r"^[a-z][a-z0-9+.-]*:", target):    # http:, https:, mailto: …
        return None
    file, _, anchor = target.partition("#")
    path = os.path.normpath(os.path.join(os.path.dirname(document), file)) if file else document
    if not os.path.exists(path):
        return "no file %s" % path
    if anchor and path.endswith(".md") and anchor not in anchors(path):
        return "no heading for #%s in %s" % (anchor, path)
    return None


def main(documents):
    passed = failed = 0
    for document in documents:
        for number, target in links(document):
            found = problem(document, target)
            if found is None:
                passed += 1
            else:
                failed += 1
                print("FAIL %s:%d (%s): %s" % (document, number, target, found))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
