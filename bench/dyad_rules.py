#!/usr/bin/env python3
"""patchver --dyad against dyad's published rules, on the same introducer.

    bench/dyad_rules.py PATCHVER REPO RANGE [--show N] [--records-only]

No commit of the 2.6 era carries "Fixes: <sha>" (the trailer came later),
so compare like with like: for every non-merge commit of RANGE whose message
names its culprit by id, give that culprit to both.  The fixes: those whose
audit row (patchver --audit RANGE --json --only all, every stable series of
the repository) says "culprit <id>" or "Fixes: <id>" (the message's reading,
7-digit ids and all), and those a plain pattern finds ("introduced by",
"caused by", "broken by", "regression from", "since", "after", "broke",
"Fixes:" and 7 to 40 hex digits, resolving to a commit below the fix):

  patchver:  patchver --triage FIX --introducer CULPRIT --dyad
  dyad:      the rules of the kernel CNA's dyad with --vulnerable=CULPRIT,
             written here from its published script:
    - fixed: the fix's mainline release, and in each stable series of the
      repository the commit naming the fix's full id ("git log --grep=<id>"
      from the series' base to its newest tag), at the first tag with it;
    - vulnerable: the culprit alone, at its mainline release (git describe
      --contains, cut at "-" and "~"); with --vulnerable dyad looks up no
      stable backport of it;
    - each fixed entry pairs with a vulnerable one of the same version, else
      mainline with mainline, else the same X.Y series, else the first;
      an unpaired vulnerable entry gives VERSION:SHA:0:0.
  Versions as dyad writes them, but with the 2.6 era's series: 2.6.34.4
  is a stable version of series 2.6.34 (dyad counts every 2.x version as
  mainline: its X.Y would make all of 2.6 one series).

Then the same fixes as one batch, "FIX CULPRIT" a line on standard input:
patchver --triage --stdin --cve-record, timed (one process), and every
record validated against the CVE JSON 5.0 schema python3-cvelib ships
(/usr/bin/python3, jsonschema).

Every line in one answer and not the other is printed with its reason:
  backport-form   patchver's stable fix names the fix in another form, or
                  carries it by patch-id (dyad greps the full id)
  reverted        dyad's stable fix was reverted on its branch (patchver:
                  no fix there)
  not-reached     dyad pairs a backport of the fix in a series the bug
                  never reached (patchver's rows: not affected)
  culprit-bp      patchver pairs at, or leaves unfixed, the culprit's own
                  backport on a stable line (dyad --vulnerable knows none)
  twin            patchver's fix for a mainline release is mainline's
                  other copy of it (the same change merged twice)
  other           none of these: to read by hand
"""
import json
import re
import resource
import subprocess
import sys
import time

NAMED = re.compile(r"(?:introduced by|introduced in|caused by|broken by|regression from|"
                   r"regressed by|since|after|broke|fixes:)\s+(?:the\s+)?(?:commit\s+)?"
                   r"([0-9a-f]{7,40})\b", re.I)


def git(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True,
                          errors="replace").stdout


def vkey(v):
    return [int(x) for x in re.findall(r"\d+", v)]


def series_of(v):
    return ".".join(v.split(".")[:3])


def is_stable(v):
    return len(v.split(".")) == 4


def release_of(repo, sha):
    """git describe --contains, as dyad cuts it: v2.6.32-rc1~5^2 -> 2.6.32"""
    d = git(repo, "describe", "--contains", sha).strip()
    return d.split("-")[0].split("~")[0].lstrip("v") if d else None


def stable_series(repo):
    """{series: (base tag, [stable tags in version order])}"""
    tags = git(repo, "tag", "-l", "v2.6.*").split()
    out = {}
    for t in tags:
        v = t[1:]
        if is_stable(v) and "-" not in v:
            out.setdefault(series_of(v), []).append(t)
    return {s: ("v" + s, sorted(ts, key=lambda t: vkey(t[1:]))) for s, ts in out.items()}


