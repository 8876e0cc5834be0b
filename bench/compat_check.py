#!/usr/bin/env python3
"""bench/compat_check.py REPO [GUEST]: does every patch of guest/compat/
apply to every release tag of its sub-era?

For each tag vX.Y.Z[-rcN] of the 2.6 history in REPO, the sub-era is picked
as patchver picks it (the newest guest/compat/ directory not after the
version, a directory named for a release starting with its rc1) and each of
its patches is checked with `git apply --cached --check` against the tag's
tree in a scratch index (the repository is only read).  git anchors a hunk
with no trailing context at the end of the file, patchver's applier does
not (2.6.29's compiler-gcc.h hunk ends at an #include that has lines after
it from 2.6.35-rc4): such a patch is checked again with -C1 and counted
as applying, said as such.  Prints one line per tag that fails and the
totals; exit 1 if any fails.
"""
import os, re, subprocess, sys, tempfile

def kver(name):
    m = re.fullmatch(r'v?(\d+)\.(\d+)\.(\d+)(?:-rc(\d+))?', name)
    if not m:
        return None
    a, b, c, rc = m.groups()
    # an rc sorts before its release: the release is rc "infinity"
    return (int(a), int(b), int(c), int(rc) if rc else 1 << 30)

def era_start(name):
    v = kver(name)
    # "2.6.24" starts with the merge window: its rc1
    return v if v is None or '-rc' in name else v[:3] + (1,)

def main():
    repo = sys.argv[1]
    guest = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), '..', 'guest')
    eras = sorted((era_start(e), e) for e in os.listdir(os.path.join(guest, 'compat'))
                  if era_start(e))
    tags = subprocess.run(['git', '-C', repo, 'tag', '-l', 'v2.6.*'], capture_output=True,
                          text=True, check=True).stdout.split()
    checked = failed = loose = 0
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, GIT_INDEX_FILE=os.path.join(tmp, 'index'))
        for tag in sorted((t for t in tags if kver(t)), key=kver):
            v = kver(tag)
            mine = [e for start, e in eras if start[:2] == v[:2] and start <= v]
            if not mine:
                continue
            era = mine[-1]
            patches = sorted(p for p in os.listdir(os.path.join(guest, 'compat', era))
                             if p.endswith('.patch'))
            subprocess.run(['git', '-C', repo, 'read-tree', tag], env=env, check=True)
            for p in patches:
                r = subprocess.run(['git', '-C', repo, 'apply', '--cached', '--check',
                                    os.path.join(guest, 'compat', era, p)],
                                   env=env, capture_output=True, text=True)
                checked += 1
                if r.returncode and subprocess.run(
                        ['git', '-C', repo, 'apply', '--cached', '--check', '-C1',
                         os.path.join(guest, 'compat', era, p)], env=env,
                        capture_output=True).returncode == 0:
                    loose += 1
                elif r.returncode:
                    failed += 1
                    print('%-14s %-12s %s: %s' % (tag, era, p, r.stderr.strip().split('\n')[0]))
    print('%d patch applications checked on the tags, %d fail (%d apply only with the end of'
          ' the file unanchored)' % (checked, failed, loose))
    return 1 if failed else 0

if __name__ == '__main__':
    sys.exit(main())
