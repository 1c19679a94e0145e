// A canonfuzz worker: answers one input per stdin line with the npm library (or Node built-in)
// named on the command line, one JSON answer line per input, in order:
//   {"ok": "<text>"}  accepted: the canonical text, `valid`, or the verified payload
//   {"error": {"kind", "message", "offset"}}  rejected; kind `rejected` for verifiers, whose
//                                           reasons are not compared
// JCS libraries read a JSON text per line; Ed25519 verifiers {"key","msg","sig"} in hex; JOSE
// libraries {"jwk", "token"}.
import { createHash, createHmac, createPublicKey, verify as cryptoVerify } from 'node:crypto';

const library = process.argv[2];
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

function jcs(canon) {
  return (bytes) => {
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
  };
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

async function load() {
  switch (library) {
    case 'canonicalize':
      return jcs((await import('canonicalize')).default);
    case 'json-canonicalize':
      return jcs((await import('json-canonicalize')).canonicalize);
    case 'crypto':
      return verifier(({ key, msg, sig }) =>
        cryptoVerify(null, msg, createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: key.toString('base64url') }, format: 'jwk' }), sig));
    case '@noble/ed25519': {
      const ed = await import('@noble/ed25519');
      return verifier(({ key, msg, sig }) => ed.verifyAsync(sig, msg, key));
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
    case 'ekl': {
      // The adapter profile from its definitions, with npm canonicalize for JCS.
      const canon = (await import('canonicalize')).default;
      const sha256 = (data) => createHash('sha256').update(data).digest();
      return jsonCase(async (c) => {
        if (c.op === 'challenge') {
          const key = sha256(Buffer.from(c.credential, 'utf8')).toString('hex');
          return { ok: createHmac('sha256', key).update(c.challenge + c.endpoint, 'utf8').digest('hex') };
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

const answer = await load();

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
    for (const input of inputs) lines.push(JSON.stringify(await answer(input)));
    process.stdout.write(lines.join('\n') + '\n');
  });
}
process.stdin.on('data', (chunk) => {
  pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
  drain(false);
});
process.stdin.on('end', () => drain(true));
