#!/usr/bin/env python3
"""One query with a fresh release index, side by side with git.

  bench/quick.py [--no-index] REPO PATCHVER [RUNS] -- REV...

For each rev: `patchver REV`, --describe, --name-rev, --first-release and
--tags-containing (PATCHVER_QUICK=require: a decline fails the run), and
git's nearest commands (with the repository's commit-graph, if it has one;
`patchver REV` names the commit and lists every release and stable tag
holding it, so git's side is `describe --contains` plus `tag --contains`),
each run RUNS times (default 30) alternately; prints the median wall
milliseconds and patchver / git.  /bin/true gives the cost of starting a
process from here, which both sides pay.  The index is built first
(patchver --index).  With --no-index: every patchver run passes
--no-index (the lazy walk, libgit2 loaded), nothing is built, and
PATCHVER_QUICK is left alone.
"""
import os
import statistics
import subprocess
import sys
import time


def wall(cmd, env):
    t0 = time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    ms = (time.perf_counter() - t0) * 1000
    # describe of a commit no tag contains: patchver's 7, git's 128
    untagged = r.returncode == 128 and b"cannot describe" in r.stderr
    if r.returncode not in (0, 7) and not untagged:
        sys.exit(f"{' '.join(cmd)}: exit {r.returncode}: {r.stderr.decode().strip()}")
    return ms


def main():
    args = sys.argv[1:]
    no_index = bool(args) and args[0] == "--no-index"
    if no_index:
        args = args[1:]
    if "--" not in args or len(args) < 4:
        sys.exit(__doc__)
    cut = args.index("--")
    repo, pv = args[0], args[1]
    runs = int(args[2]) if cut > 2 else 30
    revs = args[cut + 1:]
    if no_index:
        env = dict(os.environ)
        pv = [pv, "-C", repo, "--no-index"]
    else:
        env = dict(os.environ, PATCHVER_QUICK="require")
        subprocess.run([pv, "-C", repo, "--index"], stdout=subprocess.DEVNULL, check=True)
        pv = [pv, "-C", repo]
    git = ["git", "-C", repo]
    true = statistics.median(wall(["/bin/true"], env) for _ in range(runs))
    print(f"{repo}: medians of {runs} runs, ms (starting /bin/true: {true:.1f} ms)\n")
    print("| rev | query | patchver | git | git command | ratio |")
    print("|---|---|---|---|---|---|")
    for rev in revs:
        queries = [
            # the full report: a name and every containing tag (first release, stable)
            ("REV", [], [git + ["describe", "--contains", rev], git + ["tag", "--contains", rev]],
             "describe --contains + tag --contains"),
            ("--describe", ["--describe"], git + ["describe", "--contains", rev],
             "describe --contains"),
            ("--name-rev", ["--name-rev"], git + ["name-rev", "--tags", "--name-only", rev],
             "name-rev --tags"),
            ("--first-release", ["--first-release"], git + ["tag", "--contains", rev],
             "tag --contains"),
            ("--tags-containing", ["--tags-containing"], git + ["tag", "--contains", rev],
             "tag --contains"),
        ]
        for name, qargs, gcmd, gname in queries:
            p, g = [], []
            for _ in range(runs):
                p.append(wall(pv + qargs + [rev], env))
                g.append(sum(wall(c, env) for c in gcmd) if isinstance(gcmd[0], list)
                         else wall(gcmd, env))
            mp, mg = statistics.median(p), statistics.median(g)
            print(f"| {rev[:12]} | {name} | {mp:.1f} | {mg:.1f} | {gname} | {mp / mg:.2f} |")


if __name__ == "__main__":
    main()
