#!/usr/bin/env python3
"""The stable team's own prerequisites, rebuilt from a history with stable tags
(issue 45's ground truth):

  bench/prereqs.py REPO SERIES[,SERIES...] > bench/prereqs.txt

For each stable commit B of a batch v(K-1)..vK that names its upstream U
("commit U upstream.", "[ Upstream commit U ]", "(cherry picked from commit
U)"), U's diff is checked with `git apply --cached --check` on B^'s tree and
on v(K-1)'s.  Where it applies to B^ but not to v(K-1), the team took other
commits of the batch first: starting from every earlier commit of the batch
that touches one of U's files (applied in order to v(K-1), they give B^'s
version of those files), each is left out in turn, newest first, when the
rest still apply in order and U then applies.  What is left is a minimal
set (no member can go), and the answer is its commits, each with the
upstream it names (or "stable-only").

Nothing is written to REPO: every apply works on an index file in a
temporary directory, and the blobs `git apply --cached` writes go to a
temporary object directory with REPO's objects as its alternate.

Output: one line per case, tab-separated:
  batch  B  U  prerequisites (B ids, comma-separated, oldest first)  their upstreams
and a last line counting cases and distinct fixes.
"""
import os
import re
import subprocess
import sys
import tempfile

UPSTREAM = [re.compile(r"^commit ([0-9a-f]{40}) upstream\.?", re.M),
            re.compile(r"\[\s*[Uu]pstream commit ([0-9a-f]{40})\s*\]"),
            re.compile(r"\(cherry picked from commit ([0-9a-f]{40})\)")]


class Repo:
    def __init__(self, path, scratch):
        self.path = path
        gitdir = subprocess.run(["git", "-C", path, "rev-parse", "--absolute-git-dir"],
                                capture_output=True, text=True, check=True).stdout.strip()
        self.objects = os.path.join(gitdir, "objects")
        self.scratch = scratch
        os.makedirs(os.path.join(scratch, "objects"), exist_ok=True)
        self.diffs = {}
        self.files = {}

    def git(self, *args, index=None, input=None, check=True):
        env = dict(os.environ)
        env["GIT_OBJECT_DIRECTORY"] = os.path.join(self.scratch, "objects")
        env["GIT_ALTERNATE_OBJECT_DIRECTORIES"] = self.objects
        if index:
            env["GIT_INDEX_FILE"] = index
        r = subprocess.run(["git", "-C", self.path] + list(args), env=env, input=input,
                           capture_output=True)
        if check and r.returncode:
            raise RuntimeError(f"git {' '.join(args)}: {r.stderr.decode(errors='replace')}")
        return r

    def out(self, *args):
        return self.git(*args).stdout.decode(errors="replace")

    def diff(self, c):
        if c not in self.diffs:
            self.diffs[c] = self.git("diff-tree", "-p", "--binary", "--full-index", c + "^",
                                     c).stdout
        return self.diffs[c]

    def touched(self, c):
        if c not in self.files:
            self.files[c] = set(self.out("diff-tree", "--no-commit-id", "--name-only", "-r",
                                         c + "^", c).split())
        return self.files[c]

    def applies(self, base, series, target):
        """Do the diffs of series apply to base's tree in order, and target's after them?"""
        index = os.path.join(self.scratch, "index")
        self.git("read-tree", base, index=index)
        for c in series:
            if self.git("apply", "--cached", index=index, input=self.diff(c),
                        check=False).returncode:
                return False
        return self.git("apply", "--cached", "--check", index=index, input=self.diff(target),
                        check=False).returncode == 0


def upstream_of(message):
    for r in UPSTREAM:
        m = r.search(message)
        if m:
            return m.group(1)
    return None


def batches(repo, series):
    tags = [t for t in repo.out("tag", "-l", f"v{series}.*").split()
            if re.fullmatch(rf"v{re.escape(series)}\.\d+", t)]
    tags.sort(key=lambda t: int(t.rsplit(".", 1)[1]))
    prev = f"v{series}"
    for t in tags:
        yield prev, t
        prev = t


def minimal(repo, prev, earlier, u):
    """The 1-minimal subset of earlier (in order) that makes u apply to prev."""
    files = repo.touched(u)
    keep = [c for c in earlier if repo.touched(c) & files]
    if not repo.applies(prev, keep, u):
        return None
    for c in reversed(list(keep)):
        trial = [k for k in keep if k != c]
        if repo.applies(prev, trial, u):
            keep = trial
    return keep


def main():
    repo_path, series_list = sys.argv[1], sys.argv[2].split(",")
    cases, fixes = 0, set()
    with tempfile.TemporaryDirectory(prefix="prereqs.") as scratch:
        repo = Repo(repo_path, scratch)
        for series in series_list:
            for prev, tag in batches(repo, series):
                commits = repo.out("rev-list", "--reverse", "--no-merges",
                                   f"{prev}..{tag}").split()
                for i, b in enumerate(commits):
                    u = upstream_of(repo.out("log", "-1", "--format=%B", b))
                    if not u or repo.git("cat-file", "-e", u + "^{commit}",
                                         check=False).returncode:
                        continue
                    if repo.applies(prev, [], u) or not repo.applies(b + "^", [], u):
                        continue
                    took = minimal(repo, prev, commits[:i], u)
                    ups = [upstream_of(repo.out("log", "-1", "--format=%B", c)) or "stable-only"
                           for c in (took or [])]
                    print("\t".join([f"{prev}..{tag}", b[:12], u[:12],
                                     ",".join(c[:12] for c in took) if took else "(none found)",
                                     ",".join(x[:12] for x in ups)]), flush=True)
                    cases += 1
                    fixes.add(u)
    print(f"# {cases} cases, {len(fixes)} distinct fixes")


if __name__ == "__main__":
    main()
