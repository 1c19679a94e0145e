// A canonfuzz worker: canonicalizes one JSON text per stdin line with the npm library named on
// the command line, answering each line with one line of the `canonfuzz canon --jsonl`
// protocol: {"ok": "<canonical text>"} or {"error": {"kind", "message", "offset"}}.
const library = process.argv[2];
const exported = { 'canonicalize': 'default', 'json-canonicalize': 'canonicalize' }[library];
if (!exported) {
  process.stderr.write(`unknown library ${library}\n`);
  process.exit(2);
}
const module = await import(library);
const canon = module[exported] ?? module.default?.[exported];

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

// Messages may quote half of a surrogate pair; answers must stay valid Unicode.
const wellFormed = (value) => String(value).toWellFormed();

function kindOf(error) {
  const message = String(error && error.message);
  if (error instanceof RangeError && /call stack/i.test(message)) return 'depth_limit';
  return 'other';
}

function answer(bytes) {
  let text;
  try {
    text = decoder.decode(bytes);
  } catch (e) {
    return { error: { kind: 'invalid_utf8', message: wellFormed(e.message), offset: 0 } };
  }
  let value;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { error: { kind: e instanceof SyntaxError ? 'syntax' : kindOf(e), message: wellFormed(e.message), offset: 0 } };
  }
  try {
    const out = canon(value);
    if (typeof out !== 'string') {
      return { error: { kind: 'other', message: `returned ${typeof out}`, offset: 0 } };
    }
    return { ok: out.toWellFormed() };
  } catch (e) {
    return { error: { kind: kindOf(e), message: wellFormed(e && e.message), offset: 0 } };
  }
}

let pending = Buffer.alloc(0);
function drain(final) {
  const lines = [];
  let start = 0;
  for (;;) {
    const nl = pending.indexOf(10, start);
    if (nl < 0) break;
    let end = nl;
    if (end > start && pending[end - 1] === 13) end -= 1;
    lines.push(JSON.stringify(answer(pending.subarray(start, end))));
    start = nl + 1;
  }
  pending = pending.subarray(start);
  if (final && pending.length > 0) {
    lines.push(JSON.stringify(answer(pending)));
    pending = Buffer.alloc(0);
  }
  if (lines.length > 0) process.stdout.write(lines.join('\n') + '\n');
}
process.stdin.on('data', (chunk) => {
  pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
  drain(false);
});
process.stdin.on('end', () => drain(true));
