#!/usr/bin/env python3
"""The stable commits naming no upstream commit, and what git says they carry.

Usage: bench/patchid_carriers.py PATCHVER REPO SERIES...   (e.g. 2.6.34 2.6.35)

For every commit of vS..<newest vS.N> (each SERIES S) whose message names no
upstream commit this repository has, git finds the mainline commits after vS
(up to the newest mainline tag) that change the same files with the same
`git patch-id --stable`.  Each pair is then asked of patchver: the mainline
commit's query must list the stable commit among its backports (the index's
map), and so must the triage's "backports:".  Prints each pair and the counts;
exit 1 on any difference.
"""
import re
import subprocess
import sys


def git(repo, *args, inp=None):
    return subprocess.run(["git", "-C", repo, *args], input=inp, capture_output=True,
                          text=True, check=True).stdout


def patch_id(repo, commit):
    out = subprocess.run(f"git -C {repo} show --format= {commit} | git patch-id --stable",
                         shell=True, capture_output=True, text=True).stdout.split()
    return out[0] if out else None


def main():
    pv, repo, series = sys.argv[1], sys.argv[2], sys.argv[3:]
    tags = git(repo, "tag", "-l", "v*").split()
    mainline = sorted((t for t in tags if re.fullmatch(r"v2\.6\.\d+(-rc\d+)?", t)),
                      key=lambda t: [int(x) for x in re.findall(r"\d+", t)] + ([] if "-rc" in t else [99]))
    tip = mainline[-1]
    pairs, bad = [], 0
    for s in series:
        stable = sorted((t for t in tags if re.fullmatch(rf"v{re.escape(s)}\.\d+", t)),
                        key=lambda t: int(t.rsplit(".", 1)[1]))
        log = git(repo, "log", "--no-merges", "--format=%H%x00%B%x01", f"v{s}..{stable[-1]}")
        for entry in log.split("\x01"):
            if not entry.strip():
                continue
            sha, body = entry.strip().split("\x00", 1)
            # an upstream line as stable writes them (upstream.h's forms, loosely)
            ids = re.findall(r"(?:commit\s+([0-9a-f]{7,40})\s+upstream|upstream\s+commit:?\s+([0-9a-f]{7,40})"
                             r"|cherry.picked from commit\s+([0-9a-f]{7,40})|from commit\s+([0-9a-f]{7,40}))",
                             body, re.I)
            named = any(subprocess.run(["git", "-C", repo, "cat-file", "-e", i + "^{commit}"],
                                       capture_output=True).returncode == 0
                        for g in ids for i in g if i)
            if named or body.startswith("Revert"):
                continue
            files = git(repo, "show", "--format=", "--name-only", sha).split()
            want = patch_id(repo, sha)
            if not files or not want:
                continue
            for c in git(repo, "log", "--no-merges", "--format=%H", f"v{s}..{tip}", "--", *files).split():
                if sorted(git(repo, "show", "--format=", "--name-only", c).split()) == sorted(files) \
                        and patch_id(repo, c) == want:
                    pairs.append((s, sha, c))
    for s, sha, up in pairs:
        q = subprocess.run([pv, "-C", repo, up], capture_output=True, text=True).stdout
        t = subprocess.run([pv, "-C", repo, "--triage", up], capture_output=True, text=True).stdout
        ok_q = sha[:12] in q.split("backports:")[-1] if "backports:" in q else False
        ok_t = sha[:12] in t.split("\nbackports:")[-1] if "\nbackports:" in t else False
        bad += not (ok_q and ok_t)
        print(f"{s}.y {sha[:12]} carries {up[:12]}: query {'yes' if ok_q else 'NO'}, triage {'yes' if ok_t else 'NO'}")
    print(f"pairs by git: {len(pairs)}; patchver differs on {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
