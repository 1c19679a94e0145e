// INK from its definitions, with npm canonicalize for JCS: audit events' leaf hashes and
// requests' signature bases.
import { createHash } from 'node:crypto';
import { jsonCase, openssl } from '../common.mjs';

export const libraries = {
  ink: {
    load: async () => {
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
    },
    uses: openssl,
  },
};
