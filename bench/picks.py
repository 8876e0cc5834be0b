#!/usr/bin/env python3
"""Is it a fix, and would stable take it?  Measured against the stable team's picks.

  bench/picks.py list REPO > bench/picks-2.6.35.txt
      every mainline commit of the 2.6.35 cycle (git rev-list --no-merges
      v2.6.34..v2.6.35) and whether 2.6.34.y took it: picked when a commit
      of v2.6.34..v2.6.34.6 names it as its upstream ("commit <sha>
      upstream", "upstream commit <sha>", "cherry picked from commit <sha>",
      "modified from commit <sha>"); half t (tuning) or r (report) by the
      parity of the sha's last hex digit.  Frozen in bench/picks-2.6.35.txt.

  bench/picks.py signals REPO [HALF]
      per signal of a commit's message and diff, computed here with git
      alone: the share of picked commits that have it (recall) and of the
      commits stable did not take (false rate); the tuning half by default.

  bench/picks.py audit REPO PATCHVER [LIST]
      patchver --audit v2.6.34..v2.6.35 --series 2.6.34 --json: per half,
      recall and false rate of "stable candidate" (a fix by its own word,
      needed in 2.6.34) and of candidate-or-possible; also of the classes
      alone (before the needed test).  PATCHVER of an older build gives the
      "before" numbers (its C/F/I marks are its candidates).

  bench/picks.py triage REPO PATCHVER [N] [LIST]
      patchver --triage --json on a seeded sample of the report half (N
      picked and N not, default 60): the share of each whose verdict is a
      stable candidate, and candidate-or-possible.

  bench/picks.py train REPO PATCHVER [LIST]
      fits the score of "possibly a fix" (src/stable/fixclass.c): runs the
      audit with PATCHVER_AUDIT_ALL=1 (every commit judged needed or not),
      takes the tuning half's commits without a word that are needed in
      2.6.34 and have a scored shape, fits a logistic regression of "picked"
      on their features (JSON "features"; 2,000 steps of gradient descent
      from zero, rate 3, L2 0.001), and sets the threshold where the tuning
      half's not-picked commits among candidates and possible ones (with a
      sign of a fix) reach 19.5%.  Prints the weights as fixclass.c holds
      them (hundredths), and what they give on both halves.

  bench/picks.py falses REPO PATCHVER [N]
      N (default 30) seeded "false" stable candidates of the report half
      (not picked, yet candidates), with subject and reason, for a hand check.
"""
import json
import os
import random
import re
import subprocess
import sys
import time

UPSTREAM = re.compile(
    r"(?:commit\s+([0-9a-f]{7,40})\s+upstream|upstream\s+commit:?\s+([0-9a-f]{7,40})|"
    r"cherry[- ]picked\s+from\s+(?:commit\s+)?([0-9a-f]{7,40})|"
    r"modified\s+from\s+commit\s+([0-9a-f]{7,40}))", re.I)


def git(repo, *args, inp=None):
    return subprocess.run(["git", "-C", repo, *args], input=inp, capture_output=True,
                          text=True, errors="replace").stdout


def make_list(repo):
    cyc = git(repo, "log", "--no-merges", "--format=%H %s", "v2.6.34..v2.6.35").splitlines()
    ids = sorted(l.split()[0] for l in cyc)
    picked = set()
    for rec in git(repo, "log", "--format=%H%x00%B%x01", "v2.6.34..v2.6.34.6").split("\x01"):
        if "\x00" not in rec:
            continue
        body = " ".join(rec.split("\x00", 1)[1].split())
        for m in UPSTREAM.finditer(body):
            short = [g for g in m.groups() if g][0].lower()
            full = [c for c in ids if c.startswith(short)]
            if len(full) == 1:
                picked.add(full[0])
    print("# the 2.6.35 cycle (git rev-list --no-merges v2.6.34..v2.6.35), and what 2.6.34.y took:")
    print("# picked=1 when a commit of v2.6.34..v2.6.34.6 names it as its upstream")
    print("# (\"commit <sha> upstream\", \"upstream commit <sha>\", \"cherry picked from")
    print("# commit <sha>\", \"modified from commit <sha>\").  half: t tunes, r reports")
    print("# (the parity of the sha's last hex digit).  Made by bench/picks.py list.")
    print("# sha picked half subject")
    for l in cyc:
        sha, subj = (l.split(" ", 1) + [""])[:2]
        print(f"{sha} {1 if sha in picked else 0} {'t' if int(sha[-1], 16) % 2 == 0 else 'r'} {subj}")


