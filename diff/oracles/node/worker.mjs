// A canonfuzz worker: answers one input per stdin line with the npm library (or Node built-in)
// named on the command line, one JSON answer line per input, in order. It speaks protocol 1:
// the first line is {"canonfuzz":1,"family":"<family>"}, from which it loads
// families/<family>.mjs and the library from that family's `libraries`; it answers
// {"canonfuzz":1,"name":…,"uses":…} and then reads each input as {"input":"<base64>"}, so that
// any byte can travel. Answers:
//   {"ok": "<text>"}  accepted: the canonical text, `valid`, or the verified payload
//   {"error": {"kind", "message", "offset"}}  rejected; kind `rejected` for verifiers, whose
//                                           reasons are not compared
// JCS libraries read a JSON text per line; Ed25519 verifiers {"key","msg","sig"} in hex; JOSE
// libraries {"jwk", "token"}; the verifiable-mcp verifier {"jwks", "now", "response"}.
// Adding a library touches its family's file and the lockfile only; adding a family, its file.
// Given several libraries whose answers share a reading of the input (the harness's host of
// its npm JCS libraries), it answers each input once per library, a line each in the order
// they were named, and answers the request {"canonfuzz":"spent"} with {"spent":[ms, ...]}: the
// milliseconds each library has taken over its answers so far, by which the harness divides
// the process's CPU time among them.
import { wellFormed } from './common.mjs';

const libraries = process.argv.slice(2);
const library = libraries.join(',');

function refuse(why) {
  process.stderr.write(`${why}\n`);
  process.exit(2);
}

// The answer function and what the library computes with underneath, once the first line
// has named the family.
let answer = null;
let uses = null;
let hosted = 1;
const spent = libraries.map(() => 0);

// Loads the named libraries from families/<family>.mjs. One library's answer is its own;
// several libraries' is a list, each timed. A host hands its libraries one reading of an
// input, whose time each is charged an equal share of: every one of them reads its argument
// and never writes to it (canonicalize 5.1.0, json-canonicalize 3.0.1, json-canon 1.0.1 and
// @truestamp/canonify 2.1.0, as locked), so none can change what those after it read. They
// answer synchronously, so the time is the answer's own.
async function loadFamily(family) {
  if (typeof family !== 'string' || !/^[a-z0-9_]+$/.test(family)) {
    refuse(`the first line names no family: ${JSON.stringify(family)}`);
  }
  let registry;
  try {
    ({ libraries: registry } = await import(`./families/${family}.mjs`));
  } catch (e) {
    refuse(`no family ${family} in this worker: ${wellFormed(e && e.message)}`);
  }
  const answers = await Promise.all(libraries.map((name) => {
    if (!Object.hasOwn(registry, name)) refuse(`unknown library ${name} of family ${family}`);
    return registry[name].load();
  }));
  if (answers.length > 1 && !answers.every((one) => one.shared)) {
    refuse(`only libraries that share a reading share a process: ${library}`);
  }
  hosted = answers.length;
  uses = answers.length === 1 ? registry[library].uses ?? null : null;
  answer = answers.length === 1
    ? answers[0]
    : (bytes) => {
      let started = performance.now();
      const read = answers[0].shared.read(bytes);
      const share = (performance.now() - started) / answers.length;
      return answers.map((one, k) => {
        started = performance.now();
        const answered = one.shared.answer(read);
        spent[k] += share + performance.now() - started;
        return answered;
      });
    };
}

// How a request of the harness's own shape starts.
const REQUEST_HEAD = Buffer.from('{"input":"');
// The request for the time each hosted library has taken.
const SPENT = Buffer.from('{"canonfuzz":"spent"}');
// The answer to one line: the greeting, or the library's answer to the input the line holds;
// a promise of it when the library answers asynchronously or the first line loads the family.
function answerLine(line) {
  if (answer === null) {
    let hello = null;
    try {
      hello = JSON.parse(line.toString('utf8'));
    } catch {}
    if (!hello || hello.canonfuzz !== 1) refuse('the first line is not the protocol\'s: {"canonfuzz":1,"family":…}');
    return loadFamily(hello.family).then(() => ({ canonfuzz: 1, name: library, ...(uses ? { uses } : {}) }));
  }
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
    return hosted > 1 ? Array.from({ length: hosted }, () => refused) : refused;
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
