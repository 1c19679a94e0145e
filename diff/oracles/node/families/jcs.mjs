// JCS: the npm canonicalizers, each handed the value JSON.parse reads, as each library would
// be. A host of several hands them one reading of an input (readJcs, canonicalized).
import { decoder, kindOf, wellFormed } from '../common.mjs';

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
export function readJcs(bytes) {
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
export function canonicalized(canon, read) {
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

// The answer function of a JCS library; its `shared` lets a host hand several libraries one
// reading of an input: `read` reads it once, `answer` answers what was read.
function jcs(canon) {
  const one = (bytes) => canonicalized(canon, readJcs(bytes));
  one.shared = { read: readJcs, answer: (read) => canonicalized(canon, read) };
  return one;
}

// The libraries of the family by the name the harness gives them: how each is loaded, and
// what it computes with (plain JavaScript: nothing to name).
export const libraries = {
  canonicalize: { load: async () => jcs((await import('canonicalize')).default) },
  'json-canonicalize': { load: async () => jcs((await import('json-canonicalize')).canonicalize) },
  'json-canon': { load: async () => jcs((await import('json-canon')).default) },
  '@truestamp/canonify': { load: async () => jcs((await import('@truestamp/canonify')).canonify) },
};
