#!/usr/bin/env python3
"""The lab's reading of kbuild (lab/kobj) against a real build's objects.

Usage: bench/unbuilt_check.py BENCH_UNBUILT REPO REV CONFIG BUILT_TREE

Every .c file of REV (but scripts/, tools/, Documentation/, usr/: host
programs), asked of bench-unbuilt --built-only against CONFIG; then
BUILT_TREE (REV built in place with CONFIG, `make bzImage`) says which made
an object.  Prints the counts: both built, both not, said built without an
object, said not built with one; and up to 20 of each disagreement.
"""
import os
import subprocess
import sys


def main():
    bench, repo, rev, config, tree = sys.argv[1:6]
    files = [f for f in subprocess.run(["git", "-C", repo, "ls-tree", "-r", "--name-only", rev],
                                       capture_output=True, text=True, check=True).stdout.split()
             if f.endswith(".c") and f.split("/")[0] not in ("scripts", "tools", "Documentation", "usr")]
    out = subprocess.run([bench, "--built-only", repo, rev, config], input="\n".join(files) + "\n",
                         capture_output=True, text=True, check=True).stdout
    said = {line.split("\t")[1]: line.startswith("built") for line in out.splitlines()}
    counts = {"both built": 0, "both not": 0}
    wrong_built, wrong_not = [], []
    for f in files:
        made = os.path.exists(os.path.join(tree, f[:-1] + "o"))
        if said.get(f) and made:
            counts["both built"] += 1
        elif not said.get(f) and not made:
            counts["both not"] += 1
        elif said.get(f):
            wrong_built.append(f)
        else:
            wrong_not.append(f)
    print(f"{rev}: {len(files)} .c files; both built {counts['both built']}, both not "
          f"{counts['both not']}; said built, no object: {len(wrong_built)}; said not built, "
          f"an object: {len(wrong_not)}")
    for name, v in (("said built, no object", wrong_built), ("said not built, an object", wrong_not)):
        for f in v[:20]:
            print(f"  {name}: {f}")
    return 1 if wrong_built or wrong_not else 0


if __name__ == "__main__":
    sys.exit(main())
