#!/usr/bin/env python3
"""patchver --backport against the stable team's own prerequisites (issue 45):

  bench/backport.py PATCHVER REPO [bench/prereqs.txt]

For each case of prereqs.txt (batch vK-1..vK, stable commit B, upstream U,
the team's prerequisites and their upstreams), runs
`patchver --backport U --onto vK-1 --json` and compares the mainline
prerequisites it names with the team's upstreams: exact, missing, extra.
A prerequisite the team took as a stable-only commit has no upstream to
find: those cases are counted apart.  Beside each run, git's own answer to
the same question (the stable team's "possible dependencies": `git log
vK-1..U^ -- U's files`, whose time is the ratio's denominator) is timed in
the same process.  Tuning cases: the v2.6.34.1 and v2.6.34.2 batches.
"""
import json
import os
import statistics
import subprocess
import sys
import time

TUNING = {"v2.6.34..v2.6.34.1", "v2.6.34.1..v2.6.34.2"}


def timed(cmd, cwd):
    t = time.monotonic()
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    return r, time.monotonic() - t


def main():
    patchver, repo = os.path.abspath(sys.argv[1]), sys.argv[2]
    table = sys.argv[3] if len(sys.argv) > 3 else os.path.join(os.path.dirname(__file__),
                                                               "prereqs.txt")
    rows = [l.rstrip("\n").split("\t") for l in open(table) if not l.startswith("#")]
    times, ratios = [], []
    score = {True: [0, 0, 0], False: [0, 0, 0]}     # exact, within one extra, cases
    print(f"{'batch':22} {'fix':12} {'team':27} {'patchver':40} {'how':8} {'s':>5} {'git s':>5} verdict")
    for batch, b, u, _, ups in rows:
        prev = batch.split("..")[0]
        want = [x for x in ups.split(",") if x != "stable-only"]
        stable_only = "stable-only" in ups
        r, t = timed([patchver, "--backport", u, "--onto", prev, "--json"], repo)
        files = subprocess.run(["git", "diff-tree", "--no-commit-id", "--name-only", "-r",
                                u + "^", u], cwd=repo, capture_output=True,
                               text=True).stdout.split()
        _, tg = timed(["git", "log", "--oneline", f"{prev}..{u}^", "--"] + files, repo)
        times.append(t)
        ratios.append(t / tg if tg else 0)
        if r.returncode:
            got, how = [f"error {r.returncode}: {r.stderr.strip()[:60]}"], "-"
        else:
            j = json.loads(r.stdout)
            got = [p["commit"][:12] for p in j["prerequisites"]]
            how = j["answer"] if j["answer"] != "after-prerequisites" else "after"
        missing = [x for x in want if x not in got]
        extra = [x for x in got if x not in want]
        exact = not missing and not extra
        if stable_only:
            verdict = "stable-only prerequisite: " + ("found the rest" if not missing else
                                                       "missed " + ",".join(missing))
        else:
            verdict = "exact" if exact else (f"missing {','.join(missing)} " if missing else "") + \
                (f"extra {','.join(extra)}" if extra else "")
        tuning = batch in TUNING
        if not stable_only:
            score[tuning][2] += 1
            score[tuning][0] += exact
            score[tuning][1] += not missing and len(extra) <= 1
        print(f"{batch:22} {u:12} {ups[:27]:27} {','.join(got)[:40]:40} {how:8} {t:5.2f} "
              f"{tg:5.2f} {verdict}", flush=True)
    for tuning, name in ((True, "tuning (v2.6.34.1, v2.6.34.2)"), (False, "judging (later)")):
        e, w, n = score[tuning]
        print(f"# {name}: exact {e}/{n}, all found with at most one extra {w}/{n}")
    print(f"# time per --backport: median {statistics.median(times):.2f} s, max {max(times):.2f} s;"
          f" ratio to git log's possible dependencies: median {statistics.median(ratios):.2f}")


if __name__ == "__main__":
    main()