def read_list(path):
    rows = [l.rstrip("\n").split(" ", 3) for l in open(path) if l.strip() and not l.startswith("#")]
    return {r[0]: (r[1] == "1", r[2], r[3] if len(r) > 3 else "") for r in rows}


def pct(n, d):
    return f"{100.0 * n / d:5.1f}%" if d else "   -  "


def rates(label, picks, halves, pred):
    for half in ("t", "r"):
        shas = [s for s, v in picks.items() if v[1] == half]
        p = [s for s in shas if picks[s][0]]
        n = [s for s in shas if not picks[s][0]]
        a = sum(1 for s in p if pred(s))
        b = sum(1 for s in n if pred(s))
        print(f"  {label:42s} {'tune  ' if half == 't' else 'report'} recall {pct(a, len(p))} "
              f"({a}/{len(p)})  false {pct(b, len(n))} ({b}/{len(n)})")


def audit_rows(repo, pv, env=None):
    """The rows of --audit v2.6.34..v2.6.35 --series 2.6.34 --json, by commit."""
    out = subprocess.run([pv, "-C", repo, "--audit", "v2.6.34..v2.6.35", "--series", "2.6.34",
                          "--json"], capture_output=True, text=True, env=env).stdout
    return {c["commit"]: c for c in json.loads(out)["audit"]["commits"]}


def audit(repo, pv, listfile):
    picks = read_list(listfile)
    t0 = time.time()
    rows = audit_rows(repo, pv)
    took = time.time() - t0
    missing = [s for s in picks if s not in rows]
    print(f"{len(rows)} commits audited in {took:.0f} s; {len(missing)} of the list not in the audit")

    def cls(s):
        c = rows.get(s, {})
        if "class" in c:
            return c["class"]
        return "fix" if c.get("marked") else "not-a-fix"     # before: the C/F/I marks

    def needed(s):
        return rows.get(s, {}).get("series", {}).get("2.6.34", {}).get("needed") == "yes"

    rates("class fix (own word)", picks, None, lambda s: cls(s) == "fix")
    rates("class fix or possible", picks, None, lambda s: cls(s) in ("fix", "possible-fix"))
    rates("stable candidate (fix, needed)", picks, None,
          lambda s: cls(s) == "fix" and needed(s))
    rates("candidate or possible (needed)", picks, None,
          lambda s: cls(s) in ("fix", "possible-fix") and needed(s))
    # what the backport map decides: a culprit 2.6.34.y carries as a backport
    via = [s for s in picks if "2.6.34.y as" in
           (rows.get(s, {}).get("series", {}).get("2.6.34", {}).get("needed_evidence") or "")]
    if via:
        print(f"\nneeded only because 2.6.34.y carries the culprit as a backport: {len(via)}")
        for s in sorted(via, key=lambda s: picks[s][2]):
            ev = rows[s]["series"]["2.6.34"]["needed_evidence"]
            culprit = ev.split()[1]
            together = any(c.startswith(culprit) and picks[c][0] for c in picks)
            print(f"  {s[:12]} {'picked' if picks[s][0] else 'not picked':10s} "
                  f"{'(culprit picked too) ' if together else ''}{picks[s][2][:50]}\n      {ev}")
    return rows, picks


def sample(picks, n, seed=35):
    rep = sorted(s for s, v in picks.items() if v[1] == "r")
    rnd = random.Random(seed)
    p = rnd.sample([s for s in rep if picks[s][0]], n)
    q = rnd.sample([s for s in rep if not picks[s][0]], n)
    return p, q


