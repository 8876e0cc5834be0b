#!/usr/bin/env bash
# make-model-kernel.sh PATCHVER DEST [crash]: a model kernel git repository for the
# boot tests.  It is a bare clone of patchver's import of Debian's
# linux-source (sharing its objects, so it costs nothing to make and
# shares the cache's work and object directories: no second full kernel
# build), with a release history on top:
#
#   v6.1        the import
#   v6.2-rc1    doc change               v6.2-rc2  doc change
#   namei: regression model (guest/kernel/0001)
#   init: broken build, then its revert  (a bisection must skip it)
#   v6.2-rc3    v6.2-rc4  v6.2  v6.3-rc1 (doc changes between them)
#   vfs: the fix (guest/kernel/0002)
#   v6.3-rc2    v6.3
#
# With "crash", a history whose bug shows as a kernel warning on the console
# (tests/model/), not as an errno:
#
#   v6.1        the import
#   v6.2-rc1    doc change
#   prctl: a model option (0001: prctl(0x70760001) returns 1)
#   v6.2-rc2    doc change
#   prctl: the model crash (0002: returns 2, WARN_ON for the argument 42)
#   v6.2-rc3    v6.2 (doc changes)
#
# With "arbiter", a history where text and boots disagree (the lab as
# arbiter, tests/model/0003-0006), the bug a console warning:
#
#   v6.1        the import
#   v6.2-rc1    doc change
#   prctl: the model request (0003: the flaw, a warning for the argument
#               42, written where nothing reaches it yet)
#   v6.2-rc2    doc change, doc change
#   prctl: wire up the model request (0004: the flaw now reachable)
#   v6.2-rc3    doc change
#   prctl: a line the helper carries as context (0013)
#   prctl: a helper for the model request (0005: on v6.2-rc3 and before
#               it goes in only with fuzz 1, as the lab must apply it)
#   v6.2-rc4    v6.2 (doc changes)
#   prctl: reject the model request's magic argument (0006: Fixes: the
#               first, and calls 0005's helper)
#   v6.3-rc1
#   prctl: a call nothing defines (0007), prctl: model step 1 … 4
#   (0008-0011), prctl: four steps (0012): fixes whose build prerequisites
#   cannot be completed (nothing defines the call; one helper too many)
#
# With "unbuilt", a history whose flaw and fix are in kernel/acct.c, which
# the lab's configuration does not compile (CONFIG_BSD_PROCESS_ACCT):
#
#   v6.1        the import
#   v6.2-rc1    doc change
#   acct: the model flaw (0014)
#   v6.2-rc2    doc change
#   acct: undo the model flaw (0015: Fixes: the flaw)
#   v6.2-rc3    doc change
#
# Commits and tags have fixed dates, so the repository is the same on
# every machine.
set -euo pipefail
patchver=$1 dest=$2 variant=${3:-nofollow}
guest=$(cd "$(dirname "$0")/../guest" && pwd)
src=$("$patchver" --prepare-tree 2>/dev/null | sed -n 's/^repository: *//p')
[ -n "$src" ] || { echo "make-model-kernel: patchver --prepare-tree failed" >&2; exit 1; }
rm -rf "$dest"
git clone -q --bare --shared "$src" "$dest"
export GIT_DIR=$dest GIT_INDEX_FILE=$dest/model-index
export GIT_AUTHOR_NAME="Model Maintainer" GIT_AUTHOR_EMAIL="model@example.org"
export GIT_COMMITTER_NAME="Model Maintainer" GIT_COMMITTER_EMAIL="model@example.org"
when=1700000000
head=$(git rev-parse HEAD)

# commit SUBJECT [PATCH]: a commit on $head; a doc change without a patch
commit() {
	local subject=$1 patch=${2:-} tree
	when=$((when + 86400))
	export GIT_AUTHOR_DATE="$when +0000" GIT_COMMITTER_DATE="$when +0000"
	git read-tree "$head"
	if [ -n "$patch" ]; then
		git apply --cached "$patch"
	else
		local blob
		blob=$(printf 'Model history step %s\n' "$subject" | git hash-object -w --stdin)
		git update-index --add --cacheinfo 100644 "$blob" Documentation/patchver-model.txt
	fi
	tree=$(git write-tree)
	head=$(git commit-tree "$tree" -p "$head" -m "$subject" -m "${3:-Model history for the boot tests of patchver.}")
}

tag() {
	export GIT_COMMITTER_DATE="$when +0000"
	git tag -a -m "Linux ${1#v} (model)" "$1" "$head"
}

# master at the history's head; the index file gone
finish_history() {
	git update-ref refs/heads/master "$head"
	git symbolic-ref HEAD refs/heads/master
	rm -f "$GIT_INDEX_FILE"
	exit 0
}

