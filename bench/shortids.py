#!/usr/bin/env python3
"""Messages that name an ancestor commit only by a 7-digit id.

  bench/shortids.py list REPO > bench/shortids.txt
      The rule: a non-merge commit whose message holds no hex run of 8 or
      more digits, and a word of exactly 7 hex digits with letters and
      digits in it; the word names a commit (git's own reading: of several
      objects with that prefix only the commits count, and of several
      commits the one that is an ancestor), and that commit is a proper
      ancestor of the message's commit.  One line per (commit, id):
        <commit> <id> <named commit> | <the words around the id>

  bench/shortids.py measure REPO PATCHVER [LIST]
      patchver --triage --evidence message --json for every commit of the
      list (in batches of 50), and for each (commit, id) whether the named
      commit is in the evidence; prints the count and, for the others, the
      words around the id, to be read by hand (a culprit or a revert
      sentence the reader misses is a defect; a mention of a commit that
      introduced nothing is not).
"""
import json
import re
import subprocess
import sys

WORD = re.compile(r'(?<![0-9A-Za-z])([0-9a-fA-F]{7})(?![0-9A-Za-z])')
LONG = re.compile(r'(?<![0-9A-Za-z])[0-9a-fA-F]{8,40}(?![0-9A-Za-z])')


def git(repo, *args, stdin=None):
    return subprocess.run(['git', '-C', repo, *args], input=stdin, capture_output=True,
                          text=True, errors='replace').stdout


def is_ancestor(repo, a, b):
    return subprocess.run(['git', '-C', repo, 'merge-base', '--is-ancestor', a, b],
                          capture_output=True).returncode == 0


def commits_named(repo, word):
    """Every commit whose id starts with word (git's disambiguation list)."""
    objs = git(repo, 'rev-parse', '--disambiguate=' + word.lower()).split()
    if not objs:
        return []
    types = git(repo, 'cat-file', '--batch-check=%(objectname) %(objecttype)',
                stdin='\n'.join(objs) + '\n').split('\n')
    return [t.split()[0] for t in types if t.endswith(' commit')]


def context(msg, word):
    i = msg.find(word)
    flat = ' '.join(msg[max(0, i - 70):i + 60].split())
    return flat


def listing(repo):
    log = git(repo, 'log', '--all', '--no-merges', '--format=%H%x01%B%x02')
    for rec in log.split('\x02'):
        if '\x01' not in rec:
            continue
        sha, msg = rec.strip('\n').split('\x01', 1)
        if LONG.search(msg):
            continue
        seen = set()
        for m in WORD.finditer(msg):
            w = m.group(1)
            if w.lower() in seen or not (re.search('[a-fA-F]', w) and re.search('[0-9]', w)):
                continue
            seen.add(w.lower())
            below = [c for c in commits_named(repo, w) if c != sha and is_ancestor(repo, c, sha)]
            if len(below) == 1:
                print(sha, w, below[0], '|', context(msg, w))
                sys.stdout.flush()


def measure(repo, patchver, path):
    rows = [line.split(' | ')[0].split() + [line.split(' | ', 1)[1].rstrip('\n')]
            for line in open(path) if line.strip()]
    fixes = sorted({r[0] for r in rows})
    evidence = {}
    for i in range(0, len(fixes), 50):
        out = subprocess.run([patchver, '-C', repo, '--triage', *fixes[i:i + 50],
                              '--evidence', 'message', '--json'],
                             capture_output=True, text=True).stdout
        for res in json.loads(out)['results']:
            named = set()
            for e in res['evidence']:
                if e['kind'] == 'blame':
                    continue
                if e.get('target'):
                    named.add(e['target']['commit'])
                for c in e.get('candidates', []):
                    named.add(c['commit'])
            evidence[res['fix']['commit']] = named
    found = [r for r in rows if r[2] in evidence.get(r[0], ())]
    print(f'{len(found)} of {len(rows)} named commits in the evidence '
          f'({len(fixes)} messages)')
    for r in rows:
        if r not in found:
            print('  not read:', r[0][:12], r[1], '|', r[3])


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == 'list':
        listing(sys.argv[2])
    elif len(sys.argv) >= 4 and sys.argv[1] == 'measure':
        measure(sys.argv[2], sys.argv[3],
                sys.argv[4] if len(sys.argv) > 4 else 'bench/shortids.txt')
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)


if __name__ == '__main__':
    main()