def triage(repo, pv, n, listfile):
    picks = read_list(listfile)
    p, q = sample(picks, n)
    res = {}
    t0 = time.time()
    for i in range(0, len(p + q), 20):
        chunk = (p + q)[i:i + 20]
        out = subprocess.run([pv, "-C", repo, "--triage", "--json", *chunk],
                             capture_output=True, text=True).stdout
        for r, sha in zip(json.loads(out)["results"], chunk):
            res[sha] = r
    took = time.time() - t0

    def verdict(s):
        r = res.get(s, {})
        groups = r.get("groups") or []
        v = r.get("verdict") or (groups[0].get("verdict") if groups else "") or ""
        return v

    def cand(s):
        return "stable candidate:" in verdict(s) and "possible stable candidate" not in verdict(s)

    def poss(s):
        return "stable candidate:" in verdict(s)

    print(f"triage of {len(p)} picked and {len(q)} not picked (report half, seed 35): {took:.0f} s")
    for label, pred in (("stable candidate", cand), ("candidate or possible", poss)):
        a = sum(1 for s in p if pred(s))
        b = sum(1 for s in q if pred(s))
        print(f"  {label:24s} picked {pct(a, len(p))} ({a}/{len(p)})  not picked {pct(b, len(q))} ({b}/{len(q)})")


def falses(repo, pv, n, listfile):
    rows, picks = audit(repo, pv, listfile)
    f = sorted(s for s, v in picks.items() if v[1] == "r" and not v[0] and s in rows and
               rows[s].get("class") == "fix" and
               rows[s]["series"]["2.6.34"]["needed"] == "yes")
    rnd = random.Random(30)
    for s in sorted(rnd.sample(f, min(n, len(f)))):
        r = rows[s]
        print(f"{s[:12]} {r['subject'][:70]}\n    {r['class_reason']}; "
              f"{r['series']['2.6.34']['needed_evidence']}")


def signals(repo, half, listfile):
    picks = read_list(listfile)
    shas = [s for s, v in picks.items() if v[1] == half]
    out = git(repo, "log", "--no-walk=unsorted", "--format=%x01%H%x00%B%x00", "--numstat",
              "--stdin", inp="\n".join(shas) + "\n")
    info = {}
    for rec in out.split("\x01")[1:]:
        sha, body, stat = rec.split("\x00", 2)
        files = [l.split("\t") for l in stat.strip().splitlines() if l.count("\t") == 2]
        info[sha] = (body, files)
    fixw = re.compile(r"\b(fix\w*|bug\w*|crash\w*|oops|leak\w*|races?|deadlock\w*|null|panic\w*|"
                      r"wrong\w*|incorrect\w*|broken|regression\w*|fail\w*|missing|don'?t|"
                      r"avoid\w*|prevent\w*|should|make sure)\b", re.I)
    sig = {
        "Cc: stable": lambda b, f: re.search(r"stable@(kernel\.org|vger)", b, re.I),
        "Fixes: trailer": lambda b, f: re.search(r"^fixes:", b, re.I | re.M),
        "an id of 10+ hex digits": lambda b, f: re.search(r"\b[0-9a-f]{10,40}\b", b.split("\n", 1)[-1]),
        "Revert subject": lambda b, f: b.lower().startswith("revert"),
        "fix words in the subject": lambda b, f: fixw.search(b.split("\n")[0]),
        "fix words in the body": lambda b, f: fixw.search(b.split("\n", 1)[-1]),
        "Reported-by:/Bisected-by:": lambda b, f: re.search(r"^(reported|bisected)-by:", b, re.I | re.M),
        "an oops quoted": lambda b, f: re.search(r"Call Trace|BUG: |RIP: |WARNING: at|Oops", b),
        "<= 20 changed lines": lambda b, f: sum(int(x) for r in f for x in r[:2] if x != "-") <= 20,
        "only Documentation/ or MAINTAINERS": lambda b, f: f and all(
            r[2].startswith("Documentation/") or r[2] == "MAINTAINERS" for r in f),
        "only drivers/staging/": lambda b, f: f and all(r[2].startswith("drivers/staging/") for r in f),
        "only defconfigs": lambda b, f: f and all("defconfig" in r[2] for r in f),
        "device id or quirk in the subject": lambda b, f: re.search(r"\b(ids?|quirks?)\b", b.split("\n")[0], re.I),
    }
    p = [s for s in shas if picks[s][0] and s in info]
    q = [s for s in shas if not picks[s][0] and s in info]
    print(f"half {half}: {len(p)} picked, {len(q)} not")
    for name, fn in sig.items():
        a = sum(1 for s in p if fn(*info[s]))
        b = sum(1 for s in q if fn(*info[s]))
        print(f"  {name:36s} recall {pct(a, len(p))}  false {pct(b, len(q))}")


