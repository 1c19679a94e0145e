// What every family's worker module shares: the strict UTF-8 decoder, well-formed messages,
// rejections, error kinds, and answering a line that holds a JSON case.
import { createHash } from 'node:crypto';

export { createHash };

// Errors are answered by their message alone: capturing each one's stack is work thrown away.
Error.stackTraceLimit = 0;
export const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

// Messages may quote half of a surrogate pair; answers must stay valid Unicode.
export const wellFormed = (value) => String(value).toWellFormed();
export const rejected = (e) => ({ error: { kind: 'rejected', message: wellFormed(e && e.message), offset: 0 } });

export function kindOf(error) {
  const message = String(error && error.message);
  if (error instanceof RangeError && /call stack/i.test(message)) return 'depth_limit';
  return 'other';
}

// Answers a line holding a JSON case: not JSON is not a case; a thrown error is a rejection.
export function jsonCase(answer) {
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

// node:crypto's OpenSSL, for the provenance of what computes with it.
export const openssl = `node:crypto, OpenSSL ${process.versions.openssl}`;
