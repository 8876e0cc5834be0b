#!/usr/bin/env bash
# Commit ids of 7 hex digits (git's default abbreviation) in a fix's message,
# on a history made here with fixed names and dates (the same ids every run):
#   - "introduced in commit <7>" and "Revert commit <7>" name the culprit, and
#     so do the era's other forms ("Due to this commit: <7>", "Revert part
#     of <7>", "introduced by the following commit: <7>", "Since (<7>: ...)");
#   - "Commit <7> (...) did X.  The offending commit <7> ...": named, not a
#     bare mention; with Cc: stable a bare mention is the culprit only when
#     released before the fix;
#   - the id in a quote with its subject ('commit "<7>: ..." broke it'), as
#     its sentence's subject ("<7> removed ..." in a fix), in a list under
#     the sentence that says what it did, or above "Revert them.";
#   - an id two commits share resolves to the one below the fix; when both
#     or neither are below it, the evidence says so and shows both;
#   - 7 hex letters ("defaced") or 7 digits are words and numbers, not ids,
#     even where a commit's id starts with them.
. "${TESTS:=$(cd "$(dirname "$0")" && pwd)}/lib.sh"
tmp=$(scratch)
trap 'rm -rf "$tmp"' EXIT
repo=$tmp/repo.git
git init -q --bare -b master "$repo"

# A chain of 20,400 commits: among that many, two ids share 7 digits
# (9d396bb, commits 10,663 and 20,393; the test finds them, it does not
# name them).
awk -v N=20400 'BEGIN {
	for (i = 1; i <= N; i++) {
		msg = "step " i
		printf "commit refs/heads/master\nmark :%d\n", i
		printf "committer T <t@patchver.invalid> %d +0000\n", 1262304000 + i * 60
		printf "data %d\n%s\n", length(msg), msg
		if (i == 1)
			printf "M 644 inline a.c\ndata 6\nint a;\n\n"
		else
			printf "from :%d\n\n", i - 1
	}
}' | git -C "$repo" fast-import --quiet
git -C "$repo" rev-list --reverse master > "$tmp/chain"
root=$(head -1 "$tmp/chain")
short=$(cut -c1-7 "$tmp/chain" | sort | uniq -d | head -1)
expect_eq "$(grep -c "^$short" "$tmp/chain")" 2 "two commits of the chain share the id $short"
older=$(grep "^$short" "$tmp/chain" | head -1)
newer=$(grep "^$short" "$tmp/chain" | tail -1)

n=0
# fix BRANCH FROM MESSAGE: a commit changing a.c on BRANCH, whose parent is FROM
fix() {
	n=$((n + 1))
	git -C "$repo" fast-import --quiet <<EOF
commit refs/heads/$1
committer T <t@patchver.invalid> $((1300000000 + n * 60)) +0000
data <<EOM
$3
EOM
from $2
M 644 inline a.c
data <<EOD
int a = $n;
EOD

EOF
	git -C "$repo" rev-parse "refs/heads/$1"
}
git -C "$repo" tag v3.0 "$root"
git -C "$repo" tag v3.1 "$(sed -n 5000p "$tmp/chain")"
git -C "$repo" tag v3.2 "$(sed -n 15000p "$tmp/chain")"

# triage FIX: the message's evidence, as JSON
triage() {
	"$PATCHVER" -C "$repo" --triage "$1" --evidence message --json > "$tmp/out.json" 2> "$tmp/err"
	expect_eq "$?" 0 "triage of $1 exits 0 ($(head -1 "$tmp/err"))"
}
# evidence FIELD: that field of the message's evidence (one line each)
evidence() { jq -r ".results[0].evidence[] | select(.kind != \"blame\") | $1" "$tmp/out.json"; }

# the first commit at or after line N of the chain whose id's first 7 digits
# are letters and digits (want=id), only digits (want=number) or only letters
short_at() {
	awk -v from="$1" -v want="$2" 'NR >= from {
		s = substr($1, 1, 7)
		kind = s ~ /^[0-9]+$/ ? "number" : s ~ /^[a-f]+$/ ? "word" : "id"
		if (kind == want) { print $1; exit }
	}' "$tmp/chain"
}

