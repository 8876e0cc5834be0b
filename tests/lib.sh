# Shared helpers for patchver's shell tests.  Each test prints
# "N passed, N failed" last and exits non-zero on any failure.
set -u
passes=0
failures=0
: "${PATCHVER:?PATCHVER must name the patchver binary}"
: "${FIXTURES:?FIXTURES must name the fixture directory}"

# Nothing of the machine's user: the tests run with a stand-in HOME (no
# ~/.gitconfig), so every object a test writes carries this identity, and a
# date where it matters (GIT_*_DATE, set by the test).
export GIT_AUTHOR_NAME="Patchver Test" GIT_AUTHOR_EMAIL="test@patchver.invalid"
export GIT_COMMITTER_NAME="Patchver Test" GIT_COMMITTER_EMAIL="test@patchver.invalid"
export GIT_CONFIG_NOSYSTEM=1

fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
pass() { passes=$((passes + 1)); }

# expect_eq ACTUAL EXPECTED WHAT
expect_eq() {
	if [ "$1" = "$2" ]; then pass; else fail "$3: expected '$2', got '$1'"; fi
}

# expect_contains HAYSTACK NEEDLE WHAT
expect_contains() {
	case "$1" in
	*"$2"*) pass ;;
	*) fail "$3: '$2' not in: $1" ;;
	esac
}

# expect_files_same A B WHAT: identical files, else show the first differences
expect_files_same() {
	if cmp -s "$1" "$2"; then
		pass
	else
		fail "$3 differ:"
		diff "$1" "$2" | head -20 >&2
	fi
}

finish() {
	echo "$passes passed, $failures failed"
	[ "$failures" -eq 0 ]
}

# Sort key of a kernel version tag, written independently of patchver's
# C code: base numbers, stable number, then rc (a final sorts after its rcs).
KVER_AWK='
function kkey(t,   s, a, n, rc, b3, st) {
	s = t; sub(/^v/, "", s)
	rc = 99999
	if (match(s, /-rc[0-9]+$/)) { rc = substr(s, RSTART + 3) + 0; s = substr(s, 1, RSTART - 1) }
	n = split(s, a, ".")
	if (a[1] == 2) { b3 = a[3]; st = (n >= 4 ? a[4] : 0) } else { b3 = 0; st = (n >= 3 ? a[3] : 0) }
	return sprintf("%05d.%05d.%05d.%07d.%05d", a[1], a[2], b3, st, rc)
}'
RELEASE_RE='^v(2\.6\.[1-9][0-9]*(\.[1-9][0-9]*)?|[3-9]\.[0-9]+(\.[1-9][0-9]*)?)(-rc[1-9][0-9]*)?$'

# commit_tags REPO: "tag commit" for every tag that peels to a commit, from
# one git process (a rev-parse per tag cost the cross-checks minutes)
commit_tags() {
	git -C "$1" for-each-ref --format='refs/tags/%(refname:strip=2)^{commit} %(refname:strip=2)' \
		refs/tags |
		git -C "$1" cat-file --batch-check='%(objecttype) %(objectname) %(rest)' 2>/dev/null |
		awk '$1 == "commit" { print $3, $2 }'
}

# release_tags REPO: "key tag" for every release tag that peels to a commit
release_tags() {
	commit_tags "$1" | awk '{ print $1 }' | grep -E "$RELEASE_RE" |
		awk "$KVER_AWK"' { print kkey($1), $1 }'
}

