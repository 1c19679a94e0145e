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
// Given several JCS libraries (the harness's host of its npm JCS libraries), it answers each
// input once per library, a line each in the order they were named, and answers the request
// {"canonfuzz":"spent"} with {"spent":[ms, ...]}: the milliseconds each library has taken
// over its answers so far, by which the harness divides the process's CPU time among them.
import { createHash, createHmac, createPublicKey, timingSafeEqual, verify as cryptoVerify } from 'node:crypto';

const libraries = process.argv.slice(2);
const library = libraries.join(',');
// Errors are answered by their message alone: capturing each one's stack is work thrown away.
Error.stackTraceLimit = 0;
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

// Messages may quote half of a surrogate pair; answers must stay valid Unicode.
const wellFormed = (value) => String(value).toWellFormed();
const rejected = (e) => ({ error: { kind: 'rejected', message: wellFormed(e && e.message), offset: 0 } });

function kindOf(error) {
  const message = String(error && error.message);
  if (error instanceof RangeError && /call stack/i.test(message)) return 'depth_limit';
  return 'other';
}

// Answers a line holding a JSON case: not JSON is not a case; a thrown error is a rejection.
function jsonCase(answer) {
  return async (bytes) => {
    let c;
    try {
      c = JSON.parse(decoder.decode(bytes));
    } catch {
      return { unsupported: true };
    }
    try {
      return await answer(c);
    } catch (e) {
      return rejected(e);
    }
  };
}

// The JCS libraries recurse, and V8's stack holds a different number of their frames from run
// to run (about 2,000 to 20,000 levels, as code warms up), so a document nested deeper than
// this is one they are not asked: answered as unsupported, the same way every run.
const JCS_MAX_DEPTH = 1000;

// How deep arrays and objects nest in a JSON text that parsed: the most brackets open at once
// outside its strings. Read from the text, a thousand levels cost a twentieth of what walking
// the parsed value does.
function depth(text) {
  let open = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      open++;
      if (open > deepest) deepest = open;
    } else if (c === 0x5d || c === 0x7d) {
      open--;
    }
  }
  return deepest;
}

// A JCS input as a library is handed it: { value } parsed by JSON.parse, or { answer } for
// every library when there is no value to hand (invalid UTF-8, a syntax error, nesting past
// JCS_MAX_DEPTH).
function readJcs(bytes) {
  let text;
  try {
    text = decoder.decode(bytes);
  } catch (e) {
    return { answer: { error: { kind: 'invalid_utf8', message: wellFormed(e.message), offset: 0 } } };
  }
  let value;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { answer: { error: { kind: e instanceof SyntaxError ? 'syntax' : kindOf(e), message: wellFormed(e.message), offset: 0 } } };
  }
  // Each level takes a bracket and its closer, so a shorter text cannot nest that deep.
  if (text.length > 2 * JCS_MAX_DEPTH && depth(text) > JCS_MAX_DEPTH) return { answer: { unsupported: true } };
  return { value };
}

// A JCS library's answer for what readJcs read.
function canonicalized(canon, read) {
  if ('answer' in read) return read.answer;
  try {
    const out = canon(read.value);
    if (typeof out !== 'string') {
      return { error: { kind: 'other', message: `returned ${typeof out}`, offset: 0 } };
    }
    return { ok: out.toWellFormed() };
  } catch (e) {
    return { error: { kind: kindOf(e), message: wellFormed(e && e.message), offset: 0 } };
  }
}

// The answer function of a JCS library; its `canon` lets a host hand several libraries one
// reading of an input.
function jcs(canon) {
  const one = (bytes) => canonicalized(canon, readJcs(bytes));
  one.canon = canon;
  return one;
}

// An Ed25519 case, or null when the line is not one.
function ed25519Case(bytes) {
  try {
    const c = JSON.parse(decoder.decode(bytes));
    const hex = (h) => (typeof h === 'string' && /^([0-9a-f]{2})*$/.test(h) ? Buffer.from(h, 'hex') : null);
    const [key, msg, sig] = [hex(c.key), hex(c.msg), hex(c.sig)];
    return key && msg && sig ? { key, msg, sig } : null;
  } catch {
    return null;
  }
}

