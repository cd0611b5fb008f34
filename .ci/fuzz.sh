#!/usr/bin/env bash
# Runs every fuzz target of the module for a short time (FUZZTIME, 10s by
# default) and fails if any finds a failing input. .ci/run calls it with
# FUZZTIME=3s on one third of the targets (FUZZSHARD, chosen by the
# commit, so that successive commits fuzz every target in turn); run it
# longer, or whole, by hand or on a schedule.
#
#   .ci/fuzz.sh                      # every target, 10 s each
#   FUZZTIME=10m .ci/fuzz.sh         # the longer run, e.g. nightly
#   FUZZSHARD=1/3 .ci/fuzz.sh        # the targets whose place in the list is 1 mod 3
#   go test -run '^$' -fuzz '^FuzzCommitRequest$' -fuzztime 1h ./internal/memory/commit/
#                                    # one target, as long as you like
#
# A failing input is written to <package>/testdata/fuzz/<Target>/; commit it
# with the fix, and plain `go test` replays it from then on. The plain test
# run already executes every target's seed corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZTIME="${FUZZTIME:-10s}"
FUZZSHARD="${FUZZSHARD:-0/1}"
shard=${FUZZSHARD%/*} shards=${FUZZSHARD#*/}
if ! [[ $shard =~ ^[0-9]+$ && $shards =~ ^[1-9][0-9]*$ ]] || ((shard >= shards)); then
	echo "FUZZSHARD must be k/n with 0 <= k < n, not $FUZZSHARD" >&2
	exit 2
fi

# The targets, read from the test files ("<package> <names...>" a line)
# rather than listed by "go test -list", which would build every test
# binary of the module first. third_party holds other modules.
module=$(go list -m)
targets=$(grep -rH --include='*_test.go' -E '^func Fuzz[A-Za-z0-9_]*\(' \
	--exclude-dir=third_party --exclude-dir=.ci --exclude-dir=testdata --exclude-dir=node_modules . |
	sed -E 's|^\./(.*)/[^/]*_test\.go:func (Fuzz[A-Za-z0-9_]*)\(.*|\1 \2|' | sort |
	awk -v m="$module" '$1 != dir { if (line != "") print line; line = m "/" $1; dir = $1 } { line = line " " $2 }
		END { if (line != "") print line }')

# fuzz runs one target. The go command sometimes ends a short run with
# "context deadline exceeded" when the time runs out while a worker is
# still minimising an input; that is not a finding (a finding always says
# "Failing input written to ..."), so such a run is tried once more and
# then only reported.
fuzz() {
	local pkg=$1 name=$2 out
	for attempt in 1 2; do
		if out=$(go test -run '^$' -fuzz "^${name}\$" -fuzztime "$FUZZTIME" "$pkg" 2>&1); then
			echo "$out" | tail -n 3
			return 0
		fi
		echo "$out"
		if grep -q 'Failing input written' <<<"$out" || ! grep -q 'context deadline exceeded' <<<"$out"; then
			return 1
		fi
		echo "-- $name: the run ran out of time while minimising (no failing input); trying again"
	done
	echo "-- $name: ran out of time twice without a failing input; not counted as a failure"
}

failed=()
place=0
while read -r pkg names; do
	[ -n "$pkg" ] || continue
	for name in $names; do
		((place++ % shards == shard)) || continue
		echo "== $pkg $name ($FUZZTIME)"
		if ! fuzz "$pkg" "$name"; then
			failed+=("$pkg $name")
		fi
	done
done <<<"$targets"

if [ ${#failed[@]} -gt 0 ]; then
	printf 'fuzzing failed: %s\n' "${failed[@]}" >&2
	exit 1
fi
echo "all fuzz targets passed"
