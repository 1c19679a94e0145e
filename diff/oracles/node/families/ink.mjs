// INK from its definitions, with npm canonicalize for JCS: audit events' leaf hashes,
// requests' signature bases and signatures, the key history entry that verifies a request,
// bodies' canonical form, principals, inclusion proofs, checkpoint bodies, the witness's
// hashes, submissions and signatures, timestamps, and messages' freshness and replay.
import { createHash, createPublicKey, verify } from 'node:crypto';
import { jsonCase, openssl } from '../common.mjs';

// INK's timestamp grammar: an RFC 3339 date-time with uppercase T and Z, a zone always given,
// no leap second, at most 64 characters; read as whole milliseconds since the epoch (further
// fraction digits cut, so instants before the epoch floor). Years 0000-9999 are literal: the
// days are counted here rather than by Date.UTC, which maps 0-99 to 1900-1999.
const TIMESTAMP = /^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]+))?(Z|[+-][0-9]{2}:[0-9]{2})$/;
function daysFromCivil(y, m, d) {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * ((m + 9) % 12) + 2) / 5) + d - 1;
  return era * 146097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719468;
}
function epochMs(text) {
  if ([...text].length > 64) throw new Error('a timestamp is at most 64 characters');
  const t = TIMESTAMP.exec(text);
  if (!t) throw new Error('not an RFC 3339 date-time');
  const [y, mo, d, h, mi, s] = t.slice(1, 7).map(Number);
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  if (mo < 1 || mo > 12 || d < 1 || d > days[mo - 1] || h > 23 || mi > 59 || s > 59) throw new Error('out of range');
  let offset = 0;
  if (t[8] !== 'Z') {
    const [oh, om] = t[8].slice(1).split(':').map(Number);
    if (oh > 23 || om > 59) throw new Error('the offset is out of range');
    offset = (t[8][0] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const millis = Number(((t[7] || '') + '000').slice(0, 3));
  return daysFromCivil(y, mo, d) * 86400000 + ((h * 60 + mi - offset) * 60 + s) * 1000 + millis;
}

// An agent id's principal: tulpa: and ink: ids whose body is z + base58btc of the Ed25519
// multicodec (0xed 0x01) and 32 bytes name key:<body>; other ids with an INK prefix are
// escaped as raw:<id>; the rest pass through. 1 to 512 UTF-16 code units.
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
function base58(text) {
  let n = 0n;
  for (const c of text) {
    const d = BASE58.indexOf(c);
    if (d < 0) return null;
    n = n * 58n + BigInt(d);
  }
  const bytes = [];
  for (; n > 0n; n >>= 8n) bytes.unshift(Number(n & 255n));
  const zeros = text.length - text.replace(/^1+/, '').length;
  return [...new Array(zeros).fill(0), ...bytes];
}
function principal(id) {
  if (id.length < 1 || id.length > 512) throw new Error('an agent id is 1 to 512 UTF-16 code units');
  for (const prefix of ['tulpa:', 'ink:']) {
    if (!id.startsWith(prefix)) continue;
    const body = id.slice(prefix.length);
    const bytes = body.startsWith('z') ? base58(body.slice(1)) : null;
    if (bytes && bytes.length === 34 && bytes[0] === 0xed && bytes[1] === 0x01) return `key:${body}`;
  }
  if (['tulpa:', 'ink:', 'key:', 'raw:'].some((p) => id.startsWith(p))) return `raw:${id}`;
  return id;
}

// A hash written as 64 lowercase hex digits, as its bytes.
function hashBytes(h) {
  if (typeof h !== 'string' || !/^[0-9a-f]{64}$/.test(h)) throw new Error('not 64 lowercase hex digits');
  return Buffer.from(h, 'hex');
}

// RFC 9162's interior node hash.
function nodeHash(left, right) {
  return createHash('sha256').update(Buffer.concat([Buffer.from([1]), left, right])).digest();
}

// RFC 9162's Merkle tree hash over leaf hashes: split at the largest power of two below their
// number.
function treeHash(leaves) {
  if (leaves.length === 0) return createHash('sha256').digest();
  if (leaves.length === 1) return leaves[0];
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return nodeHash(treeHash(leaves.slice(0, k)), treeHash(leaves.slice(k)));
}

// An inclusion proof as INK lists it, its nodes from the root down: RFC 9162 §2.1.3.2 over
// the reversed list, hashes as 64 lowercase hex digits, sizes below 2^53.
function inclusion(c) {
  if (!Number.isSafeInteger(c.treeSize) || !Number.isSafeInteger(c.leafIndex) || c.leafIndex < 0) throw new Error('a size or index out of range');
  if (c.leafIndex >= c.treeSize) throw new Error('the index is not below the size');
  const path = c.proof.map((h) => hashBytes(h)).reverse();
  let [fn, sn, r] = [BigInt(c.leafIndex), BigInt(c.treeSize - 1), hashBytes(c.leafHash)];
  for (const p of path) {
    if (sn === 0n) throw new Error('the proof is longer than the path');
    if ((fn & 1n) === 1n || fn === sn) {
      r = nodeHash(p, r);
      while ((fn & 1n) === 0n && fn !== 0n) {
        fn >>= 1n;
        sn >>= 1n;
      }
    } else {
      r = nodeHash(r, p);
    }
    fn >>= 1n;
    sn >>= 1n;
  }
  if (sn !== 0n) throw new Error('the proof is shorter than the path');
  if (!r.equals(hashBytes(c.rootHash))) throw new Error('the root differs');
  return 'valid';
}

// An INK-Ed25519 signature's bytes: 86 base64url characters, canonically written.
function signatureBytes(text) {
  const sig = Buffer.from(text, 'base64url');
  if (!/^[A-Za-z0-9_-]{86}$/.test(text) || sig.toString('base64url') !== text) throw new Error('not 86 base64url characters');
  return sig;
}

// Whether a signature verifies over a base under a key of 64 hex digits.
function verifies(hex, sig, base) {
  const x = Buffer.from(hex, 'hex').toString('base64url');
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' });
  return verify(null, Buffer.from(base, 'utf8'), key, sig);
}

// A request's INK-Ed25519 signature over its signature base, verified with a key of 64
// lowercase hex digits.
function signed(c, base) {
  if (!/^[0-9a-f]{64}$/.test(c.publicKeyHex)) throw new Error('the key is not 64 lowercase hex digits');
  if (!verifies(c.publicKeyHex, signatureBytes(c.signature), base)) throw new Error('the signature does not verify');
  return 'valid';
}

// Whether a key history entry can verify a message sent at epoch milliseconds `at`: an object
// whose status is exactly active or retired, without revokedAt, whose validFrom and
// validUntil (each absent or an INK timestamp) hold `at`, both bounds inclusive, and whose key
// is 64 lowercase hex digits.
function usable(entry, at) {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return false;
  if (entry.status !== 'active' && entry.status !== 'retired') return false;
  if (Object.hasOwn(entry, 'revokedAt')) return false;
  for (const [name, outside] of [['validFrom', (t) => at < t], ['validUntil', (t) => at > t]]) {
    if (!Object.hasOwn(entry, name)) continue;
    if (typeof entry[name] !== 'string') return false;
    let bound;
    try {
      bound = epochMs(entry[name]);
    } catch {
      return false;
    }
    if (outside(bound)) return false;
  }
  return typeof entry.publicKeyHex === 'string' && /^[0-9a-f]{64}$/.test(entry.publicKeyHex);
}

// The entry of a request's key history that verifies it, as "<status> <keyId>": of the usable
// entries the hinted one, then the active ones in order, then the retired ones. A retired
// entry fails live authentication unless retired keys are allowed.
function rotation(c, base) {
  const at = epochMs(c.timestamp);
  const entries = c.keys.filter((e) => usable(e, at));
  const hint = c.hintKeyId;
  const hinted = entries.filter((e) => typeof hint === 'string' && e.keyId === hint).slice(0, 1);
  const by = (status) => entries.filter((e) => e.status === status);
  const order = [...hinted, ...by('active'), ...by('retired')];
  if (order.length === 0) throw new Error('no entry of the key history is usable');
  const sig = signatureBytes(c.signature);
  const found = order.find((e) => verifies(e.publicKeyHex, sig, base));
  if (!found) throw new Error('no usable entry verifies the signature');
  if (c.liveAuth === true && found.status === 'retired' && c.liveAuthAllowRetired !== true) throw new Error('live authentication takes active keys');
  return `${found.status} ${typeof found.keyId === 'string' ? found.keyId : ''}`;
}

// Seed 003's key rotation over a raw message: the entry rotation() finds for the message's
// UTF-8 bytes with no hint and no live authentication, as RFC 8785 JSON of its keyId,
// keyStatus and whether it is retired (usedRetiredKey).
function rawRotation(i, canon) {
  const c = { timestamp: i.messageTimestamp, keys: i.keyHistory, signature: i.signature };
  const found = rotation(c, i.message);
  const at = found.indexOf(' ');
  const [status, keyId] = [found.slice(0, at), found.slice(at + 1)];
  return canon({ keyId, keyStatus: status, usedRetiredKey: status === 'retired' });
}

// Seed 003's witness leaf beside a claimed canonical form: a claim (when it is a string) that
// is not the event's RFC 8785 form is refused; otherwise RFC 8785 JSON of the event's
// canonicalString and leafHash.
function claimedLeaf(i, canon) {
  const event = i.event;
  if (typeof event !== 'object' || event === null || Array.isArray(event)) throw new Error('an event is an object');
  const canonical = canon(event);
  if (typeof i.claimedCanonical === 'string' && i.claimedCanonical !== canonical) throw new Error("the claimed canonical form is not RFC 8785's");
  return canon({ canonicalString: canonical, leafHash: eventLeaf(event, canon) });
}

// The witness's decisions (INK seed 003): node and tree hashes; an event's submission,
// refused when its eventId is held or its agentId is not the authenticated sender; and its
// Ed25519 signatures over JCS(checkpoint), over a checkpoint naming SHA-256(JCS(previous)) as
// previousCheckpointHash, and over "ink/audit-response\n" + JCS(events).
function witness(c, canon) {
  const signedByWitness = (message) => {
    if (!/^[0-9a-f]{64}$/.test(c.witnessPublicKeyHex)) throw new Error('the witness key is not 64 lowercase hex digits');
    if (!verifies(c.witnessPublicKeyHex, signatureBytes(c.signature), message)) throw new Error("the witness's signature does not verify");
    return 'valid';
  };
  switch (c.op) {
    case 'node':
      return nodeHash(hashBytes(c.left), hashBytes(c.right)).toString('hex');
    case 'root':
      return treeHash(c.leafHashes.map((h) => hashBytes(h))).toString('hex');
    case 'submit':
      if (c.existingEventIds.includes(c.event.eventId)) throw new Error('the witness holds an event with this id');
      if (c.event.agentId !== c.authenticatedSenderDid) throw new Error("the event is not the authenticated sender's");
      return 'valid';
    case 'witness-checkpoint':
      return signedByWitness(canon(JSON.parse(c.checkpoint)));
    case 'chain': {
      const checkpoint = JSON.parse(c.checkpoint);
      signedByWitness(canon(checkpoint));
      const previous = createHash('sha256').update(canon(JSON.parse(c.previous)), 'utf8').digest('hex');
      if (checkpoint.previousCheckpointHash !== previous) throw new Error('previousCheckpointHash does not name the previous checkpoint');
      return 'valid';
    }
    default:
      return signedByWitness(`ink/audit-response\n${canon(JSON.parse(c.events))}`);
  }
}

// Seed 003's containment: a token without tokenVersion is a legacy token, permitted on every
// transport; a versioned one permits its allowedTransports (the strings of an array; nothing if
// it is not one), by default only ink_http. One more challenge or intent fits while fewer than
// the maximum were sent; only the handshake's initiator and responder may send.
function containment(i) {
  switch (i.op) {
    case 'transport': {
      const token = i.token;
      if (!Object.hasOwn(token, 'tokenVersion')) return 'valid';
      let allowed = Object.hasOwn(token, 'allowedTransports') ? token.allowedTransports : ['ink_http'];
      allowed = Array.isArray(allowed) ? allowed.filter((t) => typeof t === 'string') : [];
      if (!allowed.includes(i.requestTransport)) throw new Error('the token does not permit this transport');
      return 'valid';
    }
    case 'challenge_budget':
      if (i.challengesSentSoFar >= i.maxChallengesPerCorrelation) throw new Error('the challenge budget is spent');
      return 'valid';
    case 'sender_rate':
      if (i.intentsSentInWindow >= i.maxIntentsPerWindow) throw new Error("the sender's rate is spent");
      return 'valid';
    default:
      if (i.from !== i.initiator && i.from !== i.responder) throw new Error('the sender is not in the handshake');
      return 'valid';
  }
}

// The members of a redacted card (INK seed 003): all required, no others allowed.
const REDACTED = ['agentId', 'displayName', 'supportsInk', 'discoveryMode', 'visibility', 'updatedAt'];

// Seed 003's discovery gating: public cards go to anyone, network_only ones to an
// authenticated caller and capability_gated ones to a capability's holder (each flag exactly
// true), the redacted card to the rest; private ones are not found. A redacted card has
// exactly its six members.
function discovery(i, canon) {
  if (i.op === 'redacted') {
    const card = i.card;
    const members = typeof card === 'object' && card !== null && !Array.isArray(card) ? Object.keys(card) : null;
    if (!members || members.length !== REDACTED.length || !REDACTED.every((m) => members.includes(m))) throw new Error('not the six members of a redacted card');
    return 'valid';
  }
  const { visibility } = i;
  const gated = (visibility === 'network_only' && i.authenticated === true) || (visibility === 'capability_gated' && i.holdsCapability === true);
  let shown;
  if (visibility === 'public' || gated) shown = ['full_card', 200];
  else if (visibility === 'network_only' || visibility === 'capability_gated') shown = ['redacted_card', 200];
  else if (visibility === 'private') shown = ['not_found', 404];
  else throw new Error('not a visibility');
  return canon({ disclosure: shown[0], httpStatus: shown[1] });
}

// A request's signature base: ink/0.1, its method, path and recipient, its body's JCS form and
// its timestamp, one per line.
function signatureBase(request, body, timestamp) {
  return `ink/0.1\n${request.method}\n${request.path}\n${request.recipientDid}\n${body}\n${timestamp}`;
}

// An Authorization header: the scheme, blanks, 86 base64url characters, optionally blanks and
// keyId=<1-128 of [A-Za-z0-9_:.-]>, trailing blanks allowed; blanks are spaces and tabs only.
const AUTHORIZATION = /^INK-Ed25519[ \t]+([A-Za-z0-9_-]{86})(?:[ \t]+keyId=([A-Za-z0-9_:.-]{1,128}))?[ \t]*$/;

// Seed 003's endpoint check of a request: its Authorization header; a body naming its sender
// (from) and timestamp as strings; the key history the endpoint holds for that sender, and only
// that one; the key rotation rules under live authentication with retired keys refused; and a
// nested payload.actor, when present, naming the sender. Yields the sender.
function endpoint(i, canon) {
  const match = typeof i.authorization === 'string' ? AUTHORIZATION.exec(i.authorization) : null;
  if (!match) throw new Error('not an INK-Ed25519 Authorization header');
  const { body } = i;
  const [sender, timestamp] = [body.from, body.timestamp];
  if (typeof sender !== 'string' || typeof timestamp !== 'string') throw new Error('the body names no sender or timestamp');
  if (sender !== i.keysOwner) throw new Error('no key history is known for the sender');
  if (!Array.isArray(i.keys)) throw new Error("the sender's key history is not an array");
  const request = { timestamp, keys: i.keys, signature: match[1], liveAuth: true };
  if (match[2] !== undefined) request.hintKeyId = match[2];
  rotation(request, signatureBase(i, canon(body), timestamp));
  const { payload } = body;
  const object = typeof payload === 'object' && payload !== null && !Array.isArray(payload);
  if (object && Object.hasOwn(payload, 'actor') && payload.actor !== sender) throw new Error('the nested actor is not the sender');
  return JSON.stringify({ sender });
}

// An audit event's leaf hash: SHA-256(0x00 || JCS(event without agentSignature)).
function eventLeaf(event, canon) {
  const stripped = Object.fromEntries(Object.entries(event).filter(([name]) => name !== 'agentSignature'));
  return createHash('sha256').update(Buffer.concat([Buffer.from([0]), Buffer.from(canon(stripped), 'utf8')])).digest('hex');
}

// An integer-valued JSON number from `least` to 2^53 - 1, whatever its spelling; null otherwise.
function integer(value, least) {
  return Number.isSafeInteger(value) && value >= least ? value : null;
}

// INK's inclusion receipt: its structure; the witness's signature over the line
// "ink/audit-inclusion/v1" and JCS({eventId, leafIndex, treeSize, rootHash, timestamp}); its
// proof, from the root down, from the event's leaf (the event bound to eventId by its id,
// agentSignature left out) or a given leaf hash; and a later checkpoint, which may not hold
// fewer leaves, nor another root for as many.
function receipt(i, canon) {
  const r = i.receipt;
  if (typeof r !== 'object' || r === null || Array.isArray(r)) throw new Error('structure: the receipt is not an object');
  const { eventId, timestamp, serviceSignature } = r;
  if (![eventId, timestamp, serviceSignature].every((s) => typeof s === 'string' && s !== '')) throw new Error('structure: eventId, timestamp or serviceSignature');
  const [index, size] = [integer(r.leafIndex, 0), integer(r.treeSize, 1)];
  if (index === null || size === null || index >= size) throw new Error('structure: leafIndex or treeSize');
  const root = hashBytes(r.rootHash);
  const proof = r.inclusionProof;
  if (!Array.isArray(proof) || proof.length > 64) throw new Error('structure: inclusionProof');
  proof.forEach((h) => hashBytes(h));
  if (!/^[0-9a-f]{64}$/.test(i.witnessPublicKeyHex)) throw new Error('the witness key is not 64 lowercase hex digits');
  const signed = canon({ eventId, leafIndex: index, treeSize: size, rootHash: r.rootHash, timestamp });
  if (!verifies(i.witnessPublicKeyHex, signatureBytes(serviceSignature), `ink/audit-inclusion/v1\n${signed}`)) throw new Error("signature: the witness's signature does not verify");
  let leaf = null;
  if (Object.hasOwn(i, 'event')) {
    const { event } = i;
    if (typeof event !== 'object' || event === null || Array.isArray(event) || event.id !== eventId) throw new Error("proof: the event's id is not the receipt's eventId");
    leaf = eventLeaf(event, canon);
  } else if (Object.hasOwn(i, 'eventHash')) {
    leaf = i.eventHash;
  }
  if (leaf !== null) inclusion({ leafIndex: index, treeSize: size, leafHash: leaf, rootHash: r.rootHash, proof });
  laterCheckpoint(i, size, root);
  return 'valid';
}

// A later authenticated checkpoint, when the input gives one, may not hold fewer leaves than a
// tree of `size` with `root`, nor another root for as many.
function laterCheckpoint(i, size, root) {
  if (!Object.hasOwn(i, 'laterCheckpoint')) return;
  const later = i.laterCheckpoint;
  const laterSize = typeof later === 'object' && later !== null ? integer(later.treeSize, 0) : null;
  if (laterSize === null) throw new Error("checkpoint: the later checkpoint's treeSize");
  const laterRoot = hashBytes(later.rootHash);
  if (laterSize < size || (laterSize === size && !laterRoot.equals(root))) throw new Error('checkpoint: the log was rewound or forked');
}

const AUDIT_TYPES = ['network.tulpa.audit_query_response', 'network.ink.audit_query_response'];

// Whether `document`'s `member` is a signature by the key `hex` over `domain` and the JCS form of
// the document without that member.
function signedMember(document, member, domain, hex, canon) {
  const signature = document[member];
  if (typeof signature !== 'string') throw new Error(`no ${member}`);
  const rest = Object.fromEntries(Object.entries(document).filter(([name]) => name !== member));
  if (!verifies(hex, signatureBytes(signature), domain + canon(rest))) throw new Error(`${member} does not verify`);
}

// INK's audit-query response: protocol ink/0.1, an audit-query response type, a message id, as
// many proofs as events, an integer tree size, a root hash (an empty tree holds no events and
// has the empty root); the message, requester and pinned witness asked about; the witness's
// signature over the line "ink/audit-query-response/v1" and JCS(response without
// serviceSignature); each event about the message, involving the requester, signed by its
// agent's key over the line "ink/audit-event" and JCS(event without agentSignature), its id
// unique; each proof naming a distinct event and leading from its leaf to the root; and a later
// checkpoint.
function audit(i, canon) {
  const r = i.response;
  if (!isObject(r)) throw new Error('structure: the response is not an object');
  const text = (document, name) => (typeof document[name] === 'string' ? document[name] : '');
  if (text(r, 'protocol') !== 'ink/0.1' || !AUDIT_TYPES.includes(text(r, 'type')) || !text(r, 'messageId')) throw new Error('structure: protocol, type or messageId');
  const { events, proofs } = r;
  if (!Array.isArray(events) || !Array.isArray(proofs) || events.length !== proofs.length) throw new Error('structure: events and proofs');
  const size = integer(r.treeSize, 0);
  if (size === null) throw new Error('structure: treeSize');
  const root = hashBytes(r.rootHash);
  if (size === 0 && (events.length > 0 || !root.equals(createHash('sha256').digest()))) throw new Error('structure: an empty tree holds no events and has the empty root');
  const requester = i.expectedRequester;
  if (text(r, 'messageId') !== i.expectedMessageId || text(r, 'requester') !== requester) throw new Error('binding: not the message or requester asked about');
  if (Object.hasOwn(i, 'expectedServiceDid') && text(r, 'serviceDid') !== i.expectedServiceDid) throw new Error('binding: not the pinned witness');
  if (!/^[0-9a-f]{64}$/.test(i.witnessPublicKeyHex)) throw new Error('the witness key is not 64 lowercase hex digits');
  signedMember(r, 'serviceSignature', 'ink/audit-query-response/v1\n', i.witnessPublicKeyHex, canon);
  const keys = new Map(Object.entries(i.agentKeysHex).filter(([, hex]) => typeof hex === 'string' && /^[0-9a-f]{64}$/.test(hex)));
  const leaves = new Map();
  for (const event of events) {
    if (!isObject(event)) throw new Error('event: not an object');
    if (text(event, 'messageId') !== text(r, 'messageId')) throw new Error('scope: an event about another message');
    if (text(event, 'agentId') !== requester && text(event, 'counterpartyId') !== requester) throw new Error('scope: an event not involving the requester');
    if (!keys.has(text(event, 'agentId'))) throw new Error('event: no key for the agent');
    signedMember(event, 'agentSignature', 'ink/audit-event\n', keys.get(text(event, 'agentId')), canon);
    if (leaves.has(text(event, 'id'))) throw new Error('event: two events share an id');
    leaves.set(text(event, 'id'), eventLeaf(event, canon));
  }
  const proven = new Set();
  for (const proof of proofs) {
    const named = isObject(proof) ? text(proof, 'eventId') : '';
    if (!leaves.has(named) || proven.has(named)) throw new Error('proof: names no event, or one already proven');
    proven.add(named);
    const index = integer(proof.leafIndex, 0);
    if (index === null || index >= size) throw new Error('proof: leafIndex is not below treeSize');
    inclusion({ leafIndex: index, treeSize: size, leafHash: leaves.get(named), rootHash: r.rootHash, proof: proof.inclusionProof });
  }
  laterCheckpoint(i, size, root);
  return 'valid';
}

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

// `key` of m is a string of at most `bound` UTF-16 code units; absent only if not needed.
function bounded(m, key, bound, needed) {
  if (!Object.hasOwn(m, key)) {
    if (needed) throw new Error(`${key} is missing`);
  } else if (typeof m[key] !== 'string' || m[key].length > bound) {
    throw new Error(`${key} is not a string of at most ${bound} UTF-16 code units`);
  }
}

// `key` of m is one of the strings allowed.
function chosen(m, key, allowed) {
  if (typeof m[key] !== 'string' || !allowed.includes(m[key])) throw new Error(`${key} is not one of ${allowed.join(', ')}`);
}

// `key` of m is a list of at most `count` strings of at most `bound` UTF-16 code units.
function listed(m, key, needed, count, bound) {
  if (!Object.hasOwn(m, key)) {
    if (needed) throw new Error(`${key} is missing`);
    return;
  }
  const items = m[key];
  if (!Array.isArray(items) || items.length > count || items.some((i) => typeof i !== 'string' || i.length > bound)) throw new Error(`${key} is not a list of at most ${count} strings of at most ${bound}`);
}

// m has no member but those allowed.
function only(m, allowed) {
  if (Object.keys(m).some((k) => !allowed.includes(k))) throw new Error('an unknown member');
}

// A handshake date-time: an INK timestamp ending in Z.
function utc(value) {
  return typeof value === 'string' && value.endsWith('Z') && Number.isFinite(epochMs(value));
}

// INK's handshake message: a challenge, rejection or resolution in the network.tulpa or
// network.ink namespace, protocol ink/0.1, an intentRef and nonce of at most 256 UTF-16 code
// units, a timestamp in UTC; each kind's members as INK lists them; unknown members ignored.
function handshake(m) {
  if (!isObject(m) || typeof m.type !== 'string') throw new Error('not a handshake message');
  const prefix = ['network.tulpa.', 'network.ink.'].find((p) => m.type.startsWith(p));
  if (prefix === undefined || m.protocol !== 'ink/0.1') throw new Error('not an ink/0.1 handshake message type');
  bounded(m, 'intentRef', 256, true);
  bounded(m, 'nonce', 256, true);
  if (!utc(m.timestamp)) throw new Error('timestamp is not a UTC date-time');
  switch (m.type.slice(prefix.length)) {
    case 'challenge':
      chosen(m, 'challengeType', ['mutual_connection_proof', 'identity_verification', 'availability_query', 'context_request', 'none']);
      listed(m, 'fields', false, 32, 256);
      listed(m, 'availableWindows', false, 32, 64);
      listed(m, 'contextFields', false, 32, 256);
      break;
    case 'rejection': {
      chosen(m, 'reason', ['policy_violation', 'trust_threshold', 'capacity', 'unsupported_intent', 'rate_limited', 'expired', 'handshake_budget_exhausted', 'counterparty_cooldown', 'sender_rate_limited', 'delegation_budget_exhausted', 'transport_scope_violation']);
      bounded(m, 'detail', 500, false);
      bounded(m, 'retryAfter', 64, false);
      if (!Object.hasOwn(m, 'backoffHint')) break;
      const hint = m.backoffHint;
      if (!isObject(hint)) throw new Error('backoffHint is not an object');
      if (Object.hasOwn(hint, 'retryAfterSeconds') && integer(hint.retryAfterSeconds, 1) === null) throw new Error('retryAfterSeconds is not a positive safe integer');
      if (Object.hasOwn(hint, 'cooldownUntil') && !utc(hint.cooldownUntil)) throw new Error('cooldownUntil is not a UTC date-time');
      if (Object.hasOwn(hint, 'backoffClass')) chosen(hint, 'backoffClass', ['sender', 'intent_ref', 'counterparty']);
      break;
    }
    case 'resolution':
      chosen(m, 'outcome', ['accepted', 'declined', 'escalated_to_human', 'expired']);
      bounded(m, 'counterpartyDid', 512, false);
      if (Object.hasOwn(m, 'details')) {
        if (!isObject(m.details)) throw new Error('details is not an object');
        bounded(m.details, 'scheduledAt', 64, false);
        bounded(m.details, 'duration', 64, false);
      }
      break;
    default:
      throw new Error('not a handshake message type');
  }
  return 'valid';
}

// A profile snapshot: a headline of at most 500 units, skills and interests (at most 50 of at
// most 100), openTo (at most 20 of at most 100), an optional availability with a timezone of at
// most 64 and meeting hours and response SLA of at most 200; nothing else.
function snapshot(s) {
  if (!isObject(s)) throw new Error('profileSnapshot is not an object');
  only(s, ['headline', 'skills', 'interests', 'openTo', 'availability']);
  bounded(s, 'headline', 500, true);
  listed(s, 'skills', true, 50, 100);
  listed(s, 'interests', true, 50, 100);
  listed(s, 'openTo', true, 20, 100);
  if (!Object.hasOwn(s, 'availability')) return;
  const a = s.availability;
  if (!isObject(a)) throw new Error('availability is not an object');
  only(a, ['timezone', 'meetingHours', 'responseSla']);
  bounded(a, 'timezone', 64, true);
  bounded(a, 'meetingHours', 200, false);
  bounded(a, 'responseSla', 200, false);
}

// INK's connection payloads: a request (method from INK's list, an optional introducer of at
// most 512 units, a context of at most 2,000, a profile snapshot) or a response (a status, an
// optional note of at most 1,000, an optional snapshot); unknown members refused.
function connection(kind, p) {
  if (!isObject(p)) throw new Error('the payload is not an object');
  if (kind === 'connection_request') {
    only(p, ['method', 'introducedBy', 'context', 'profileSnapshot']);
    chosen(p, 'method', ['qr', 'intro', 'discovery', 'import']);
    bounded(p, 'introducedBy', 512, false);
    bounded(p, 'context', 2000, true);
    snapshot(p.profileSnapshot);
  } else if (kind === 'connection_response') {
    only(p, ['status', 'profileSnapshot', 'note']);
    chosen(p, 'status', ['accepted', 'declined', 'pending']);
    bounded(p, 'note', 1000, false);
    if (Object.hasOwn(p, 'profileSnapshot')) snapshot(p.profileSnapshot);
  } else {
    throw new Error('not a connection payload kind');
  }
  return 'valid';
}

// INK's endpoint URL: at most 2,048 bytes, no control, space or backslash, no fragment,
// well-formed percent escapes, https://, then an authority without userinfo or escapes: a host
// of letters, digits, dots and hyphens or a bracketed IPv6 literal of hex digits, colons and
// dots, and an optional port 1 to 65535; then any path and query.
function endpointUrl(url) {
  if (typeof url !== 'string' || url === '' || Buffer.byteLength(url) > 2048) throw new Error('not an endpoint URL');
  if ([...url].some((c) => c <= ' ' || c === '\x7f') || url.includes('\\') || url.includes('#')) throw new Error('a control, space, backslash or fragment');
  if (/%(?![0-9A-Fa-f]{2})/.test(url) || !url.startsWith('https://')) throw new Error('a bad escape, or not https');
  const authority = url.slice('https://'.length).split(/[/?]/)[0];
  const m = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9.-]+))(?::([0-9]+))?$/.exec(authority);
  if (!m || (m[3] !== undefined && !(Number(m[3]) >= 1 && Number(m[3]) <= 65535))) throw new Error('not a plain host and port');
  return url;
}

