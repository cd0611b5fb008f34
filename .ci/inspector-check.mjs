// Checks one answer of `mcp-inspector --cli --format json` from the real
// server serving a copy of testdata/conformance/fed_seed_library.
// Usage: node inspector-check.mjs tools/list|tools/call|resources/read legacy|modern FILE
import { readFileSync } from 'node:fs';
import { deepStrictEqual } from 'node:assert';

const [method, era, file] = process.argv.slice(2);
const raw = readFileSync(file, 'utf8');
let out;
try {
  out = JSON.parse(raw);
} catch (e) {
  fail(`not JSON: ${raw.slice(0, 300)}`);
}
const r = out.result;
if (!r) fail(`no result: ${raw.slice(0, 300)}`);

function fail(msg) {
  console.log(`  FAIL ${method} (${era}): ${msg}`);
  process.exit(1);
}

// 2026-07-28 answers name the server in _meta; 2025-11-25 answers do not.
// This is how the check knows which revision the inspector really spoke.
function checkEra() {
  const info = r._meta?.['io.modelcontextprotocol/serverInfo'];
  if (era === 'modern' && info?.name !== 'bourdon-l6') fail(`expected a 2026-07-28 answer naming bourdon-l6 in _meta, got _meta ${JSON.stringify(r._meta)}`);
  if (era === 'legacy' && info !== undefined) fail('expected a 2025-11-25 answer, got 2026-07-28 _meta');
}

switch (method) {
  case 'tools/list': {
    const names = (r.tools ?? []).map((t) => t.name);
    const want = ['find_entity', 'query_agent_memory', 'get_cross_agent_summary', 'list_recent_work', 'list_notes', 'list_workstreams', 'list_agents', 'export_agents'];
    const missing = want.filter((n) => !names.includes(n));
    if (missing.length) fail(`missing tools ${missing.join(', ')} in ${names.join(', ')}`);
    for (const t of r.tools) {
      if (t.inputSchema?.type !== 'object' || !t.description) fail(`tool ${t.name} lacks a description or an object input schema`);
    }
    console.log(`  ok   tools/list (${era}): ${names.length} tools, including ${want.join(', ')}`);
    break;
  }
  case 'tools/call': {
    checkEra();
    if (r.isError) fail(`tool error: ${JSON.stringify(r.content)}`);
    const m = (r.structuredContent?.matches ?? []).find((x) => x.name === 'Bourdon');
    if (!m) fail(`no match named Bourdon in ${JSON.stringify(r.structuredContent)}`);
    for (const a of ['claude-code', 'codex']) {
      if (!m.agents?.includes(a)) fail(`Bourdon match lacks agent ${a}: ${JSON.stringify(m)}`);
    }
    try {
      deepStrictEqual(JSON.parse(r.content?.[0]?.text ?? 'null'), r.structuredContent);
    } catch {
      fail('the text content does not hold the same JSON as structuredContent');
    }
    console.log(`  ok   tools/call find_entity name=Bourdon (${era}): agents ${m.agents.join(', ')}; text and structuredContent agree`);
    break;
  }
  case 'resources/read': {
    checkEra();
    const c = r.contents?.[0];
    if (c?.uri !== 'agent-library://agents' || c?.mimeType !== 'application/json') fail(`unexpected contents ${JSON.stringify(r.contents)}`);
    try {
      deepStrictEqual(JSON.parse(c.text), ['claude-code', 'codex']);
    } catch {
      fail(`agent-library://agents is ${c.text}, expected ["claude-code","codex"]`);
    }
    console.log(`  ok   resources/read agent-library://agents (${era}): ${c.text}`);
    break;
  }
  default:
    fail('unknown method');
}
