#!/usr/bin/env python3
"""The house rules the build cannot check (the configure step checks the
layers: no upward include, no include cycle):

  tools/house.py [SOURCE_DIR]

- no include cycle among the headers of include/patchver (the configure
  step checks that no layer includes a layer above it);
- every file in src/lab at most 500 lines;
- no function in src/lab or src/cli longer than 60 lines (from the
  function's opening brace to its closing one, both at column 0, as every
  function of the tree is written);
- repeated blocks: six or more lines of src/ that appear twice (compared
  with their spacing dropped; blank lines, comments, lone braces and
  #include lines left out of the count, since they repeat by nature),
  reported with both places.  A block listed in tools/house.allow (its
  first line, as "file:text", one a line) is boilerplate and is passed.

Prints each breach, one a line, and exits 1 when there is any.
"""
import os
import re
import sys

MAX_LAB_FILE = 500
MAX_FUNCTION = 60
BLOCK = 6


def sources(root, sub):
    d = os.path.join(root, sub)
    out = []
    for dirpath, _, files in os.walk(d):
        for f in files:
            if f.endswith(".c"):
                out.append(os.path.join(dirpath, f))
    return sorted(out)


def rel(root, path):
    return os.path.relpath(path, root)


def header_cycles(root):
    """Headers that include each other in a loop, one line per loop."""
    inc = os.path.join(root, "include")
    graph = {}
    for dirpath, _, files in os.walk(inc):
        for f in files:
            if f.endswith(".h"):
                path = os.path.join(dirpath, f)
                name = os.path.relpath(path, inc)
                with open(path) as fh:
                    graph[name] = re.findall(r'^#include "(patchver/[^"]+)"', fh.read(), re.M)
    state, found = {}, []

    def visit(h, stack):
        state[h] = "open"
        stack.append(h)
        for d in graph.get(h, []):
            if state.get(d) == "open":
                found.append(" -> ".join(stack[stack.index(d):] + [d]))
            elif d in graph and d not in state:
                visit(d, stack)
        stack.pop()
        state[h] = "done"

    for h in sorted(graph):
        if h not in state:
            visit(h, [])
    return [f"include cycle: {c}" for c in found]


def long_files(root):
    for path in sources(root, "src/lab"):
        with open(path) as f:
            n = sum(1 for _ in f)
        if n > MAX_LAB_FILE:
            yield f"{rel(root, path)}: {n} lines (at most {MAX_LAB_FILE} in src/lab)"


def functions(lines):
    """(name, first line number, length) of each function: a '{' alone at
    column 0 opens one, the next '}' at column 0 closes it."""
    start = None
    for i, line in enumerate(lines):
        if line.rstrip("\n") == "{":
            start = i
        elif line.startswith("}") and start is not None:
            j = start - 1
            while j > 0 and "(" not in lines[j]:
                j -= 1
            m = re.search(r"(\w+)\s*\(", lines[j])
            yield (m.group(1) if m else "?", start + 1, i - start + 1)
            start = None


def long_functions(root):
    for sub in ("src/lab", "src/cli"):
        for path in sources(root, sub):
            with open(path) as f:
                lines = f.readlines()
            for name, line, n in functions(lines):
                if n > MAX_FUNCTION:
                    yield (f"{rel(root, path)}:{line}: {name}() is {n} lines "
                           f"(at most {MAX_FUNCTION})")


def counted(lines):
    """(line number, text without spacing) of the lines a block counts."""
    in_comment = False
    for i, line in enumerate(lines):
        text = line.strip()
        if in_comment:
            if "*/" in text:
                in_comment = False
            continue
        if text.startswith("/*"):
            in_comment = "*/" not in text
            continue
        if text.startswith("//") or text.startswith("#include"):
            continue
        if text in ("", "{", "}", "};", "} else {", "out:", "return ret;", "return 0;"):
            continue
        yield i + 1, re.sub(r"\s+", "", text)


def allowed(root):
    path = os.path.join(root, "tools", "house.allow")
    allow = set()
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                line = line.rstrip("\n")
                if line and not line.startswith("#"):
                    allow.add(line)
    return allow


def repeated_blocks(root):
    allow = allowed(root)
    seen = {}
    found = []
    for path in sources(root, "src"):
        with open(path) as f:
            raw = f.readlines()
        rows = list(counted(raw))
        last_hit = -2
        for k in range(len(rows) - BLOCK + 1):
            window = tuple(t for _, t in rows[k:k + BLOCK])
            where = (rel(root, path), rows[k][0])
            first = seen.get(window)
            if first is None:
                seen[window] = where
                continue
            hit, last_hit = last_hit, k
            if hit == k - 1:
                continue        # the same block, one line on
            key = f"{where[0]}:{raw[rows[k][0] - 1].strip()}"
            if key in allow:
                continue
            found.append(f"{where[0]}:{where[1]}: {BLOCK}+ lines repeat "
                         f"{first[0]}:{first[1]}")
    return found


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    root = os.path.abspath(root)
    breaches = (header_cycles(root) + list(long_files(root)) + list(long_functions(root)) +
                repeated_blocks(root))
    for b in breaches:
        print(b)
    return 1 if breaches else 0


if __name__ == "__main__":
    sys.exit(main())
