#!/usr/bin/env python3
"""bench/compat_check.py PATCHVER REPO: does every patch of guest/compat/
apply to every release tag of its sub-era?

The sub-era of each tag vX.Y.Z[-rcN] of the 2.6 history in REPO, and its
patches, are patchver's own answer (one `--verify-boot --dry-run --json`
with a candidate per tag: compat_era, compat_patches; nothing is built),
under a scratch cache.  Each patch is then checked with
`git apply --cached --check` against the tag's tree in a scratch index (the
repository is only read).  git anchors a hunk with no trailing context at
the end of the file, patchver's applier does not (2.6.29's compiler-gcc.h
hunk ends at an #include that has lines after it from 2.6.35-rc4): such a
patch is checked again with -C1 and counted as applying, said as such.
Prints one line per tag that fails and the totals; exit 1 if any fails.
"""
import json, os, re, subprocess, sys, tempfile

GUEST = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'guest')

def eras_of(pv, repo, tags, tmp):
    """{tag: (era, [patch, ...])} as patchver picks them."""
    repro = os.path.join(tmp, 'pass.c')
    with open(repro, 'w') as f:
        f.write('int main(void) { return 0; }\n')
    argv = [pv, '-C', repo, '--verify-boot', '--dry-run', '--json', '--reproducer', repro]
    for t in tags:
        argv += ['--candidate', '%s=%s' % (t, t)]
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, 'cache'))
    out = subprocess.run(argv, env=env, capture_output=True, text=True).stdout
    return {c['name']: (c.get('compat_era') or '', c.get('compat_patches') or [])
            for c in json.loads(out)['verify_boot']['candidates']}

def applies(repo, env, patch, *opts):
    return subprocess.run(['git', '-C', repo, 'apply', '--cached', '--check', *opts, patch],
                          env=env, capture_output=True, text=True)

def main():
    pv, repo = sys.argv[1], sys.argv[2]
    # the tags of commits (v2.6.11 names a tree: no history to build)
    refs = subprocess.run(['git', '-C', repo, 'for-each-ref', 'refs/tags/v2.6.*',
                           '--format=%(refname:short) %(objecttype) %(*objecttype)'],
                          capture_output=True, text=True, check=True).stdout.splitlines()
    tags = [r.split()[0] for r in refs if 'commit' in r.split()[1:]
            and re.fullmatch(r'v2\.6\.\d+(-rc\d+)?', r.split()[0])]
    checked = failed = loose = 0
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, GIT_INDEX_FILE=os.path.join(tmp, 'index'))
        for tag, (era, patches) in sorted(eras_of(pv, repo, tags, tmp).items()):
            if not patches:
                continue
            subprocess.run(['git', '-C', repo, 'read-tree', tag], env=env, check=True)
            for p in patches:
                path = os.path.join(GUEST, 'compat', era, p)
                r = applies(repo, env, path)
                checked += 1
                if r.returncode and applies(repo, env, path, '-C1').returncode == 0:
                    loose += 1
                elif r.returncode:
                    failed += 1
                    print('%-14s %-12s %s: %s' % (tag, era, p, r.stderr.strip().split('\n')[0]))
    print('%d patch applications checked on the tags, %d fail (%d apply only with the end of'
          ' the file unanchored)' % (checked, failed, loose))
    return 1 if failed else 0

if __name__ == '__main__':
    sys.exit(main())
