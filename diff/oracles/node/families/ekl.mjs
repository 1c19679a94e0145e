// ekl from its definitions, with npm canonicalize for JCS: salted
// fingerprints of values and tool results, and endpoint challenge proofs.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { jsonCase, openssl } from '../common.mjs';

export const libraries = {
  ekl: {
    load: async () => {
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
    },
    uses: openssl,
  },
};
