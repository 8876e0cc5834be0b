#!/usr/bin/env python3
"""Triage accuracy against culprits named by kernel developers.

  bench/culprits.py list REPO > bench/culprits.txt
      fixes whose own message names the commit that introduced the bug
      ("introduced by <sha>", "caused by commit <sha>", "since <sha>",
      "regression from <sha>", "broken by <sha>"), the culprit resolved
      with git and below the fix; frozen in bench/culprits.txt.

  bench/culprits.py measure REPO PATCHVER [LIST]
      for every fix of the list: plain SZZ computed with git (blame the
      lines the fix removes at its parent, the commit with most lines
      first), patchver --triage --evidence blame (message ignored) and
      patchver --triage (all evidence); prints top-1, in-candidates,
      no-candidate and the first affected release against the true one,
      for the tuning half (odd lines) and the report half (even lines).

  bench/culprits.py ccstable REPO PATCHVER [RANGE]
      the other side: mainline fixes in RANGE (default v2.6.30..v2.6.35,
      every 4th) whose message carries Cc: stable, so their developer held
      that released kernels have the bug; prints how many verdicts name a
      released kernel affected, with --evidence blame and with all evidence.
      A ranking tuned on the list above must not buy its numbers here.

  bench/culprits.py backported REPO PATCHVER [OLD_PATCHVER]
      mainline fixes of v2.6.34..v2.6.36-rc3 whose message names (by an id
      of 10+ hex digits) a commit that 2.6.34.y or 2.6.35.y took as a
      backport ("commit <sha> upstream." and the other forms); each one's
      2.6.34 and 2.6.35 rows of --triage, with OLD_PATCHVER's beside.

  bench/culprits.py blamed REPO PATCHVER [OLD_PATCHVER]
      every mainline commit of v2.6.34..v2.6.36-rc3 that changes a file
      2.6.34.y or 2.6.35.y changed and looks like a fix (fix, stable@,
      an id of 10+ digits, regression, revert), triaged (--json, 25 a run): those
      whose 2.6.34 or 2.6.35 row names an introducer's backport (named or
      blamed, by upstream line or patch-id), with OLD_PATCHVER's rows beside.

  bench/culprits.py diff OLD.json NEW.json
      every fix whose verdict, affected releases or introducers differ
      between two runs' triages (CULPRITS_CACHE of measure or ccstable:
      with it set, both keep their triages in that file).

The true first affected release is the culprit's first release in kernel
version order, or none when culprit and fix first shipped in the same
release (patchver --first-release gives both; it is cross-checked
against git elsewhere).
"""
import json
import os
import re
import subprocess
import sys
import time

PHRASE = re.compile(
    r"(introduced by|introduced in|caused by|regression from|broken by|since)"
    r"\s+(?:the\s+)?(?:commit\s+)?([0-9a-f]{8,40})\b", re.I)


def git(repo, *args, inp=None):
    return subprocess.run(["git", "-C", repo, *args], input=inp, capture_output=True,
                          text=True, errors="replace").stdout


def make_list(repo):
    grep = r"(introduced by|introduced in|caused by|regression from|broken by|since)( the)?( commit)? [0-9a-f]{8}"
    out = git(repo, "log", "--all", "--no-merges", "-i", "-E", "--grep", grep,
              "--format=%H%x00%B%x01")
    pairs = []
    for rec in out.split("\x01"):
        if "\x00" not in rec:
            continue
        fix, body = rec.strip("\n").split("\x00", 1)
        for m in PHRASE.finditer(" ".join(body.split())):
            sha = git(repo, "rev-parse", "-q", "--verify", m.group(2) + "^{commit}").strip()
            if not sha or sha == fix:
                continue
            if subprocess.run(["git", "-C", repo, "merge-base", "--is-ancestor", sha, fix]).returncode:
                continue
            pairs.append((fix, sha, m.group(1).lower()))
            break
    pairs.sort()
    for fix, sha, phrase in pairs:
        print(f"{fix} {sha} {phrase}")