const CARD_INTENTS = ['schedule_meeting', 'schedule_meeting_response', 'intro_request', 'intro_response', 'opportunity', 'opportunity_response', 'follow_up', 'ask', 'ask_response', 'connection_request', 'connection_response', 'context_share', 'ping', 'retract', 'multi_party_sync'];
const VISIBILITIES = ['public', 'network_only', 'capability_gated', 'private'];
const TRANSPORTS = ['ink_http', 'ink_ws', 'extension_api', 'voice', 'line_phone', 'human_review_queue'];
const KEY_STATUSES = ['active', 'retired', 'revoked'];

// INK's Agent Card: its required members (protocol, ids, handle, display name, endpoint,
// multibase key, capabilities, availability) and, when present, each optional section as INK
// bounds it; unknown top-level members ignored.
function card(c) {
  const need = (ok, why) => {
    if (!ok) throw new Error(why);
  };
  const has = (m, key) => Object.hasOwn(m, key);
  const obj = (value, what) => {
    need(isObject(value), `${what} is not an object`);
    return value;
  };
  const flag = (m, key, needed) => need(!(needed || has(m, key)) || typeof m[key] === 'boolean', `${key} is not a boolean`);
  const positive = (m, key) => need(!has(m, key) || integer(m[key], 1) !== null, `${key} is not a positive integer`);
  const choices = (m, key, needed, count, allowed) => {
    if (!has(m, key)) return need(!needed, `${key} is missing`);
    const items = m[key];
    return need(Array.isArray(items) && items.length <= count && items.every((i) => typeof i === 'string' && allowed.includes(i)), key);
  };
  const strict = (m, key, needed) => {
    if (!has(m, key) && !needed) return;
    need(typeof m[key] === 'string', `${key} is not a timestamp`);
    epochMs(m[key]);
  };
  const id128 = (v) => typeof v === 'string' && v.length >= 1 && v.length <= 128;
  const signature86 = (v) => typeof v === 'string' && /^[A-Za-z0-9_-]{86}$/.test(v);

  obj(c, 'the card');
  chosen(c, 'protocol', ['ink/0.1']);
  bounded(c, 'agentId', 512, true);
  bounded(c, 'ownerDid', 512, false);
  bounded(c, 'ownerHandle', 256, false);
  bounded(c, 'atprotoRecordUri', 2048, false);
  bounded(c, 'handle', 256, true);
  bounded(c, 'displayName', 200, true);
  endpointUrl(c.endpoint);
  if (has(c, 'inboxEndpoint')) need(endpointUrl(c.inboxEndpoint) === c.endpoint, 'inboxEndpoint differs from endpoint');
  bounded(c, 'publicKeyMultibase', 128, true);
  need(c.publicKeyMultibase.startsWith('z'), 'publicKeyMultibase is not z-multibase');
  if (has(c, 'profileSnapshot')) snapshot(c.profileSnapshot);
  const caps = obj(c.capabilities, 'capabilities');
  choices(caps, 'intentsAccepted', true, 32, CARD_INTENTS);
  choices(caps, 'intentsSent', true, 32, CARD_INTENTS);
  if (has(caps, 'receipts')) {
    const receipts = obj(caps.receipts, 'receipts');
    flag(receipts, 'send', true);
    choices(receipts, 'dispositions', true, 16, ['received', 'delivered', 'acted', 'rejected', 'expired']);
  }
  flag(caps, 'auditExchange', false);
  if (has(caps, 'thirdPartyAudit')) {
    const section = obj(caps.thirdPartyAudit, 'thirdPartyAudit');
    need(Array.isArray(section.services) && section.services.length <= 16, 'services');
    for (const service of section.services) {
      endpointUrl(obj(service, 'a service').endpoint);
      bounded(service, 'did', 512, true);
      bounded(service, 'publicKey', 256, true);
    }
    chosen(section, 'submitPolicy', ['all', 'high_value', 'none']);
  }
  const availability = obj(c.availability, 'availability');
  bounded(availability, 'timezone', 64, true);
  bounded(availability, 'meetingHours', 200, false);
  bounded(availability, 'responseSla', 200, false);
  if (has(c, 'keys')) {
    const keys = obj(c.keys, 'keys');
    for (const [role, algorithm] of [['signing', 'Ed25519'], ['encryption', 'X25519']]) {
      const entries = keys[role];
      need(Array.isArray(entries) && entries.length <= 32, `keys.${role}`);
      for (const entry of entries) {
        obj(entry, 'a key entry');
        need(typeof entry.keyId === 'string' && entry.keyId !== '', 'keyId');
        chosen(entry, 'algorithm', [algorithm]);
        need(typeof entry.publicKeyMultibase === 'string' && entry.publicKeyMultibase.startsWith('z'), 'publicKeyMultibase');
        chosen(entry, 'status', KEY_STATUSES);
        strict(entry, 'validFrom', true);
        strict(entry, 'validUntil', false);
        strict(entry, 'revokedAt', false);
        need(!has(entry, 'revokeReason') || typeof entry.revokeReason === 'string', 'revokeReason');
      }
    }
  }
  bounded(c, 'currentSigningKeyId', 128, false);
  bounded(c, 'currentEncryptionKeyId', 128, false);
  positive(c, 'keySetVersion');
  listed(c, 'supportedProtocolVersions', false, 8, 16);
  const visibility = has(c, 'visibility') ? c.visibility : 'public';
  need(typeof visibility === 'string' && VISIBILITIES.includes(visibility), 'visibility');
  if (has(c, 'discovery')) {
    const d = obj(c.discovery, 'discovery');
    flag(d, 'enabled', true);
    need(typeof d.scope === 'string' && VISIBILITIES.includes(d.scope), 'the discovery scope is not a visibility');
    need(VISIBILITIES.indexOf(d.scope) >= VISIBILITIES.indexOf(visibility), 'the discovery scope exposes more than the card');
    if (has(d, 'tags')) need(Array.isArray(d.tags) && d.tags.length <= 32 && d.tags.every((t) => typeof t === 'string' && t.length >= 1 && t.length <= 64), 'tags');
    flag(d, 'queryable', false);
    strict(d, 'updatedAt', false);
  }
  if (has(c, 'governance')) {
    const g = obj(c.governance, 'governance');
    positive(g, 'maxAcceptedDelegationDepth');
    if (has(g, 'supportedTransports')) need(Array.isArray(g.supportedTransports) && g.supportedTransports.every((t) => typeof t === 'string' && TRANSPORTS.includes(t)), 'supportedTransports');
    flag(g, 'supportsCapabilityGatedDiscovery', false);
    if (has(g, 'handshakeBudget')) {
      const budget = obj(g.handshakeBudget, 'handshakeBudget');
      positive(budget, 'maxChallengesPerCorrelation');
      positive(budget, 'maxIntentsPerMinute');
    }
  }
  if (has(c, 'cardSignature')) {
    const s = obj(c.cardSignature, 'cardSignature');
    need(id128(s.keyId) && signature86(s.signature), 'cardSignature');
  }
  if (has(c, 'rotationChain')) {
    const chain = c.rotationChain;
    need(Array.isArray(chain) && chain.length <= 32, 'rotationChain');
    for (const link of chain) {
      obj(link, 'a rotation link');
      need(has(link, 'keySetVersion'), 'a link has no keySetVersion');
      positive(link, 'keySetVersion');
      need(Array.isArray(link.signing) && link.signing.length >= 1 && link.signing.length <= 32, "a link's signing set");
      const seen = new Set();
      for (const entry of link.signing) {
        obj(entry, 'a rotation signing entry');
        const key = entry.publicKeyMultibase;
        need(id128(entry.keyId) && typeof key === 'string' && key.startsWith('z') && key.length <= 128, 'a signing entry');
        need(!seen.has(entry.keyId), 'a repeated keyId');
        seen.add(entry.keyId);
        chosen(entry, 'status', KEY_STATUSES);
      }
      need(id128(link.prevKeyId) && signature86(link.signature), "a link's prevKeyId or signature");
    }
  }
  strict(c, 'updatedAt', false);
  return 'valid';
}

