#!/usr/bin/env python3
"""The audit and the triage over one window: do they agree?

    agree.py PATCHVER REPO RANGE SERIES[,SERIES...] [--show N]

Runs `--audit RANGE --series ... --json` once, then `--triage --evidence
text --json` (the audit's evidence: the message's culprits, else whether a
release has the lines the fix changes, no blame) on every commit the audit
judges (fixes and possible fixes), and compares, per commit and series:

  needed:  the audit's "needed" is yes  <=>  the triage's series row has the
           bug in the series' newest tag, or had it until the fix came (a
           culprit whose backport stable reverted is not needed), or a
           culprit's backport is queued on the series' branch;
  present: the audit's "present" is set  =>  the triage's row has the fix in
           a tag of the series (fixed in it, or backported where the bug
           never was), or its backport is queued on the branch;
  reverted: the audit's "reverted_by" is the triage's "mainline_revert"
           (per commit: mainline's standing revert of it, or none).

Prints the counts and each disagreement (up to --show), exits 1 on any.
"""
import json
import subprocess
import sys


def run(pv, repo, args):
    out = subprocess.run([pv, "-C", repo] + args, check=False, capture_output=True, text=True)
    if out.returncode not in (0, 1):
        sys.exit(f"agree.py: {' '.join(args[:3])}: exit {out.returncode}: {out.stderr.strip()[:300]}")
    return json.loads(out.stdout)


def triage_rows(pv, repo, commits, batch=200):
    rows = {}
    for i in range(0, len(commits), batch):
        doc = run(pv, repo, ["--triage", "--evidence", "text", "--json"] + commits[i:i + batch])
        for res in doc["results"]:
            rows[res["fix"]["commit"]] = res
        print(f"agree.py: triaged {min(i + batch, len(commits))} of {len(commits)}", file=sys.stderr)
    return rows


def needed(t, row, name):
    """The triage's row says the series needs the fix: the bug is in its
    newest tag (or was until the fix came), or its culprit's backport is
    queued on the series' branch."""
    if row is None:
        return False
    if row["culprit_in"] is not None and (row["fixed_in"] is not None or
                                          row["last_affected"] == row["newest_tag"]):
        return True
    return any(q.get("series") == name for q in t.get("queued_culprits", []))


def main():
    args = sys.argv[1:]
    show = 20
    if "--show" in args:
        k = args.index("--show")
        show = int(args[k + 1])
        del args[k:k + 2]
    if len(args) != 4:
        sys.exit(__doc__)
    pv, repo, rng, series = args
    names = series.split(",")
    audit = run(pv, repo, ["--audit", rng, "--series", series, "--json"])["audit"]
    judged = [c for c in audit["commits"] if c["class"] != "not-a-fix"]
    rows = triage_rows(pv, repo, [c["commit"] for c in judged])
    counts = {"cells": 0, "needed_agree": 0, "needed_disagree": 0,
              "present_agree": 0, "present_disagree": 0, "reverted": 0, "reverted_disagree": 0}
    faults = []
    for c in judged:
        t = rows.get(c["commit"])
        if t is None:
            faults.append(f"{c['commit'][:12]}: no triage")
            continue
        by_name = {s["series"]: s for s in t.get("series", [])}
        revert = (t.get("mainline_revert") or {}).get("commit")
        counts["reverted"] += revert is not None
        if revert != c.get("reverted_by"):
            counts["reverted_disagree"] += 1
            faults.append(f"{c['commit'][:12]}: audit reverted_by={c.get('reverted_by')}; "
                          f"triage mainline_revert={revert}")
        for name in names:
            cell, row = c["series"][name], by_name.get(name)
            counts["cells"] += 1
            a = cell["needed"] == "yes"
            b = needed(t, row, name)
            if a == b:
                counts["needed_agree"] += 1
            else:
                counts["needed_disagree"] += 1
                faults.append(f"{c['commit'][:12]} {name}: audit needed={cell['needed']} "
                              f"({cell['needed_evidence']}); triage culprit_in={row and row['culprit_in']} "
                              f"({t.get('evidence_used')}) {c['subject'][:60]}")
            if cell["present"]:
                queued = any(b2["commit"]["first_release"] is None for b2 in t.get("backports", []))
                # an unaffected series' backport: "the fix was backported; its culprit never was"
                if row and (row["fixed_in"] or row["fix_without_culprit"] or row["fix_before_culprit"]
                            or row["together"] or queued):
                    counts["present_agree"] += 1
                else:
                    counts["present_disagree"] += 1
                    faults.append(f"{c['commit'][:12]} {name}: audit present since "
                                  f"{cell['present_since']}; triage fixed_in={row and row['fixed_in']}")
    print(f"window {rng}, series {series}: {len(audit['commits'])} commits, {len(judged)} judged")
    for k, v in counts.items():
        print(f"  {k}: {v}")
    for f in faults[:show]:
        print("  " + f)
    if len(faults) > show:
        print(f"  ... {len(faults) - show} more")
    sys.exit(1 if faults else 0)


if __name__ == "__main__":
    main()
