// A canonfuzz worker: answers one input per stdin line with the npm library (or Node built-in)
// named on the command line, one JSON answer line per input, in order. It speaks protocol 1
// when the first line is {"canonfuzz":1}: it answers {"canonfuzz":1,"name":…,"uses":…} and then reads
// each input as {"input":"<base64>"}, so that any byte can travel; otherwise each line is an
// input as it is. Answers:
//   {"ok": "<text>"}  accepted: the canonical text, `valid`, or the verified payload
//   {"error": {"kind", "message", "offset"}}  rejected; kind `rejected` for verifiers, whose
//                                           reasons are not compared
// JCS libraries read a JSON text per line; Ed25519 verifiers {"key","msg","sig"} in hex; JOSE
// libraries {"jwk", "token"}; the verifiable-mcp verifier {"jwks", "now", "response"}.
// Each family's libraries are in families/<family>.mjs: adding a library touches its family's
// file and the lockfile only.
// Given several JCS libraries (the harness's host of its npm JCS libraries), it answers each
// input once per library, a line each in the order they were named, and answers the request
// {"canonfuzz":"spent"} with {"spent":[ms, ...]}: the milliseconds each library has taken
// over its answers so far, by which the harness divides the process's CPU time among them.
import { wellFormed } from './common.mjs';
import * as ed25519 from './families/ed25519.mjs';
import * as ekl from './families/ekl.mjs';
import * as ink from './families/ink.mjs';
import * as jcs from './families/jcs.mjs';
import * as jws from './families/jws.mjs';
import * as vmcp from './families/vmcp.mjs';

const libraries = process.argv.slice(2);
const library = libraries.join(',');

// Every library of every family, by the name the harness gives it.
const registry = Object.assign({}, ...[jcs, ed25519, jws, vmcp, ekl, ink].map((f) => f.libraries));

async function load(name) {
  if (!Object.hasOwn(registry, name)) {
    process.stderr.write(`unknown library ${name}\n`);
    process.exit(2);
  }
  return registry[name].load();
}

const answers = await Promise.all(libraries.map(load));
if (answers.length > 1 && !answers.every((one) => one.canon)) {
  process.stderr.write(`only JCS libraries share a process: ${library}\n`);
  process.exit(2);
}
const spent = libraries.map(() => 0);
// One library's answer as it is; several libraries' as a list, each timed. The hosted JCS
// libraries are handed one reading of an input, whose time each is charged an equal share
// of: every one of them reads its argument and never writes to it (canonicalize 5.1.0,
// json-canonicalize 3.0.1, json-canon 1.0.1 and @truestamp/canonify 2.1.0, as locked), so
// none can change what those after it read. They answer synchronously, so the time is the
// answer's own.
const answer = answers.length === 1
  ? answers[0]
  : (bytes) => {
    let started = performance.now();
    const read = jcs.readJcs(bytes);
    const share = (performance.now() - started) / answers.length;
    return answers.map((one, k) => {
      started = performance.now();
      const answered = jcs.canonicalized(one.canon, read);
      spent[k] += share + performance.now() - started;
      return answered;
    });
  };

// What the library computes with underneath, for the report's provenance (the npm JCS
// libraries are plain JavaScript: nothing to name).
const uses = answers.length === 1 ? registry[library].uses ?? null : null;

// How a request of the harness's own shape starts.
const REQUEST_HEAD = Buffer.from('{"input":"');
// The request for the time each hosted library has taken.
const SPENT = Buffer.from('{"canonfuzz":"spent"}');
// Whether the harness asked for protocol 1; unknown until the first line.
let framed = null;
// The answer to one line: the greeting, or the library's answer to the input the line holds;
// a promise of it when the library answers asynchronously.
function answerLine(line) {
  if (framed === null) {
    framed = false;
    try {
      const hello = JSON.parse(line.toString('utf8'));
      if (hello && hello.canonfuzz === 1) {
        framed = true;
        return { canonfuzz: 1, name: library, ...(uses ? { uses } : {}) };
      }
    } catch {}
  }
  if (!framed) return answer(line);
  if (line.equals(SPENT)) return { spent };
  // The harness writes each request as exactly {"input":"<base64>"}: that shape is read
  // without a JSON parser, any other through one. Node's base64 decoding skips what is not
  // base64, so the string must end at the closing quote and hold no escape.
  const end = line.length - 2;
  if (end >= REQUEST_HEAD.length && line.subarray(0, REQUEST_HEAD.length).equals(REQUEST_HEAD) && line[end + 1] === 0x7d
      && line.indexOf(0x22, REQUEST_HEAD.length) === end && line.indexOf(0x5c, REQUEST_HEAD.length) === -1) {
    return answer(Buffer.from(line.latin1Slice(REQUEST_HEAD.length, end), 'base64'));
  }
  let input;
  try {
    input = Buffer.from(JSON.parse(line.toString('utf8')).input, 'base64');
  } catch (e) {
    const refused = { error: { kind: 'crashed', message: `not a protocol 1 request: ${wellFormed(e.message)}`, offset: 0 } };
    // A host answers every input once per library, this one included.
    return answers.length > 1 ? answers.map(() => refused) : refused;
  }
  return answer(input);
}

// Lines are answered strictly in order, one at a time, however the answers are computed.
let pending = Buffer.alloc(0);
let queue = Promise.resolve();
function drain(final) {
  const inputs = [];
  let start = 0;
  for (;;) {
    const nl = pending.indexOf(10, start);
    if (nl < 0) break;
    let end = nl;
    if (end > start && pending[end - 1] === 13) end -= 1;
    inputs.push(pending.subarray(start, end));
    start = nl + 1;
  }
  pending = pending.subarray(start);
  if (final && pending.length > 0) {
    inputs.push(pending);
    pending = Buffer.alloc(0);
  }
  if (inputs.length === 0) return;
  queue = queue.then(async () => {
    const lines = [];
    for (const input of inputs) {
      // Awaiting an answer already at hand would cost a turn of the event loop per line.
      const answered = answerLine(input);
      const settled = answered instanceof Promise ? await answered : answered;
      if (Array.isArray(settled)) for (const one of settled) lines.push(JSON.stringify(one));
      else lines.push(JSON.stringify(settled));
    }
    process.stdout.write(lines.join('\n') + '\n');
  });
}
process.stdin.on('data', (chunk) => {
  pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
  drain(false);
});
process.stdin.on('end', () => drain(true));