function verifier(check) {
  return async (bytes) => {
    const c = ed25519Case(bytes);
    if (!c) return { unsupported: true };
    try {
      return (await check(c)) ? { ok: 'valid' } : rejected({ message: 'signature does not verify' });
    } catch (e) {
      return rejected(e);
    }
  };
}

// verifiable-mcp 0.2.1, from SPEC.md: the envelope at result._meta or error.data, a JWS with
// typ verifiable-mcp+jws, alg pinned to EdDSA and a kid that names exactly one key of the set,
// over the RFC 8785 wrapper; both digests recomputed; the served structure equal to the signed
// payload (§1, §8); nothing a client reads left unsigned (§1); iat, nbf and exp held to the
// clock with 60 s of skew. Item 0 of content is the text arm (§6); further items are the
// reader's risk and are not checked. Answers the signed payload's canonical text.
const VMCP_META = 'org.jardenberg/verifiable-mcp';
const VMCP_SKEW = 60;
const VMCP_MEMBERS = {
  tool: ['content', 'structuredContent', 'isError', '_meta', 'resultType', 'signature', 'provenance'],
  resource: ['contents', '_meta', 'resultType', 'ttlMs', 'cacheScope', 'signature', 'provenance'],
};
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const sha256Label = (text) => 'sha256:' + createHash('sha256').update(text, 'utf8').digest('hex');
function must(ok, why) {
  if (!ok) throw new Error(why);
}

function servedParts(response) {
  const r = JSON.parse(response);
  must(isObject(r), 'the response is not an object');
  const frame = ['jsonrpc', 'id', 'result', 'error'];
  const framed = frame.some((k) => k in r);
  if (framed) {
    must(r.jsonrpc === '2.0', 'jsonrpc is not "2.0"');
    must('id' in r && (typeof r.id === 'string' || typeof r.id === 'number' || r.id === null), 'no usable id');
    must(('result' in r) !== ('error' in r), 'a response carries exactly one of result and error');
    for (const k of Object.keys(r)) must(frame.includes(k), `unexpected member ${k}`);
  }
  if (framed && 'error' in r) {
    const e = r.error;
    must(isObject(e), 'error is not an object');
    for (const k of Object.keys(e)) must(['code', 'message', 'data'].includes(k), `unsigned member error.${k}`);
    must(Number.isInteger(e.code) && typeof e.message === 'string', 'error.code or error.message mistyped');
    must(isObject(e.data), 'no error.data');
    const seen = { ...e };
    const rest = { ...e.data };
    delete rest[VMCP_META];
    if (Object.keys(rest).length > 0) seen.data = rest;
    else delete seen.data;
    return { kind: 'error', holder: e.data, served: { id: r.id, error: seen } };
  }
  const result = framed ? r.result : r;
  must(isObject(result), 'the result is not an object');
  if ('contents' in result) {
    for (const k of Object.keys(result)) must(VMCP_MEMBERS.resource.includes(k), `unsigned member result.${k}`);
    must(Array.isArray(result.contents), 'contents is not an array');
    const text = isObject(result.contents[0]) ? result.contents[0].text : undefined;
    return { kind: 'resource', holder: result._meta, served: { contents: result.contents }, text };
  }
  for (const k of Object.keys(result)) must(VMCP_MEMBERS.tool.includes(k), `unsigned member result.${k}`);
  if ('isError' in result) must(typeof result.isError === 'boolean', 'isError is not a boolean');
  let text;
  if ('content' in result) {
    must(Array.isArray(result.content), 'content is not an array');
    const first = result.content[0];
    if (first !== undefined) {
      must(isObject(first) && first.type === 'text' && typeof first.text === 'string', 'content[0] is not a text item');
      text = first.text;
    }
  }
  return { kind: 'tool', holder: result._meta, served: result.structuredContent, text, isError: result.isError === true };
}