def train(repo, pv, listfile, budget=0.195):
    import math
    picks = read_list(listfile)
    rows = audit_rows(repo, pv, dict(os.environ, PATCHVER_AUDIT_ALL="1"))

    def needed(s):
        return rows[s]["series"]["2.6.34"]["needed"] == "yes"

    def cand(s):
        return rows[s]["class"] == "fix" and needed(s)

    # commits without a word, with a scored shape (features listed), needed
    pool = sorted(s for s in picks if s in rows and rows[s]["class"] != "fix" and
                  rows[s]["features"] and needed(s))
    keys = sorted({k for s in pool for k in rows[s]["features"]})
    ix = {k: i + 1 for i, k in enumerate(keys)}          # 0: the bias
    act = {s: [0] + [ix[k] for k in rows[s]["features"]] for s in pool}
    data = [(act[s], 1.0 if picks[s][0] else 0.0) for s in pool if picks[s][1] == "t"]
    w = [0.0] * (len(keys) + 1)
    for _ in range(2000):
        g = [0.0] * len(w)
        for a, y in data:
            z = max(-30.0, min(30.0, sum(w[i] for i in a)))
            d = 1.0 / (1.0 + math.exp(-z)) - y
            for i in a:
                g[i] += d
        for i in range(len(w)):
            w[i] -= 3.0 * (g[i] / len(data) + 0.001 * w[i])
    wi = [round(x * 100) for x in w]
    score = {s: sum(wi[i] for i in act[s]) for s in pool}
    signed = {s for s in pool if rows[s]["signals"]}
    tn = [s for s, v in picks.items() if v[1] == "t" and not v[0] and s in rows]
    base = sum(1 for s in tn if cand(s))
    threshold = None
    for th in sorted({score[s] for s in signed}, reverse=True):
        f = base + sum(1 for s in signed if picks[s][1] == "t" and not picks[s][0] and score[s] >= th)
        if f / len(tn) > budget:
            break
        threshold = th
    print(f"# {len(data)} tuning commits, {sum(y for _, y in data):.0f} picked")
    print(f"#define FIXSCORE_BIAS ({wi[0]})")
    for k in keys:
        print(f"\t{{ \"{k}\", {wi[ix[k]]} }},")
    print(f"#define FIXSCORE_POSSIBLE ({threshold})")
    rates("candidate or possible (needed), refit", picks, None,
          lambda s: s in rows and (cand(s) or (s in signed and score[s] >= threshold)))
    rates("candidate or possible (needed), as built", picks, None,
          lambda s: s in rows and rows[s]["class"] in ("fix", "possible-fix") and needed(s))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    default = os.path.join(here, "picks-2.6.35.txt")
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    cmd, repo = sys.argv[1], sys.argv[2]
    if cmd == "list":
        make_list(repo)
    elif cmd == "signals":
        signals(repo, sys.argv[3] if len(sys.argv) > 3 else "t", default)
    elif cmd == "audit":
        audit(repo, sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else default)
    elif cmd == "triage":
        triage(repo, sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 60,
               sys.argv[5] if len(sys.argv) > 5 else default)
    elif cmd == "train":
        train(repo, sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else default)
    elif cmd == "falses":
        falses(repo, sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 30, default)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