# first_releases REPO RELEASES: "commit tag" for every commit some release
# of RELEASES ("key tag" lines) contains, tag the lowest key among them.
# Written apart from patchver's C: git lists the DAG once, then awk marks,
# release by release in key order, what each reaches that no lower one did
# (what a lower release reached is closed under parents: the walk stops there).
first_releases() {
	local repo=$1 releases=$2
	awk '
	FILENAME == ARGV[1] { par[$1] = substr($0, length($1) + 2); next }
	FILENAME == ARGV[2] { peeled[$1] = $2; next }
	{
		t = $2
		if (!(t in peeled) || (peeled[t] in first))
			next
		n = 0
		stack[++n] = peeled[t]
		first[peeled[t]] = t
		while (n) {
			k = split(par[stack[n--]], p, " ")
			for (i = 1; i <= k; i++)
				if (!(p[i] in first)) {
					first[p[i]] = t
					stack[++n] = p[i]
				}
		}
	}
	END { for (c in first) print c, first[c] }' \
		<(git -C "$repo" rev-list --all --parents) <(commit_tags "$repo") \
		<(sort "$releases") | sort
}

scratch() { mktemp -d "${TMPDIR:-/tmp}/patchver-test.XXXXXX"; }

# new_history: a scratch directory $tmp (gone on exit) holding an empty
# repository $r, made the current directory; commit, tag and line below
# step the dates an hour from $t, so that every id is the same each run.
new_history() {
	tmp=$(scratch)
	trap 'rm -rf "$tmp"' EXIT
	r=$tmp/repo
	git init -q -b master "$r"
	cd "$r" || exit 1
	t=1600000000
}
# commit MESSAGE: every change so far, an hour after the last
commit() { t=$((t + 3600)); GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000" git commit -qam "$1"; }
# tag NAME: an annotated tag of HEAD
tag() { GIT_COMMITTER_DATE="$t +0000" git tag -a -m "$1" "$1"; }
# line FILE N TEXT: line N of FILE becomes TEXT
line() { sed -i "${2}s/.*/$3/" "$1"; }

# copy_source DEST: the checkout's files (tracked, and new ones not ignored)
# into DEST, so that a build from there leaves the checkout untouched
copy_source() {
	local top
	top=$(cd "$TESTS/.." && pwd)
	mkdir -p "$1"
	git -C "$top" ls-files -z --cached --others --exclude-standard |
		(cd "$top" && xargs -0 cp --parents -t "$1" 2>/dev/null)
}

# model_reproducer C|shell DIR: repro_args for the model bug's reproducer of
# that kind (tests/model/); the shell one's helper is built static into DIR
model_reproducer() {
	if [ "$1" = C ]; then
		repro_args=(--reproducer "$TESTS/model/nofollow-model.c")
		return
	fi
	[ -x "$2/open-nofollow" ] || cc -static -O2 -o "$2/open-nofollow" "$TESTS/model/open-nofollow.c"
	repro_args=(--reproducer "$TESTS/model/nofollow-model.sh" --guest-file "$2/open-nofollow")
}

# cve_shape REPO FILE: the CVE records in FILE (patchver --triage --cve-json)
# as the kernel CNA writes them, checked with git: every entry has a repo;
# no "unaffected" entry under an "unaffected" default; every git range's
# version is an ancestor of its lessThan; stable ranges first, mainline (to
# the fix itself) last.  Prints one line per fault, nothing when all hold.
cve_shape() {
	jq -r '.results[] | select(.affected) | .fix.commit as $fix | .rev as $rev |
		(.affected[] | select(.repo == null or .repo == "") | "\($rev): an entry without repo"),
		(.affected[] | select(.defaultStatus == "unaffected") | .versions[]? |
			select(.status == "unaffected") | "\($rev): unaffected \(.version) under an unaffected default"),
		(.affected[0].versions | if (last.lessThan // "") != $fix then "\($rev): mainline not last" else empty end),
		(.affected[0].versions[] | "range \($rev) \(.version) \(.lessThan)")' "$2" |
	while read -r kind rev from to; do
		if [ "$kind" != range ]; then
			echo "$kind $rev $from $to"
		elif ! git -C "$1" merge-base --is-ancestor "$from" "$to"; then
			echo "$rev: git range ${from:0:12}..${to:0:12}: not an ancestor"
		fi
	done
}