async function verifyVmcp(c, jose, canon) {
  const { kind, holder, served, text, isError } = servedParts(c.response);
  const envelope = isObject(holder) ? holder[VMCP_META] : undefined;
  must(isObject(envelope) && typeof envelope.jws === 'string', 'no envelope');
  const keys = Array.isArray(c.jwks.keys) ? c.jwks.keys : [];
  const kids = keys.filter((k) => isObject(k) && 'kid' in k).map((k) => k.kid);
  must(new Set(kids).size === kids.length, 'two keys of the set share a kid');
  const { payload } = await jose.compactVerify(envelope.jws, async (header) => {
    must(header.alg === 'EdDSA', 'alg is not EdDSA');
    must(header.typ === 'verifiable-mcp+jws', 'typ is not verifiable-mcp+jws');
    must(typeof header.kid === 'string', 'no kid');
    const found = keys.filter((k) => isObject(k) && k.kid === header.kid);
    must(found.length === 1, 'no key has this kid');
    return jose.importJWK(found[0], 'EdDSA');
  }, { algorithms: ['EdDSA'] });
  const wrapperText = decoder.decode(payload);
  const wrapper = JSON.parse(wrapperText);
  must(isObject(wrapper) && canon(wrapper) === wrapperText, 'the wrapper is not a canonical object');
  const time = (v) => Number.isInteger(v) && v >= 0;
  must(time(wrapper.iat) && isObject(wrapper.provenance), 'no iat or provenance');
  must(!Object.keys(wrapper).some((k) => k.startsWith('content_hash')), 'a v0.1 content_hash key');
  must('payload' in wrapper && typeof wrapper.payload_digest === 'string', 'no payload or payload_digest');
  const payloadText = canon(wrapper.payload);
  must(sha256Label(payloadText) === wrapper.payload_digest, 'payload_digest differs');
  if (kind === 'error') {
    must(!('content_digest' in wrapper), 'an error wrapper carries content_digest');
  } else {
    must(typeof wrapper.content_digest === 'string' && typeof text === 'string', 'no content_digest or text arm');
    must(sha256Label(text) === wrapper.content_digest, 'content_digest differs');
  }
  if (served !== undefined) must(canon(served) === payloadText, 'the served structure is not the signed payload');
  if (kind === 'tool') must(isError === (isObject(wrapper.payload) && wrapper.payload.isError === true), 'isError differs');
  for (const name of ['exp', 'nbf']) if (name in wrapper) must(time(wrapper[name]), `${name} is not a time`);
  must(wrapper.iat <= c.now + VMCP_SKEW, 'iat is in the future');
  must(!('nbf' in wrapper) || wrapper.nbf <= c.now + VMCP_SKEW, 'nbf is in the future');
  must(!('exp' in wrapper) || c.now < wrapper.exp + VMCP_SKEW, 'exp has passed');
  return payloadText;
}