// A decision as ink decide takes it, on its input.
function decide(c, canon) {
  if (c.decision === 'seed-containment') return { ok: containment(c.input) };
  if (c.decision === 'seed-discovery-gating') return { ok: discovery(c.input, canon) };
  if (c.decision === 'seed-transport-auth' && c.input.op === 'request') return { ok: endpoint(c.input, canon) };
  if (c.decision === 'inclusion-receipt') return { ok: receipt(c.input, canon) };
  if (c.decision === 'audit-query-response') return { ok: audit(c.input, canon) };
  if (c.decision === 'handshake-message') return { ok: handshake(c.input.message) };
  if (c.decision === 'connection-payload') return { ok: connection(c.input.kind, c.input.payload) };
  if (c.decision === 'agent-card') return { ok: card(c.input.card) };
  if (c.decision === 'seed-key-rotation') return { ok: rawRotation(c.input, canon) };
  if (c.decision === 'seed-witness' && c.input.op === 'leaf') return { ok: claimedLeaf(c.input, canon) };
  return { unsupported: true };
}

// A C2SP checkpoint body as INK reads it: three lines, each ended by a line feed; the origin
// non-empty, at most 256 UTF-16 code units, with no White_Space, control or '+'; the size
// decimal digits without sign or leading zero, below 2^53; the root 64 lowercase hex digits;
// the body at most 1,024 UTF-16 code units. A body that parses is its canonical form.
function checkpoint(body) {
  if (body.length > 1024) throw new Error('the body is past 1,024 UTF-16 code units');
  if (!body.endsWith('\n')) throw new Error('the body does not end with a line feed');
  const lines = body.slice(0, -1).split('\n');
  if (lines.length !== 3) throw new Error('a checkpoint body has three lines');
  const [origin, size, root] = lines;
  if (origin.length === 0 || origin.length > 256 || /[\p{White_Space}\p{Cc}+]/u.test(origin)) throw new Error('the origin');
  if (!/^(0|[1-9][0-9]*)$/.test(size) || !Number.isSafeInteger(Number(size))) throw new Error('the tree size');
  if (!/^[0-9a-f]{64}$/.test(root)) throw new Error('the root hash');
  return body;
}

