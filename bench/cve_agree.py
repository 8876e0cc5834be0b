#!/usr/bin/env python3
"""The CVE record against the triage: do they say the same thing?

    cve_agree.py PATCHVER REPO RANGE [--all] [--show N]

Takes the commits of RANGE the audit calls fixes by their own word (with
--all, also the possible fixes), triages each twice (`--triage --json` and
`--triage --cve-json`, batched) and compares, per fix:

  versions: the version block's "affected" first release is the earliest
            affected series row's first release; every stable series row
            fixed in a tag (by a backport, or by mainline's twin of the fix)
            has that tag as an "unaffected" entry of its series, and no
            other series has one; the mainline fix's entry is the fix's
            first final release; no mainline release affected: an
            "unaffected" default with one affected range per stable line
            the culprit reached by backport, from that tag to the fix's;
  git:      every range ends at the fix or at a backport the triage lists,
            and starts at an introducer of the triage, a row's culprit or
            the culprit's backport (or at the root commit when the triage
            found none).

Prints the counts and each disagreement (up to --show); exits 1 on any.
"""
import json
import subprocess
import sys


def run(pv, repo, args):
    out = subprocess.run([pv, "-C", repo] + args, check=False, capture_output=True, text=True)
    if out.returncode not in (0, 1):
        sys.exit(f"cve_agree.py: {' '.join(args[:3])}: exit {out.returncode}: {out.stderr.strip()[:300]}")
    return json.loads(out.stdout)


def batched(pv, repo, mode, commits, batch=150):
    res = {}
    for i in range(0, len(commits), batch):
        doc = run(pv, repo, ["--triage", mode] + commits[i:i + batch])
        for r in doc["results"]:
            res[r["fix"]["commit"]] = r
        print(f"cve_agree.py: {mode} {min(i + batch, len(commits))} of {len(commits)}", file=sys.stderr)
    return res


def final_of(tag):
    """v2.6.36-rc1 -> 2.6.36"""
    return tag[1:].split("-")[0] if tag else None


def compare(t, c):
    faults = []
    rows = [s for s in t.get("series", []) if s["affected"]]
    released = [s for s in rows if s["first_affected"]]
    entries = [e for e in c["affected"] if "versionType" not in e and e.get("versions")] + \
              [e for e in c["affected"] if e.get("defaultStatus") == "affected"]
    vers = [v for e in c["affected"] if e.get("defaultStatus") == "affected" for v in e.get("versions", [])]
    gits = [v for e in c["affected"] for v in e.get("versions", []) if v.get("versionType") == "git"]
    if t["class"] in ("not-a-fix",):
        return faults
    if any("no certain or likely introducer" in n for n in c.get("notes") or []):
        # the record places the root commit as the introducer (the CNA's
        # rule when it is unknown): every series from the first is affected
        # until a backport fixes it, and the triage's rows are not the source
        every = t.get("series", [])
        first = every[0]["series"] if every else None
        aff = [v["version"] for v in vers if v["status"] == "affected" and "lessThan" not in v]
        if first and aff != [first]:
            faults.append(f"unknown introducer: record first {aff}, the history's first {first}")
        return faults
    if not released:
        if vers:
            faults.append("no released kernel affected, yet version entries")
        return faults
    if not vers:
        # no mainline release affected: an "unaffected" default with each stable
        # line's affected range, from the tag its culprit's backport came in
        ranges = {v["version"]: v.get("lessThan") for e in c["affected"]
                  for v in e.get("versions", []) if v.get("versionType") == "semver"}
        want = {s["first_affected"][1:]: s["fixed_in"][1:] if s["fixed_in"] else None
                for s in released}
        if ranges != want:
            faults.append(f"stable ranges: record {ranges}, triage {want}")
        return faults + git_faults(t, c, rows, gits)
    first = min(released, key=lambda s: [int(x) for x in s["series"].split(".")])
    aff = [v["version"] for v in vers if v["status"] == "affected" and "lessThan" not in v]
    if aff != [first["first_affected"][1:].split("-")[0]] and aff != [first["series"]]:
        faults.append(f"first affected: record {aff}, triage {first['first_affected']}")
    # a series fixed by a backport, or by mainline's twin of the fix in its base release
    fixed = {s["series"]: s["fixed_in"][1:] for s in t.get("series", [])
             if s["fixed_in"] and (s["fixed_by_backport"] or s.get("fixed_by_twin"))}
    stable_unaff = {v["lessThanOrEqual"][:-2]: v["version"] for v in vers
                    if v.get("versionType") == "semver" and v["status"] == "unaffected" and
                    v.get("lessThanOrEqual", "").endswith(".*")}
    if fixed != stable_unaff:
        faults.append(f"stable fixes: record {stable_unaff}, triage {fixed}")
    main = [v["version"] for v in vers if v.get("versionType") == "original_commit_for_fix"]
    want = final_of(t["fix"]["first_release"])
    if want and main != [want]:
        faults.append(f"mainline fix: record {main}, triage {want}")
    return faults + git_faults(t, c, rows, gits)


def git_faults(t, c, rows, gits):
    """Every git range ends at the fix or a backport of it, and starts at an
    introducer of the triage (any of them: the record takes the earliest), a
    row's culprit or the culprit's backport."""
    faults = []
    ends = {t["fix"]["commit"]} | {b["commit"]["commit"] for b in t.get("backports", [])}
    starts = {s["culprit"] for s in rows if s["culprit"]} | \
             {s["culprit_backport"] for s in rows if s["culprit_backport"]} | \
             {i["commit"]["commit"] for i in t.get("introducers", []) if i.get("commit")}
    for g in gits:
        if g["lessThan"] not in ends:
            faults.append(f"git range ends at {g['lessThan'][:12]}, not the fix or a backport")
        if starts and g["version"] not in starts:
            faults.append(f"git range starts at {g['version'][:12]}, no introducer of the triage")
    return faults


def main():
    args = sys.argv[1:]
    show, every = 20, "--all" in args
    if every:
        args.remove("--all")
    if "--show" in args:
        k = args.index("--show")
        show = int(args[k + 1])
        del args[k:k + 2]
    if len(args) != 3:
        sys.exit(__doc__)
    pv, repo, rng = args
    audit = run(pv, repo, ["--audit", rng, "--series", "2.6.34", "--json"])["audit"]
    keep = ("fix", "possible-fix") if every else ("fix",)
    commits = [c["commit"] for c in audit["commits"] if c["class"] in keep]
    tri = batched(pv, repo, "--json", commits)
    cve = batched(pv, repo, "--cve-json", commits)
    n = {"fixes": len(commits), "records": 0, "with_versions": 0, "git_ranges": 0, "disagree": 0}
    out = []
    for c in commits:
        t, r = tri.get(c), cve.get(c)
        if not t or not r:
            out.append(f"{c[:12]}: no answer")
            continue
        n["records"] += 1
        n["with_versions"] += any(e.get("defaultStatus") == "affected" for e in r["affected"])
        n["git_ranges"] += sum(v.get("versionType") == "git" for e in r["affected"]
                               for v in e.get("versions", []))
        f = compare(t, r)
        if f:
            n["disagree"] += 1
            out.append(f"{c[:12]} {t['class']}: " + "; ".join(f))
    print(f"window {rng}: " + ", ".join(f"{k} {v}" for k, v in n.items()))
    for line in out[:show]:
        print("  " + line)
    if len(out) > show:
        print(f"  ... {len(out) - show} more")
    sys.exit(1 if out else 0)


if __name__ == "__main__":
    main()
