// A canonfuzz adapter (worker protocol 1) for a JCS candidate: JSON.stringify with keys sorted
// by UTF-16 code units. Replace `canon` with the library to test; the rest is the protocol.
import { createInterface } from 'node:readline';

const sorted = (v) => Array.isArray(v) ? v.map(sorted) : v && typeof v === 'object'
  ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted(v[k])])) : v;
const canon = (bytes) => JSON.stringify(sorted(JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))));

for await (const line of createInterface({ input: process.stdin })) {
  const request = JSON.parse(line);
  let answer;
  if ('canonfuzz' in request) answer = { canonfuzz: 1, name: 'node-json-sorted', version: process.version };
  else try { answer = { ok: canon(Buffer.from(request.input, 'base64')) }; }
  catch (e) { answer = { error: { kind: 'other', message: String(e.message) } }; }
  process.stdout.write(JSON.stringify(answer) + '\n');
}