def szz(repo, fix):
    """Plain SZZ with git: blame the removed lines at fix^."""
    diff = git(repo, "diff", "-U0", "--no-renames", fix + "^", fix)
    path, counts = None, {}
    for line in diff.splitlines():
        if line.startswith("--- "):
            path = line[6:] if line.startswith("--- a/") else None
        elif line.startswith("@@ ") and path:
            m = re.match(r"@@ -(\d+)(?:,(\d+))? ", line)
            start, n = int(m.group(1)), int(m.group(2) if m.group(2) is not None else 1)
            if n == 0:
                continue
            blame = git(repo, "blame", "--porcelain", "-L", f"{start},{start + n - 1}",
                        fix + "^", "--", path)
            for b in blame.splitlines():
                m2 = re.match(r"^([0-9a-f]{40}) \d+ \d+", b)
                if m2:
                    counts[m2.group(1)] = counts.get(m2.group(1), 0) + 1
    return sorted(counts, key=lambda c: (-counts[c], c))


def first_releases(repo, pv, shas):
    out = subprocess.run([pv, "-C", repo, "--first-release", "--stdin"],
                         input="\n".join(shas) + "\n", capture_output=True, text=True).stdout
    rel = {}
    for sha, line in zip(shas, out.splitlines()):
        rel[sha] = line.split()[-1] if line.split() else "none"
    return rel


def triage(repo, pv, fixes, mode):
    res = {}
    for i in range(0, len(fixes), 40):
        chunk = fixes[i:i + 40]
        args = [pv, "-C", repo, "--triage", "--json"] + (["--evidence", mode] if mode else [])
        out = subprocess.run(args + chunk, capture_output=True, text=True).stdout
        for r in json.loads(out)["results"]:
            res[r["rev"]] = r
    return res


def pct(n, d):
    return f"{100.0 * n / d:5.1f}%" if d else "   -  "


