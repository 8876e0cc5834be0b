# bash completion for patchver (installed as
# share/bash-completion/completions/patchver): modes and options, the values
# of options that take a fixed set, --series from the repository's release
# tags, and revs (tags and branches) of -C's repository.

# the repository -C names on the command line so far, else the current one
_patchver_repo()
{
	local i
	for ((i = 1; i < COMP_CWORD; i++)); do
		if [[ ${COMP_WORDS[i]} == -C ]]; then
			printf '%s' "${COMP_WORDS[i + 1]}"
			return
		fi
	done
	printf '.'
}

# stable series X.Y (2.6.X.Y: 2.6.X) of the repository's release tags
_patchver_series()
{
	git -C "$1" tag -l 'v[0-9]*' 2>/dev/null | sed -n \
		-e 's/^v\(2\.6\.[0-9]*\)\(\.[0-9]*\)\{0,1\}$/\1/p' \
		-e 's/^v\([3-9]\.[0-9]*\)\(\.[0-9]*\)\{0,1\}$/\1/p' \
		-e 's/^v\([1-9][0-9]\.[0-9]*\)\(\.[0-9]*\)\{0,1\}$/\1/p' | sort -u -V
}

_patchver()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local repo opts
	repo=$(_patchver_repo)
	COMPREPLY=()
	case $prev in
	-C | --kernel-tree | --patch-series)
		COMPREPLY=($(compgen -d -- "$cur"))
		return
		;;
	--patch)
		COMPREPLY=($(compgen -f -- "$cur"))
		return
		;;
	--evidence)
		COMPREPLY=($(compgen -W "message blame text all" -- "$cur"))
		return
		;;
	--only)
		COMPREPLY=($(compgen -W "missing possible present unneeded all" -- "$cur"))
		return
		;;
	--accel)
		COMPREPLY=($(compgen -W "kvm tcg" -- "$cur"))
		return
		;;
	--series)
		COMPREPLY=($(compgen -W "$(_patchver_series "$repo")" -- "${cur##*,}"))
		return
		;;
	--bug)
		COMPREPLY=($(compgen -W "exit oops hang boot regex:" -- "$cur"))
		return
		;;
	--releases)
		COMPREPLY=($(compgen -W "all" -- "$cur"))
		return
		;;
	--affected-from)
		COMPREPLY=($(compgen -W "text boot" -- "$cur"))
		return
		;;
	--reproducer | --guest-file)
		COMPREPLY=($(compgen -f -- "$cur"))
		return
		;;
	--config)
		COMPREPLY=($(compgen -W "repro" -f -- "$cur"))
		return
		;;
	--match | --candidate | --expect | --test | --repeat | --boot-timeout | --repro-timeout | --cve-repo | --introducer | \
	--max-states)
		return
		;;
	esac
	if [[ $cur == -* ]]; then
		opts="-C --json --version --help --describe --name-rev --tags-containing
			--first-release --match --stdin --index --no-index --triage --evidence --patch --range
			--backport --onto
			--patch-id --verify-boot --candidate --expect --bug --patch-series --max-states
			--releases --dry-run --measure --affected-from
			--bisect-boot --good --bad --fix --test --commits --repeat --resume
			--audit --series --only --kernel-tree --accel --boot-timeout --keep
			--prepare-tree --cache-clean --jobs --cve-json --cve-repo --dyad --cve-record --cve-id --cna-org-id --introducer --reproducer --guest-file
			--repro-timeout --config --strict-config"
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
		return
	fi
	# revs: tags and branches of the repository (A..B for --range/--audit too)
	COMPREPLY=($(compgen -W "$(git -C "$repo" for-each-ref --format='%(refname:short)' \
		refs/tags refs/heads 2>/dev/null)" -- "$cur"))
}
complete -F _patchver patchver