def first_tag(repo, sha, tags):
    have = set(git(repo, "tag", "--contains", sha).split())
    for t in tags:
        if t in have:
            return t
    return None


def dyad_lines(repo, fix, culprit, stables):
    fixed = []
    for s, (base, tags) in sorted(stables.items(), key=lambda x: vkey(x[0])):
        found = git(repo, "log", "--format=%H", f"--grep={fix}", f"{base}..{tags[-1]}").split()
        found = [c for c in found if c != fix]
        if found:
            t = first_tag(repo, found[-1], tags)
            if t:
                fixed.append((t[1:], found[-1]))
    rel = release_of(repo, fix)
    if rel:
        fixed.append((rel, fix))
    fixed.sort(key=lambda e: vkey(e[0]))
    vuln = []
    v = release_of(repo, culprit)
    if v:
        vuln.append((v, culprit))
    pairs = []
    for fv, fsha in fixed:
        if not vuln:
            pairs.append(("0", "0", fv, fsha))
            continue
        pick = vuln[0]
        for vv, vsha in vuln:
            if vv == fv or (not is_stable(vv) and not is_stable(fv)) or \
               series_of(vv) == series_of(fv):
                pick = (vv, vsha)
                break
        pairs.append((pick[0], pick[1], fv, fsha))
    for vv, vsha in vuln:
        if not any((p[0] == vv and p[1] == vsha) or p[2] == vv for p in pairs):
            pairs.append((vv, vsha, "0", "0"))
    return [":".join(p) for p in pairs]


def pv_lines(pv, repo, fix, culprit):
    out = subprocess.run([pv, "-C", repo, "--triage", fix, "--introducer", culprit, "--dyad"],
                         capture_output=True, text=True)
    if out.returncode:
        return None, out.stderr.strip()
    return [ln for ln in out.stdout.splitlines() if ln and not ln.startswith("#")], None