def measure(repo, pv, listfile):
    rows = [l.split() for l in open(listfile) if l.strip() and not l.startswith("#")]
    fixes = [r[0] for r in rows]
    cache = os.environ.get("CULPRITS_CACHE")     # reuse a run's triages while tuning
    if cache and os.path.exists(cache):
        blame, full, t_blame, t_full = json.load(open(cache))
    else:
        t0 = time.time()
        blame = triage(repo, pv, fixes, "blame")
        t_blame = time.time() - t0
        t0 = time.time()
        full = triage(repo, pv, fixes, None)
        t_full = time.time() - t0
        if cache:
            json.dump([blame, full, t_blame, t_full], open(cache, "w"))
    rel = first_releases(repo, pv, sorted({r[0] for r in rows} | {r[1] for r in rows}))
    szz_cache = os.environ.get("SZZ_CACHE")      # git's answers do not change
    szz_all = json.load(open(szz_cache)) if szz_cache and os.path.exists(szz_cache) else {}
    for fix in fixes:
        if fix not in szz_all:
            szz_all[fix] = szz(repo, fix)
    if szz_cache:
        json.dump(szz_all, open(szz_cache, "w"))
    halves = {"tune (odd)": rows[0::2], "report (even)": rows[1::2]}
    print(f"{len(rows)} fixes; patchver --evidence blame {t_blame:.0f} s, "
          f"full triage {t_full:.0f} s (one process per 40 fixes)\n")
    # the ceiling of any candidate set drawn from the files the fix changes
    files = {c: set(git(repo, "diff-tree", "--no-commit-id", "-r", "--name-only", c + "^", c).split())
             for c in {r[0] for r in rows} | {r[1] for r in rows}}
    print("| half | fixes | SZZ top-1 | SZZ in-cand | SZZ none | pv top-1 | pv in-cand | pv none "
          "| first affected (blame) | first affected (all) | culprit changes a file of the fix |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, part in halves.items():
        s = dict(top=0, inc=0, none=0, ptop=0, pinc=0, pnone=0, fb=0, fa=0, same=0)
        for row in part:
            fix, culprit = row[0], row[1]
            cands = szz_all[fix]
            s["top"] += bool(cands) and cands[0] == culprit
            s["inc"] += culprit in cands
            s["none"] += not cands
            b = blame.get(fix, {})
            intro = [x["commit"]["commit"] for x in b.get("introducers", [])]
            # patchver's candidates: every commit blame finds on the fix's
            # lines (removed, beside or context), merges aside
            blamed = [e["target"]["commit"] for e in b.get("evidence", [])
                      if e["kind"] == "blame" and e.get("target") and not e.get("merge")]
            s["ptop"] += bool(intro) and intro[0] == culprit
            s["pinc"] += culprit in blamed
            s["pnone"] += not blamed
            truth = rel.get(culprit, "none")
            if truth == rel.get(fix, "none"):
                truth = "none"
            got_b = (b.get("affected") or ["none"])[0]
            got_a = (full.get(fix, {}).get("affected") or ["none"])[0]
            s["fb"] += got_b == truth
            s["fa"] += got_a == truth
            s["same"] += bool(files[fix] & files[culprit])
        n = len(part)
        print(f"| {name} | {n} | {pct(s['top'], n)} | {pct(s['inc'], n)} | {pct(s['none'], n)} "
              f"| {pct(s['ptop'], n)} | {pct(s['pinc'], n)} | {pct(s['pnone'], n)} "
              f"| {pct(s['fb'], n)} | {pct(s['fa'], n)} | {pct(s['same'], n)} |")


def ccstable(repo, pv, rng):
    fixes = git(repo, "log", "--no-merges", "-i", "-E", "--grep",
                r"^cc:.*stable@(vger\.)?kernel\.org", "--format=%H", rng).split()[0::4]
    print(f"{len(fixes)} Cc: stable fixes of {rng} (every 4th)\n")
    print("| evidence | a released kernel affected | no release affected | uncertain |")
    print("|---|---|---|---|")
    cache = os.environ.get("CULPRITS_CACHE")
    kept = json.load(open(cache)) if cache and os.path.exists(cache) else None
    runs = []
    for k, mode in enumerate(("blame", None)):
        res = kept[k] if kept else triage(repo, pv, fixes, mode)
        runs.append(res)
        rel = sum(any(not re.search(r"-rc\d+$", a) for a in r.get("affected") or [])
                  for r in res.values())
        none = sum(not r.get("affected") for r in res.values())
        unc = sum(r.get("confidence") == "uncertain" for r in res.values())
        n = len(res)
        print(f"| {mode or 'all'} | {rel} ({pct(rel, n)}) | {none} | {unc} |")
    if cache and not kept:
        json.dump(runs, open(cache, "w"))


UPSTREAM = re.compile(r"(?:commit\s+([0-9a-f]{40})\s+upstream|upstream\s+commit\s+([0-9a-f]{10,40})"
                      r"|cherry picked from commit\s+([0-9a-f]{10,40})"
                      r"|modified from commit\s+([0-9a-f]{10,40}))", re.I)


def series_rows(repo, pv, fix):
    """The 2.6.34 and 2.6.35 rows of --triage's stable series, a row
    "A … B  not affected (N series)" counting for the series it spans."""
    out = subprocess.run([pv, "-C", repo, "--triage", fix], capture_output=True, text=True).stdout
    rows = {}
    key = lambda v: tuple(int(x) for x in v.split("."))
    for line in out.splitlines():
        m = re.match(r"^  (2\.6\.3[45]) +(.*)", line)
        if m:
            rows[m.group(1)] = m.group(2)
        m = re.match(r"^  ([0-9.]+) \u2026 ([0-9.]+)  (not affected)", line)
        for s in ("2.6.34", "2.6.35"):
            if m and key(m.group(1)) <= key(s) <= key(m.group(2)):
                rows[s] = m.group(3)
    return rows


def backported(repo, pv, old_pv):
    ups = {}
    for rng in ("v2.6.34..v2.6.34.6", "v2.6.35..v2.6.35.4"):
        out = git(repo, "log", "--format=%H%x00%B%x01", rng)
        for rec in out.split("\x01"):
            if "\x00" not in rec:
                continue
            sha, body = rec.strip("\n").split("\x00", 1)
            for m in UPSTREAM.finditer(" ".join(body.split())):
                up = next(g for g in m.groups() if g)
                full = git(repo, "rev-parse", "-q", "--verify", up + "^{commit}").strip()
                if full:
                    ups.setdefault(full, []).append((rng.split("..")[0], sha[:12]))
    fixes = []
    out = git(repo, "log", "--no-merges", "--format=%H%x00%B%x01", "v2.6.34..v2.6.36-rc3")
    for rec in out.split("\x01"):
        if "\x00" not in rec:
            continue
        sha, body = rec.strip("\n").split("\x00", 1)
        named = {full for full in ups for m in re.finditer(r"\b([0-9a-f]{10,40})\b", body)
                 if full.startswith(m.group(1)) and full != sha}
        if named:
            fixes.append((sha, sorted(named)))
    print(f"{len(ups)} upstream commits have a backport in 2.6.34.y or 2.6.35.y; "
          f"{len(fixes)} mainline commits of v2.6.34..v2.6.36-rc3 name one\n")
    for sha, named in fixes:
        subject = git(repo, "log", "-1", "--format=%s", sha).strip()
        print(f"{sha[:12]} {subject}" + (f" (itself backported: {', '.join(b for _, b in ups[sha])})"
                                          if sha in ups else ""))
        for u in named:
            print(f"  names {u[:12]}, backported as " +
                  ", ".join(f"{b} ({base}.y)" for base, b in ups[u]))
        new = series_rows(repo, pv, sha)
        old = series_rows(repo, old_pv, sha) if old_pv else {}
        for s in ("2.6.34", "2.6.35"):
            print(f"  {s}: {new.get(s, '?')}")
            if old_pv and old.get(s) != new.get(s):
                print(f"  {s} before: {old.get(s, '?')}")


def triage_rows(repo, pv, fixes):
    """fix -> {series: row} of --triage --json, for the 2.6.34 and 2.6.35 series."""
    rows = {}
    for i in range(0, len(fixes), 25):
        out = subprocess.run([pv, "-C", repo, "--triage", "--json", *fixes[i:i + 25]],
                             capture_output=True, text=True).stdout
        for r in json.loads(out or '{"results": []}')["results"]:
            if "fix" not in r:
                continue
            rows[r["fix"]["commit"]] = {s["series"]: s for s in r.get("series", [])
                                        if s["series"] in ("2.6.34", "2.6.35")}
        print(f"  {min(i + 25, len(fixes))}/{len(fixes)} triaged", file=sys.stderr)
    return rows


def row_text(s):
    if s is None:
        return "?"
    if not s.get("affected"):
        return "not affected" + (" (together)" if s.get("together") else "")
    return (f"affected {s.get('first_affected')}..{s.get('last_affected')}"
            + (f" via {s['culprit_backport'][:12]} ({s.get('culprit_backport_by')})"
               if s.get("culprit_backport") else "")
            + (f", fixed in {s['fixed_in']}" if s.get("fixed_in") else ", no fix"))


def series_tags(repo, series, containing):
    """The tags vSERIES.N containing commit, in version order."""
    out = git(repo, "tag", "--contains", containing, "--list", f"v{series}.*").split()
    return sorted((t for t in out if re.fullmatch(rf"v{re.escape(series)}\.\d+", t)),
                  key=lambda t: int(t.rsplit(".", 1)[1]))


def check_with_git(repo, fix, series, row):
    """What git alone says of a row naming a culprit's backport: the
    backport names the culprit, the first series tag with it is where the
    row starts, and the first with the fix (or a backport naming it) where
    it ends.  Returns "" when git agrees, else what differs."""
    u, b = row["culprit"], row["culprit_backport"]
    body = git(repo, "log", "-1", "--format=%B", b)
    named = any(u.startswith(m.group(1)) or m.group(1).startswith(u[:len(m.group(1))])
                for m in re.finditer(r"\b([0-9a-f]{10,40})\b", " ".join(body.split())))
    by_pid = row.get("culprit_backport_by") == "patch-id"
    first = series_tags(repo, series, b)
    fixed = series_tags(repo, series, fix)
    rng = f"v{series}..v{series}.{9999}"
    tags = git(repo, "tag", "--list", f"v{series}.*").split()
    last = max((t for t in tags if re.fullmatch(rf"v{re.escape(series)}\.\d+", t)),
               key=lambda t: int(t.rsplit(".", 1)[1]))
    for line in git(repo, "log", "--format=%H %B%x01", f"v{series}..{last}").split("\x01"):
        if fix[:12] in line:
            fixed = sorted(set(fixed) | set(series_tags(repo, series, line.split()[0])),
                           key=lambda t: int(t.rsplit(".", 1)[1]))
    bad = []
    if not named and not by_pid:
        bad.append(f"{b[:12]} does not name {u[:12]}")
    if not first or first[0] != row.get("culprit_in"):
        bad.append(f"first tag with {b[:12]}: {first[:1]} vs {row.get('culprit_in')}")
    if (fixed[0] if fixed else None) != row.get("fixed_in"):
        bad.append(f"first tag with the fix: {fixed[:1]} vs {row.get('fixed_in')}")
    return "; ".join(bad)


def blamed(repo, pv, old_pv):
    files = set()
    for rng in ("v2.6.34..v2.6.34.6", "v2.6.35..v2.6.35.4"):
        files |= {f for f in git(repo, "log", "--format=", "--name-only", rng).split("\n") if f}
    fixes = git(repo, "log", "--no-merges", "--format=%H", "-i", "-E",
                "--grep=fix|stable@|[0-9a-f]{10}|regression|revert", "v2.6.34..v2.6.36-rc3", "--",
                *sorted(files)).split()
    print(f"{len(fixes)} mainline commits of v2.6.34..v2.6.36-rc3 that change a file stable "
          f"changed and look like fixes (fix, stable@, an id, regression, revert)")
    t0 = time.time()
    new = triage_rows(repo, pv, fixes)
    took = time.time() - t0
    hits = [f for f in fixes if any(s.get("culprit_backport") or s.get("together")
                                     for s in new.get(f, {}).values())]
    old = triage_rows(repo, old_pv, hits) if old_pv else {}
    print(f"{len(hits)} have an introducer stable carries as a backport "
          f"({took:.0f} s for {len(fixes)} triages)\n")
    agree = checked = 0
    for f in hits:
        subject = git(repo, "log", "-1", "--format=%s", f).strip()
        print(f"{f[:12]} {subject}")
        for s in ("2.6.34", "2.6.35"):
            row = new[f].get(s) or {}
            n = row_text(new[f].get(s))
            o = row_text(old.get(f, {}).get(s)) if old_pv else None
            print(f"  {s}: {n}" + (f"   (before: {o})" if o is not None and o != n else ""))
            if row.get("culprit_backport") and row.get("affected"):
                checked += 1
                bad = check_with_git(repo, f, s, row)
                agree += not bad
                print(f"    culprit {row['culprit'][:12]}; git: " + (bad or "agrees"))
    print(f"\n{agree} of {checked} rows naming a culprit's backport: git agrees")


def diff(old_file, new_file):
    """Every fix whose answer moved: the first two entries of either cache
    are the --evidence blame and the all-evidence triages."""
    old, new = json.load(open(old_file)), json.load(open(new_file))
    changed = 0
    for k, mode in enumerate(("blame", "all")):
        a, b = old[k], new[k]
        for fix in sorted(set(a) | set(b)):
            ra, rb = a.get(fix, {}), b.get(fix, {})
            keys = ("verdict", "affected", "confidence")
            intro_a = [x["commit"]["commit"] for x in ra.get("introducers", [])]
            intro_b = [x["commit"]["commit"] for x in rb.get("introducers", [])]
            if any(ra.get(x) != rb.get(x) for x in keys) or intro_a != intro_b:
                changed += 1
                print(f"{mode} {fix[:12]}: {ra.get('verdict')!r} -> {rb.get('verdict')!r}; "
                      f"introducers {[i[:12] for i in intro_a]} -> {[i[:12] for i in intro_b]}")
        print(f"{mode}: {len(set(a) | set(b))} fixes compared")
    print(f"{changed} answers changed")


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "list":
        make_list(sys.argv[2])
    elif len(sys.argv) >= 4 and sys.argv[1] == "ccstable":
        ccstable(sys.argv[2], sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else "v2.6.30..v2.6.35")
    elif len(sys.argv) >= 4 and sys.argv[1] == "backported":
        backported(sys.argv[2], sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else None)
    elif len(sys.argv) >= 4 and sys.argv[1] == "blamed":
        blamed(sys.argv[2], sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else None)
    elif len(sys.argv) == 4 and sys.argv[1] == "diff":
        diff(sys.argv[2], sys.argv[3])
    elif len(sys.argv) >= 4 and sys.argv[1] == "measure":
        measure(sys.argv[2], sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else "bench/culprits.txt")
    else:
        sys.exit(__doc__)
