#!/usr/bin/env python3
"""A stable commit as --triage's input is triaged as its upstream.

  bench/stable_input.py REPO PATCHVER [RANGE] [--evidence MODE]
      Every commit of RANGE (default v2.6.34..v2.6.34.6, a stable line)
      whose message names its upstream ("commit <sha> upstream.",
      "[ Upstream commit <sha> ]", "(cherry picked from commit <sha>)",
      found here by regular expression and resolved with git, apart from
      patchver's reader), triaged twice in batches of 40: the stable commit
      and the upstream it names.  Prints how many results agree (the whole
      result but rev and stable_input), how many said which upstream they
      triaged, and every disagreement.
"""
import json
import re
import subprocess
import sys

UPSTREAM = re.compile(r'(?:^commit ([0-9a-f]{12,40}) upstream\.?$'
                      r'|\[ ?upstream commit ([0-9a-f]{12,40}) ?\]'
                      r'|\(cherry.picked from commit ([0-9a-f]{12,40})\))', re.I | re.M)


def git(repo, *args):
    return subprocess.run(['git', '-C', repo, *args], capture_output=True, text=True,
                          errors='replace').stdout


def pairs(repo, rng):
    out = []
    for rec in git(repo, 'log', '--no-merges', '--format=%H%x01%B%x02', rng).split('\x02'):
        if '\x01' not in rec:
            continue
        sha, msg = rec.strip('\n').split('\x01', 1)
        m = UPSTREAM.search(msg)
        if not m:
            continue
        up = git(repo, 'rev-parse', '-q', '--verify', next(g for g in m.groups() if g) + '^{commit}').strip()
        if up and up != sha:
            out.append((sha, up))
    return out


def triage(pv, repo, revs, evidence):
    res = []
    for i in range(0, len(revs), 40):
        args = [pv, '-C', repo, '--triage', *revs[i:i + 40], '--json']
        if evidence:
            args += ['--evidence', evidence]
        res += json.loads(subprocess.run(args, capture_output=True, text=True).stdout)['results']
    return res


def main():
    args = [a for a in sys.argv[1:]]
    evidence = None
    if '--evidence' in args:
        k = args.index('--evidence')
        evidence = args[k + 1]
        del args[k:k + 2]
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    repo, pv = args[0], args[1]
    rng = args[2] if len(args) > 2 else 'v2.6.34..v2.6.34.6'
    ps = pairs(repo, rng)
    stable = triage(pv, repo, [s for s, _ in ps], evidence)
    upstream = triage(pv, repo, [u for _, u in ps], evidence)
    same = said = 0
    for (s, u), a, b in zip(ps, stable, upstream):
        said += (a.get('stable_input') or {}).get('upstream_found', False)
        a = {k: v for k, v in a.items() if k not in ('rev', 'stable_input')}
        b = {k: v for k, v in b.items() if k != 'rev'}
        if a == b:
            same += 1
        else:
            print(f'  differs: {s[:12]} (upstream {u[:12]}): fix {a.get("fix", {}).get("commit", "?")[:12]}, '
                  f'class {a.get("class")} vs {b.get("class")}')
    print(f'{len(ps)} commits of {rng} name an upstream in this repository; '
          f'{said} said they triaged it; {same} results equal the upstream\'s own')


if __name__ == '__main__':
    main()
