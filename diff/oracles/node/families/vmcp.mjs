// verifiable-mcp: a whole response checked as the specification says ({"jwks","now","response"}),
// answering the signed payload's canonical text.
import { createHash } from 'node:crypto';
import { decoder, jsonCase, openssl } from '../common.mjs';

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

export const libraries = {
  vmcp: {
    load: async () => {
      const jose = await import('jose');
      const canon = (await import('canonicalize')).default;
      return jsonCase(async (c) => {
        if (typeof c.response !== 'string' || typeof c.now !== 'number' || !isObject(c.jwks)) return { unsupported: true };
        return { ok: await verifyVmcp(c, jose, canon) };
      });
    },
    uses: openssl,
  },
};