// Freshness and replay: a nonce of 16 to 256 characters, a message at most 300000 ms old and
// at most 30000 ms ahead of the receiver's clock (both bounds inclusive), a nonce not seen.
function replay(c) {
  const length = [...c.nonce].length;
  if (length < 16 || length > 256) throw new Error('the nonce is not 16 to 256 characters');
  const sent = epochMs(c.messageTimestamp);
  const now = epochMs(c.receiverClock);
  if (now - sent > 300000) throw new Error('stale');
  if (sent - now > 30000) throw new Error('future');
  if (c.previouslySeenNonces.includes(c.nonce)) throw new Error('replay');
  return 'valid';
}

export const libraries = {
  ink: {
    load: async () => {
      const canon = (await import('canonicalize')).default;
      const sha256 = (data) => createHash('sha256').update(data).digest('hex');
      return jsonCase(async (c) => {
        if (c.op === 'body') return { ok: canon(JSON.parse(c.body)) };
        if (c.op === 'principal') return { ok: principal(c.agentId) };
        if (c.op === 'checkpoint') return { ok: checkpoint(c.checkpoint) };
        if (c.op === 'inclusion') return { ok: inclusion(c) };
        if (c.op === 'decide') return decide(c, canon);
        if (['node', 'root', 'submit', 'witness-checkpoint', 'chain', 'audit-response'].includes(c.op)) return { ok: witness(c, canon) };
        if (c.op === 'timestamp') return { ok: String(epochMs(c.timestamp)) };
        if (c.op === 'replay') return { ok: replay(c) };
        if (c.op === 'leaf') {
          const event = JSON.parse(c.event);
          if (typeof event !== 'object' || event === null || Array.isArray(event)) throw new Error('an event is an object');
          return { ok: eventLeaf(event, canon) };
        }
        const base = signatureBase(c, canon(JSON.parse(c.body)), c.timestamp);
        if (c.op === 'signed') return { ok: signed(c, base) };
        if (c.op === 'rotation') return { ok: rotation(c, base) };
        return { ok: sha256(Buffer.from(base, 'utf8')) };
      });
    },
    uses: openssl,
  },
};