def reason(repo, fix, culprit, line, mine, pv, rows):
    vv, vsha, fv, fsha = line.split(":")
    if mine:
        if vsha not in ("0", culprit) and is_stable(vv):
            return "culprit-bp"
        if fsha not in ("0", fix) and not is_stable(fv):
            return "twin"
        if fsha not in ("0", fix) and fix not in git(repo, "log", "-1", "--format=%B", fsha):
            return "backport-form"
    else:
        if fsha not in ("0", fix) and is_stable(fv):
            row = rows.get(series_of(fv))
            if row is not None and row["culprit_in"] is None:
                return "not-reached"
            if row is not None and row["fixed_in"] is None:
                return "reverted"
            if row is not None and row["culprit_backport"]:
                return "culprit-bp"
        if fsha == "0" or vsha == culprit:
            # a pair patchver makes at the culprit's backport instead
            if any(l.split(":")[2:] == [fv, fsha] for l in pv):
                return "culprit-bp"
    return "other"


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    pv, repo, rng = sys.argv[1:4]
    show = int(sys.argv[sys.argv.index("--show") + 1]) if "--show" in sys.argv else 40
    stables = stable_series(repo)
    named = {}
    audit = subprocess.run([pv, "-C", repo, "--audit", rng, "--series",
                            ",".join(sorted(stables, key=vkey)), "--json", "--only", "all"],
                           capture_output=True, text=True).stdout
    for row in json.loads(audit)["audit"]["commits"]:
        for cell in row["series"].values():
            m = re.match(r"(?:culprit|Fixes:) ([0-9a-f]{7,40}) ", cell.get("needed_evidence") or "")
            if m and row["commit"] not in named:
                full = git(repo, "rev-parse", "-q", "--verify", m.group(1) + "^{commit}").strip()
                if full:
                    named[row["commit"]] = full
    log = git(repo, "log", "--no-merges", "--format=%H%x01%B%x02", rng)
    cases = list(named.items())
    for rec in log.split("\x02"):
        if "\x01" not in rec:
            continue
        sha, msg = rec.strip("\n").split("\x01", 1)
        for m in NAMED.finditer(msg):
            full = git(repo, "rev-parse", "-q", "--verify", m.group(1) + "^{commit}").strip()
            if sha in named:
                break
            if full and full != sha and subprocess.run(
                    ["git", "-C", repo, "merge-base", "--is-ancestor", full, sha]).returncode == 0:
                cases.append((sha, full))
                break
    if "--records-only" in sys.argv:
        records(pv, repo, cases)
        return
    counts, differ, same, failed = {}, [], 0, []
    for fix, culprit in cases:
        mine, err = pv_lines(pv, repo, fix, culprit)
        if mine is None:
            failed.append((fix, err))
            continue
        theirs = dyad_lines(repo, fix, culprit, stables)
        if sorted(mine) == sorted(theirs):
            same += 1
            continue
        tj = subprocess.run([pv, "-C", repo, "--triage", fix, "--introducer", culprit, "--json"],
                            capture_output=True, text=True).stdout
        rows = {s["series"]: s for s in json.loads(tj)["results"][0]["series"]}
        for line in sorted(set(mine) - set(theirs)):
            r = reason(repo, fix, culprit, line, True, mine, rows)
            counts[r] = counts.get(r, 0) + 1
            differ.append((fix, "patchver", line, r))
        for line in sorted(set(theirs) - set(mine)):
            r = reason(repo, fix, culprit, line, False, mine, rows)
            counts[r] = counts.get(r, 0) + 1
            differ.append((fix, "dyad", line, r))
    fixes = len({d[0] for d in differ})
    print(f"{len(cases)} fixes naming their culprit by id in {rng}: {same} with the same lines, "
          f"{fixes} differing ({len(differ)} lines), {len(failed)} not triaged")
    for r in ("backport-form", "reverted", "not-reached", "culprit-bp", "twin", "other"):
        print(f"  {r:14} {counts.get(r, 0)}")
    for fix, who, line, r in differ[:show]:
        v, vs, f, fs = line.split(":")
        print(f"  {fix[:12]} {who:8} {v}:{vs[:12]}:{f}:{fs[:12]}  {r}")
    for fix, err in failed[:show]:
        print(f"  {fix[:12]} not triaged: {err[:120]}")
    records(pv, repo, cases)


VALIDATE = r"""
import json, os, sys
import cvelib, jsonschema
schema = json.load(open(os.path.join(os.path.dirname(cvelib.__file__), "schemas",
                                     "CVE_JSON_5.0_bundled_5.0.0.json")))
bad = 0
for n, line in enumerate(sys.stdin):
    try:
        jsonschema.validate(json.loads(line), schema)
    except Exception as e:
        bad += 1
        print(f"record {n + 1}: {str(e).splitlines()[0][:200]}")
print(f"{n + 1 if 'n' in dir() else 0} records, {bad} invalid")
"""


def records(pv, repo, cases):
    """The batch: one process, a record a line; its time and the schema's word."""
    lines = "".join(f"{fix} {culprit}\n" for fix, culprit in cases)
    t0 = time.monotonic()
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([pv, "-C", repo, "--triage", "--stdin", "--cve-record"], input=lines,
                         capture_output=True, text=True)
    took = time.monotonic() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    n = len(out.stdout.splitlines())
    print(f"--stdin --cve-record: {n} records of {len(cases)} fixes in {took:.1f} s "
          f"({took / max(n, 1):.3f} s a record; CPU {cpu:.1f} s, {cpu / max(n, 1):.3f} s a "
          f"record), exit {out.returncode}")
    v = subprocess.run(["/usr/bin/python3", "-c", VALIDATE], input=out.stdout,
                       capture_output=True, text=True)
    print("  schema:", (v.stdout + v.stderr).strip().replace("\n", "\n  "))


if __name__ == "__main__":
    main()
