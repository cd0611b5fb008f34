// Strict verdict on one run of the MCP conformance suite, read from the
// checks.json files it wrote (the suite's own exit code is checked too, by
// .ci/conformance.sh). Every scenario the requirement set scores must have
// run, and:
//   - without a baseline, it passes: no FAILURE, and at least one SUCCESS
//     besides the synthetic wire-schema checks (so a scenario whose checks
//     were all skipped does not count as passed);
//   - with a baseline (.ci/conformance-real-server.yml), a scenario listed
//     whole must fail (else the entry is stale), a listed "scenario:check"
//     may fail only in that check and must not pass it, and any other
//     scenario passes as above. As in the suite, WARNING counts as failing
//     under a baseline.
// Usage: node conformance-verdict.mjs --modules DIR --requirements FILE
//          --results DIR --label TEXT [--baseline FILE]
import { createRequire } from 'node:module';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const args = {};
for (let i = 2; i < process.argv.length; i += 2) {
  args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
}
for (const k of ['modules', 'requirements', 'results', 'label']) {
  if (!args[k]) {
    console.error(`conformance-verdict: missing --${k}`);
    process.exit(2);
  }
}
const YAML = createRequire(join(args.modules, 'noop.js'))('yaml');

const reqs = YAML.parse(readFileSync(args.requirements, 'utf8'));
const scored = reqs.server ?? [];
if (scored.length === 0) {
  console.error(`conformance-verdict: no server scenarios in ${args.requirements}`);
  process.exit(2);
}

// Baseline entries: "scenario" (whole) or "scenario:check-id".
const whole = new Set();
const perCheck = new Map();
if (args.baseline) {
  for (const entry of YAML.parse(readFileSync(args.baseline, 'utf8'))?.server ?? []) {
    const i = entry.indexOf(':');
    if (i < 0) {
      whole.add(entry);
    } else {
      const [s, c] = [entry.slice(0, i), entry.slice(i + 1)];
      if (!perCheck.has(s)) perCheck.set(s, new Set());
      perCheck.get(s).add(c);
    }
  }
}

// results/server-<scenario>-<ISO timestamp>/checks.json
const checksOf = new Map();
for (const dir of existsSync(args.results) ? readdirSync(args.results) : []) {
  const m = /^server-(.+)-\d{4}-\d\d-\d\dT[\d-]+Z$/.exec(dir);
  const file = join(args.results, dir, 'checks.json');
  if (!m || !existsSync(file)) continue;
  if (checksOf.has(m[1])) {
    console.error(`conformance-verdict: ${m[1]} ran twice in ${args.results}`);
    process.exit(2);
  }
  checksOf.set(m[1], JSON.parse(readFileSync(file, 'utf8')));
}

const isWire = (c) => c.id.startsWith('wire-schema');
const failing = (c) => c.status === 'FAILURE' || (args.baseline && c.status === 'WARNING');
const problems = [];
let passed = 0;
let excused = 0;
let warnings = 0;
const lines = [];

for (const name of scored) {
  const checks = checksOf.get(name);
  if (!checks || checks.length === 0) {
    problems.push(`${name}: did not run (no checks recorded)`);
    lines.push(`  MISSING   ${name}`);
    continue;
  }
  const bad = checks.filter(failing);
  const substantive = checks.some((c) => c.status === 'SUCCESS' && !isWire(c));
  const warned = checks.filter((c) => c.status === 'WARNING');
  warnings += warned.length;
  if (whole.has(name)) {
    if (bad.length === 0) {
      problems.push(`${name}: passes now; remove it from ${args.baseline}`);
      lines.push(`  STALE     ${name}`);
    } else {
      excused++;
      lines.push(`  n/a       ${name} (baseline: cannot apply)`);
    }
    continue;
  }
  const allowed = perCheck.get(name) ?? new Set();
  const unexpected = bad.filter((c) => !allowed.has(c.id));
  const stale = [...allowed].filter((id) => checks.some((c) => c.id === id && c.status === 'SUCCESS'));
  for (const c of unexpected) problems.push(`${name}: ${c.id} ${c.status}: ${c.errorMessage ?? ''}`);
  for (const id of stale) problems.push(`${name}:${id} passes now; remove it from ${args.baseline}`);
  if (!substantive) problems.push(`${name}: no check succeeded (all skipped or informational)`);
  const ok = unexpected.length === 0 && stale.length === 0 && substantive;
  if (ok) passed++;
  const excusedChecks = bad.filter((c) => allowed.has(c.id)).map((c) => c.id);
  const note = [
    excusedChecks.length ? `baseline excuses ${excusedChecks.join(', ')}` : '',
    warned.length && !args.baseline ? `warnings: ${warned.map((c) => c.id).join(', ')}` : '',
  ].filter(Boolean).join('; ');
  lines.push(`  ${ok ? 'pass' : 'FAIL'}      ${name}${note ? ` (${note})` : ''}`);
}

const unscored = [...checksOf.keys()].filter((s) => !scored.includes(s));
console.log(lines.join('\n'));
if (unscored.length) {
  const state = (s) => (checksOf.get(s).some((c) => c.status === 'FAILURE') ? 'failing' : 'ok');
  console.log(`  not scored (informational): ${unscored.map((s) => `${s} ${state(s)}`).join(', ')}`);
}
const tail = args.baseline ? `, ${excused} cannot apply (baseline)` : '';
console.log(`${args.label}: ${passed} of ${scored.length} required scenarios pass${tail}; ${warnings} SHOULD-level warnings`);
if (problems.length > 0) {
  console.log(`${args.label}: NOT CONFORMANT`);
  for (const p of problems) console.log(`  - ${p}`);
  process.exit(1);
}
if (passed + excused !== scored.length) {
  console.log(`${args.label}: scenario count mismatch`);
  process.exit(1);
}