broken=$(mktemp)
trap 'rm -f "$broken"' EXIT
cat > "$broken" <<'PATCH'
diff --git a/init/version.c b/init/version.c
--- a/init/version.c
+++ b/init/version.c
@@ -1,3 +1,4 @@
+#error "patchver model history: this commit does not build"
 // SPDX-License-Identifier: GPL-2.0-only
 /*
  *  linux/init/version.c
PATCH

git tag -a -m "Linux 6.1 (model base: Debian linux-source)" v6.1 "$head"
if [ "$variant" = crash ]; then
	model=$(cd "$(dirname "$0")/model" && pwd)
	commit "docs: model step 1";                     tag v6.2-rc1
	commit "prctl: a model option" "$model/0001-prctl-a-model-option.patch"
	commit "docs: model step 2";                     tag v6.2-rc2
	commit "prctl: the model crash" "$model/0002-prctl-the-model-crash.patch"
	commit "docs: model step 3";                     tag v6.2-rc3
	commit "docs: model step 4";                     tag v6.2
	finish_history
fi
if [ "$variant" = unbuilt ]; then
	model=$(cd "$(dirname "$0")/model" && pwd)
	commit "docs: model step 1";                     tag v6.2-rc1
	commit "acct: the model flaw" "$model/0014-acct-the-model-flaw.patch"
	flaw=$(git rev-parse --short=12 "$head")
	commit "docs: model step 2";                     tag v6.2-rc2
	commit "acct: undo the model flaw" "$model/0015-acct-undo-the-model-flaw.patch" \
		"$(printf 'acct(NULL) turns accounting off again.\n\nFixes: %s ("acct: the model flaw")' "$flaw")"
	commit "docs: model step 3";                     tag v6.2-rc3
	finish_history
fi
if [ "$variant" = arbiter ]; then
	model=$(cd "$(dirname "$0")/model" && pwd)
	commit "docs: model step 1";                     tag v6.2-rc1
	commit "prctl: the model request" "$model/0003-prctl-the-model-request.patch"
	request=$(git rev-parse --short=12 "$head")
	commit "docs: model step 2";                     tag v6.2-rc2
	commit "docs: model step 3"
	commit "prctl: wire up the model request" "$model/0004-prctl-wire-up-the-model-request.patch"
	commit "docs: model step 4";                     tag v6.2-rc3
	commit "prctl: a line the helper carries as context" \
		"$model/0013-prctl-a-line-the-helper-carries-as-context.patch"
	commit "prctl: a helper for the model request" \
		"$model/0005-prctl-a-helper-for-the-model-request.patch"
	commit "docs: model step 5";                     tag v6.2-rc4
	commit "docs: model step 6";                     tag v6.2
	commit "prctl: reject the model request's magic argument" \
		"$model/0006-prctl-reject-the-model-request-s-magic-argument.patch" \
		"$(printf 'The model request warns for the argument 42: reject it.\n\nFixes: %s ("prctl: the model request")' "$request")"
	commit "docs: model step 7";                     tag v6.3-rc1
	# bad input for the build prerequisites: fixes (Fixes: the request)
	# whose backport cannot be completed: a call nothing defines (0007), and
	# four helpers from four commits, one more than the 3 rounds (0008-0012)
	fixes=$(printf 'Fixes: %s ("prctl: the model request")' "$request")
	commit "prctl: a call nothing defines" "$model/0007-prctl-a-call-nothing-defines.patch" "$fixes"
	for k in 1 2 3 4; do
		commit "prctl: model step $k" "$(echo "$model"/00*-prctl-model-step-$k.patch)"
	done
	commit "prctl: four steps" "$model/0012-prctl-four-steps.patch" "$fixes"
	finish_history
fi
commit "docs: model step 1";                     tag v6.2-rc1
commit "docs: model step 2";                     tag v6.2-rc2
commit "namei: model the 2.6.34-rc O_NOFOLLOW trailing slash regression" \
	"$guest/kernel/0001-namei-model-the-2.6.34-rc-O_NOFOLLOW-trailing-slash-regression.patch"
commit "init: a commit that breaks the build" "$broken"
git read-tree "$head"; git apply --cached -R "$broken"
when=$((when + 86400)); export GIT_AUTHOR_DATE="$when +0000" GIT_COMMITTER_DATE="$when +0000"
head=$(git commit-tree "$(git write-tree)" -p "$head" -m "Revert: init: a commit that breaks the build")
tag v6.2-rc3
commit "docs: model step 3";                     tag v6.2-rc4
commit "docs: model step 4";                     tag v6.2
commit "docs: model step 5";                     tag v6.3-rc1
fix=$guest/kernel/0002-vfs-Fix-O_NOFOLLOW-behavior-for-paths-with-trailing-slashes.patch
commit "vfs: Fix O_NOFOLLOW behavior for paths with trailing slashes" "$fix" \
	"$(sed -n '/^According/,/^Signed-off-by: patchver/p' "$fix")"
tag v6.3-rc2
commit "docs: model step 6";                     tag v6.3
finish_history