# a unique 7-digit culprit, in the prose
culprit=$(short_at 4000 id)
f=$(fix plain master "a: fix the value

This is a regression introduced in commit ${culprit:0:7}.")
triage "$f"
expect_eq "$(evidence '.kind + " " + .phrase + " " + .target.commit')" \
	"named introduced in $culprit" "introduced in commit <7>: the culprit"
expect_eq "$(jq -r '.results[0].introducers[].commit.commit' "$tmp/out.json")" "$culprit" \
	"introduced in commit <7>: the verdict's introducer"

# Revert commit <7>
reverted=$(short_at 6000 id)
f=$(fix revert master "Revert commit ${reverted:0:7}

It broke the value.")
triage "$f"
expect_eq "$(evidence '.phrase + " " + .target.commit')" "revert $reverted" "Revert commit <7>"

# the forms of the 2.6 era: "due to this commit: X", "Revert part of X",
# "introduced by the following commit: X", "Since (X: subject)"
for form in "Due to this commit: %s the value is wrong." "kbuild: Revert part of %s" \
	"This is a bug introduced by the following commit: %s" "Since (%s: a subject) it is wrong."; do
	named=$(short_at $((7500 + ${#form} * 10)) id)
	f=$(fix "form${#form}" master "a: the value

$(printf "$form" "${named:0:7}")")
	triage "$f"
	expect_eq "$(evidence '.kind + " " + .target.commit')" "named $named" "$(printf "$form" "<7>")"
done

# the shapes a sentence gives the id, each with the phrase the evidence
# keeps: in a quote with its subject, as the sentence's subject, in a list
# under its sentence or above "Revert them." (the messages of 8916edef5888,
# c2d1a2a11b9b, d5ccd67bb77c, 979f693def90, e4e4e534faa3, fc631c82e173,
# b1083333de53, 67a52bb90b51, 65a467f55306, 0afd2ac9a567 in the kernel)
# shape FROM SUBJECT BODY PHRASE: @A@ and @B@ in the message are ids of the
# chain from line FROM on; each is named with PHRASE ("-": neither is)
k=0
shape() {
	local a b msg want got
	k=$((k + 1))
	a=$(short_at "$1" id)
	b=$(short_at $(($1 + 40)) id)
	msg=$(printf '%s\n\n%s' "$2" "$3" | sed "s/@A@/${a:0:7}/g; s/@B@/${b:0:7}/g")
	f=$(fix "shape$k" master "$msg")
	triage "$f"
	got=$(evidence 'select(.kind == "named") | .phrase + " " + .target.commit' | sort | tr '\n' ' ')
	if [ "$4" = - ]; then
		want=""
	else
		want="$4 $a "
		case "$3" in *@B@*) want=$(printf '%s\n' "$4 $a" "$4 $b" | sort | tr '\n' ' ');; esac
	fi
	expect_eq "$got" "$want" "$(printf '%s' "$3" | head -1 | cut -c1-60)"
}
shape 8000 "a: task stats fix" 'But commit "@A@: step 1 of it" broke it.' broke
shape 8100 "a: fix the jam" '@A@ "step 8100" removed handling for thaw, since it was thought not needed.' removed
shape 8200 "a: fix the flags" 'The flags come from the resource.  However, @A@ changed this to
checking for non-zero flags.' changed
shape 8300 "a: tidy the value" '@A@ added a helper.  Use it here too.' -
shape 8400 "a: per context locking" "That is not possible due to the locking this commit
introduced more than a year ago:

  @A@: step of it

As a first step push the lock down." introduced
shape 8500 "a: revert the clock changes" "So revert:

 # @A@: one step
 # @B@: another step

This solves the problems." revert
shape 8600 "a: revert the sync changes" "Intel reported a 10% regression with these patches:

  @A@: one step
  @B@: another step

Revert them." revert
shape 8700 "a: redo the clock" "which had to be reverted due to s2ram hangs:

  @A@: Revert \"one step\"" -
shape 8800 "a: fix the bus" 'Cards stopped working after @A@, and would report garbage.' after
shape 8900 "a: fix build-breaking @A@ commit" 'It does not link.' breaking
shape 9000 "a: silence warnings" 'These warnings originate from @A@ (a subject) which dropped them.' "originate from"
shape 9100 "a: the ignore file" 'This should have been part of @A@ (step 9100, 2010-01-01).' "should have been part of"
expect_eq "$(evidence .subject_mismatch)" false "a subject as --pretty=reference writes it, date and all"

# a mention first, the culprit's word later
mentioned=$(short_at 7000 id)
f=$(fix mention master "a: the value again

Commit ${mentioned:0:7} (step 7000) moved the value around.  The
offending commit ${mentioned:0:7} was released with v3.1.")
triage "$f"
expect_eq "$(evidence '.kind + " " + .phrase + " " + .target.commit')" \
	"named offending $mentioned" "a mention made named by a later phrase"

# with Cc: stable a bare mention is a culprit only if released before the
# fix: "Commit <7> ... has been confirmed to fix" names a help (eae0c9dfb534)
helper=$(short_at 17000 id)
f=$(fix ccmention master "a: the value

Commit ${helper:0:7} has been confirmed to fix the slowdown.

Cc: stable@kernel.org")
triage "$f"
expect_eq "$(evidence '.kind + " " + .target.commit')" "mention $helper" "Cc: stable, an unreleased mention: read"
expect_eq "$(jq -r '.results[0].introducers | length' "$tmp/out.json")" 0 \
	"Cc: stable, an unreleased mention: not the culprit"
released=$(short_at 4100 id)
f=$(fix ccreleased master "a: the value

Commit ${released:0:7} changed the value.

Cc: stable@kernel.org")
triage "$f"
expect_eq "$(jq -r '.results[0].introducers[].commit.commit' "$tmp/out.json")" "$released" \
	"Cc: stable, a released mention: the culprit"

# the shared id: both below the fix
f=$(fix both master "a: fix the value

Broken by commit $short.")
triage "$f"
expect_eq "$(evidence '.target')" null "two candidates below the fix: none chosen"
expect_eq "$(evidence .unresolved)" "ambiguous: more than one commit below the fix" \
	"two candidates below the fix: said"
expect_eq "$(evidence '.candidates[].commit' | sort | tr '\n' ' ')" \
	"$(printf '%s\n' "$older" "$newer" | sort | tr '\n' ' ')" "two candidates below the fix: both shown"
"$PATCHVER" -C "$repo" --triage "$f" --evidence message > "$tmp/out.txt" 2>&1
expect_eq "$(grep -c "could be    ${older:0:12}\|could be    ${newer:0:12}" "$tmp/out.txt")" 2 \
	"two candidates below the fix: both in the text"
expect_contains "$(cat "$tmp/out.txt")" "$short (not resolved: ambiguous: more than one commit below the fix)" \
	"two candidates below the fix: the text says why"

# the shared id: one below the fix (a branch from the older one)
f=$(fix one "$older" "a: fix the value

Broken by commit $short.")
triage "$f"
expect_eq "$(evidence '.target.commit')" "$older" "one candidate below the fix: that one"

# the shared id: none below the fix
f=$(fix none "$root" "a: fix the value

Broken by commit $short.")
triage "$f"
expect_eq "$(evidence .unresolved)" "ambiguous: no commit below the fix" "no candidate below the fix: said"
expect_eq "$(evidence '.candidates | length')" 2 "no candidate below the fix: both shown"

# 7 digits, and 7 hex letters, are not ids even where a commit starts so
number=$(short_at 1 number)
word=$(short_at 1 word)
expect_eq "$([ -n "$number" ] && [ -n "$word" ] && echo found)" found "the chain has a number-like and a word-like id"
f=$(fix words master "a: the value

Broken since ${number:0:7} runs, caused by ${word:0:7} words.")
triage "$f"
expect_eq "$(evidence .ref)" "" "7 digits and 7 hex letters name nothing"
finish
