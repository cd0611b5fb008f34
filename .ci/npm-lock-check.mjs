// Compares npm lock files by what they install on this platform (linux-x64,
// glibc), ignoring entries that npm would skip here: optional packages for
// other operating systems, CPUs or C libraries, and whatever only they
// depend on. Used by .ci/conformance.sh (docs/conformance.md, "Pins"):
//
//   node npm-lock-check.mjs drift PINNED RECONCILED
//       PINNED is the committed lock, RECONCILED the same lock after
//       "npm install --package-lock-only" against today's registry. Exits 1,
//       naming each package, when they would install different packages
//       here; a difference only in other platforms' packages is reported and
//       accepted.
//   node npm-lock-check.mjs installed LOCK HIDDEN_LOCK
//       HIDDEN_LOCK is node_modules/.package-lock.json after "npm ci": exits
//       1 unless exactly the packages LOCK installs here are installed.
import { readFileSync } from "node:fs";

const platform = { os: "linux", cpu: "x64", libc: "glibc" };
const refresh =
	"To update the pins on purpose, follow docs/conformance.md (\"Refreshing the pins\"): " +
	"cd .ci/conformance && npm install --package-lock-only --ignore-scripts, review the diff, commit it.";

function readLock(path) {
	const lock = JSON.parse(readFileSync(path, "utf8"));
	if (!lock.packages || typeof lock.packages !== "object") {
		throw new Error(`${path}: not a lockfileVersion 2/3 lock (no "packages")`);
	}
	return lock.packages;
}

// allowed applies npm's rule for an os/cpu/libc list: "!x" excludes x; a
// list with positive entries admits only those.
function allowed(list, value) {
	if (!Array.isArray(list) || list.length === 0) return true;
	if (list.includes(`!${value}`)) return false;
	const positive = list.filter((v) => !v.startsWith("!"));
	return positive.length === 0 || positive.includes(value);
}

function runsHere(entry) {
	return allowed(entry.os, platform.os) && allowed(entry.cpu, platform.cpu) && allowed(entry.libc, platform.libc);
}

// resolve finds the lock entry a dependency of the package at path "from"
// resolves to, the way Node looks up node_modules folders.
function resolve(packages, from, name) {
	for (let dir = from; ; ) {
		const key = dir === "" ? `node_modules/${name}` : `${dir}/node_modules/${name}`;
		if (packages[key]) return key;
		if (dir === "") return null;
		const i = dir.lastIndexOf("/node_modules/");
		dir = i < 0 ? "" : dir.slice(0, i);
	}
}

function edges(entry, isRoot) {
	const out = [];
	const add = (deps, optional) => {
		for (const name of Object.keys(deps || {})) out.push({ name, optional });
	};
	add(entry.dependencies, false);
	add(entry.optionalDependencies, true);
	if (isRoot) add(entry.devDependencies, false);
	const meta = entry.peerDependenciesMeta || {};
	for (const name of Object.keys(entry.peerDependencies || {})) {
		out.push({ name, optional: true, peer: !(meta[name] && meta[name].optional) });
	}
	return out;
}

// installedHere returns the lock entries npm installs on this platform,
// keyed by path, each as "name@version integrity".
function installedHere(packages) {
	const seen = new Map();
	const missing = [];
	const queue = [""];
	while (queue.length > 0) {
		const from = queue.shift();
		for (const edge of edges(packages[from], from === "")) {
			const key = resolve(packages, from, edge.name);
			if (key === null) {
				if (!edge.optional) missing.push(`${edge.name} (needed by ${from || "the root"})`);
				continue;
			}
			if (seen.has(key) || !runsHere(packages[key])) continue;
			// Optional peers are installed only when something else needs them.
			if (edge.optional && !edge.peer && packages[key].peer) continue;
			const e = packages[key];
			seen.set(key, `${e.name || key.slice(key.lastIndexOf("node_modules/") + 13)}@${e.version} ${e.integrity || ""}`.trim());
			queue.push(key);
		}
	}
	return { seen, missing };
}

function compare(a, b) {
	const lines = [];
	for (const [key, v] of a) {
		if (!b.has(key)) lines.push(`  removed  ${key}: ${v}`);
		else if (b.get(key) !== v) lines.push(`  changed  ${key}: ${v} -> ${b.get(key)}`);
	}
	for (const [key, v] of b) if (!a.has(key)) lines.push(`  added    ${key}: ${v}`);
	return lines;
}

function otherPlatformOnly(a, b) {
	const keys = (p) => new Set(Object.keys(p).filter((k) => k !== ""));
	const ka = keys(a), kb = keys(b);
	return [...kb].filter((k) => !ka.has(k)).map((k) => `  appeared ${k}`)
		.concat([...ka].filter((k) => !kb.has(k)).map((k) => `  vanished ${k}`));
}

const [mode, first, second] = process.argv.slice(2);
if (!["drift", "installed"].includes(mode) || !first || !second) {
	console.error("usage: npm-lock-check.mjs drift PINNED RECONCILED | installed LOCK HIDDEN_LOCK");
	process.exit(2);
}
const pinned = readLock(first);
const want = installedHere(pinned);
if (want.missing.length > 0) {
	console.error(`${first}: required packages have no lock entry:\n  ${want.missing.join("\n  ")}\n${refresh}`);
	process.exit(1);
}
if (mode === "drift") {
	const reconciled = readLock(second);
	const got = installedHere(reconciled);
	const diff = compare(want.seen, got.seen);
	if (diff.length > 0 || got.missing.length > 0) {
		console.error("the registry no longer serves the pinned linux-x64 packages as locked:");
		console.error(diff.concat(got.missing.map((m) => `  missing  ${m}`)).join("\n"));
		console.error(refresh);
		process.exit(1);
	}
	const other = otherPlatformOnly(pinned, reconciled);
	if (other.length > 0) {
		console.log("registry drift in packages that are not installed on linux-x64 (accepted):");
		console.log(other.join("\n"));
	}
	console.log(`pins hold: ${want.seen.size} packages install on linux-x64 exactly as locked`);
} else {
	const hidden = readLock(second);
	const got = new Map();
	for (const [key, e] of Object.entries(hidden)) {
		if (key === "" || !key.includes("node_modules/")) continue;
		got.set(key, `${e.name || key.slice(key.lastIndexOf("node_modules/") + 13)}@${e.version} ${e.integrity || ""}`.trim());
	}
	const diff = compare(want.seen, got);
	if (diff.length > 0) {
		console.error("npm ci installed a different tree than the lock pins for linux-x64:");
		console.error(diff.join("\n"));
		console.error(refresh);
		process.exit(1);
	}
	console.log(`installed tree matches the pins: ${got.size} packages`);
}
