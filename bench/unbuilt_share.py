#!/usr/bin/env python3
"""How often a fix's code is not built by the lab's configuration.

Usage: bench/unbuilt_share.py PATCHVER BENCH_UNBUILT REPO RANGE REV CONFIG

The commits of RANGE that `--audit RANGE --json` classes as fixes or
possible fixes and that change a .c file; for each, its changed .c files
asked of bench-unbuilt at REV (the release the lab would boot) against
CONFIG (that release's lab .config).  A commit is "not built" when none of
its .c files is compiled: --verify-boot can only say "not tested" for it
without --config.  Prints the share per top-level directory (of the
commit's first .c file) and in all.
"""
import collections
import json
import subprocess
import sys


def main():
    pv, bench, repo, rng, rev, config = sys.argv[1:7]
    audit = json.loads(subprocess.run([pv, "-C", repo, "--audit", rng, "--series",
                                       rev.lstrip("v"), "--json"], capture_output=True,
                                      text=True, check=True).stdout)
    commits = [c["commit"] for c in audit["audit"]["commits"]
               if c.get("class") in ("fix", "possible-fix")]
    files = {}
    for c in commits:
        out = subprocess.run(["git", "-C", repo, "show", "--format=", "--name-only",
                              "--diff-filter=M", c], capture_output=True, text=True).stdout
        cs = [f for f in out.split() if f.endswith(".c")]
        if cs:
            files[c] = cs
    paths = sorted({f for fs in files.values() for f in fs})
    res = subprocess.run([bench, "--built-only", repo, rev, config], input="\n".join(paths) + "\n",
                         capture_output=True, text=True, check=True).stdout
    built = {line.split("\t")[1]: line.startswith("built") for line in res.splitlines()}
    per = collections.defaultdict(lambda: [0, 0])
    for c, fs in files.items():
        top = fs[0].split("/")[0]
        unbuilt = not any(built.get(f, False) for f in fs)
        per[top][0] += unbuilt
        per[top][1] += 1
    total = [sum(v[0] for v in per.values()), sum(v[1] for v in per.values())]
    print(f"{rng}: {len(commits)} fixes and possible fixes, {len(files)} change a .c file "
          f"(modified, not added); {len(paths)} files asked at {rev}")
    print(f"{'directory':<14} {'not built':>9} {'of':>5} {'share':>6}")
    for top, (u, n) in sorted(per.items(), key=lambda kv: -kv[1][1]):
        print(f"{top:<14} {u:>9} {n:>5} {100.0 * u / n:>5.1f}%")
    print(f"{'all':<14} {total[0]:>9} {total[1]:>5} {100.0 * total[0] / total[1]:>5.1f}%")


if __name__ == "__main__":
    main()