async function load(library) {
  switch (library) {
    case 'canonicalize':
      return jcs((await import('canonicalize')).default);
    case 'json-canonicalize':
      return jcs((await import('json-canonicalize')).canonicalize);
    case 'json-canon':
      return jcs((await import('json-canon')).default);
    case '@truestamp/canonify':
      return jcs((await import('@truestamp/canonify')).canonify);
    case 'crypto':
      return verifier(({ key, msg, sig }) =>
        cryptoVerify(null, msg, createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: key.toString('base64url') }, format: 'jwk' }), sig));
    case '@noble/ed25519': {
      // noble hashes with the SHA-512 it is given. Its default is WebCrypto's digest, which
      // is asynchronous; node:crypto's is the same OpenSSL function, called synchronously, so
      // a verification takes no turn of the event loop (8% less CPU a verification).
      const ed = await import('@noble/ed25519');
      ed.hashes.sha512 = (message) => createHash('sha512').update(message).digest();
      return verifier(({ key, msg, sig }) => ed.verify(sig, msg, key));
    }
    case 'jose': {
      const jose = await import('jose');
      return jsonCase(async (c) => {
        if (typeof c.token !== 'string' || typeof c.jwk !== 'object' || c.jwk === null) return { unsupported: true };
        const key = await jose.importJWK(c.jwk, typeof c.jwk.alg === 'string' ? c.jwk.alg : 'EdDSA');
        const { payload } = await jose.compactVerify(c.token, key);
        return { ok: decoder.decode(payload) };
      });
    }
    case 'vmcp': {
      const jose = await import('jose');
      const canon = (await import('canonicalize')).default;
      return jsonCase(async (c) => {
        if (typeof c.response !== 'string' || typeof c.now !== 'number' || !isObject(c.jwks)) return { unsupported: true };
        return { ok: await verifyVmcp(c, jose, canon) };
      });
    }
    case 'ekl': {
      // The adapter profile from its definitions, with npm canonicalize for JCS.
      const canon = (await import('canonicalize')).default;
      const sha256 = (data) => createHash('sha256').update(data).digest();
      return jsonCase(async (c) => {
        if (c.op === 'challenge' || c.op === 'verify') {
          const key = sha256(Buffer.from(c.credential, 'utf8')).toString('hex');
          const mac = createHmac('sha256', key).update(c.challenge + c.endpoint, 'utf8').digest();
          if (c.op === 'challenge') return { ok: mac.toString('hex') };
          if (!/^[0-9a-fA-F]{64}$/.test(c.proof)) throw new Error('the proof is not 64 hex digits');
          if (!timingSafeEqual(Buffer.from(c.proof, 'hex'), mac)) throw new Error('the proof does not match');
          return { ok: 'valid' };
        }
        const salt = Buffer.from(c.salt, 'hex');
        if (salt.length !== 32 || c.salt.length !== 64) throw new Error('the salt is not 32 bytes');
        let value;
        if (c.op === 'fingerprint') {
          value = JSON.parse(c.value);
        } else {
          let result = JSON.parse(c.result);
          if (typeof result !== 'object' || result === null || Array.isArray(result)) throw new Error('a tool result is an object');
          if (!('structuredContent' in result) && !('content' in result) && typeof result.result === 'object' && result.result !== null) result = result.result;
          if (result.structuredContent !== undefined && result.structuredContent !== null) value = result.structuredContent;
          else if (Array.isArray(result.content)) value = result.content;
          else throw new Error('no body to fingerprint');
        }
        return { ok: sha256(Buffer.concat([salt, Buffer.from(canon(value), 'utf8')])).toString('hex') };
      });
    }
    case 'ink': {
      // INK from its definitions, with npm canonicalize for JCS.
      const canon = (await import('canonicalize')).default;
      const sha256 = (data) => createHash('sha256').update(data).digest('hex');
      return jsonCase(async (c) => {
        if (c.op === 'leaf') {
          const event = JSON.parse(c.event);
          if (typeof event !== 'object' || event === null || Array.isArray(event)) throw new Error('an event is an object');
          delete event.agentSignature;
          return { ok: sha256(Buffer.concat([Buffer.from([0]), Buffer.from(canon(event), 'utf8')])) };
        }
        const base = `ink/0.1\n${c.method}\n${c.path}\n${c.recipientDid}\n${canon(JSON.parse(c.body))}\n${c.timestamp}`;
        return { ok: sha256(Buffer.from(base, 'utf8')) };
      });
    }
    default:
      process.stderr.write(`unknown library ${library}\n`);
      process.exit(2);
  }
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
    const read = readJcs(bytes);
    const share = (performance.now() - started) / answers.length;
    return answers.map((one, k) => {
      started = performance.now();
      const answered = canonicalized(one.canon, read);
      spent[k] += share + performance.now() - started;
      return answered;
    });
  };

// What the library computes with underneath, for the report's provenance: node:crypto's
// OpenSSL for the verifiers and hashes built on it, and for noble-ed25519's SHA-512 beside
// its own curve arithmetic; the npm JCS libraries are plain JavaScript.
const openssl = `node:crypto, OpenSSL ${process.versions.openssl}`;
const uses = ['crypto', 'jose', 'vmcp', 'ekl', 'ink'].includes(library)
  ? openssl
  : library === '@noble/ed25519'
    ? `its own curve arithmetic; SHA-512 from ${openssl}`
    : null;

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
