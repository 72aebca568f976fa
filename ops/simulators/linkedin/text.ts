/** LinkedIn's "little" text as LinkedIn shows it, and the counts its limits use. */

const RESERVED = /[\\|{}@[\]()<>#*_~]/;

/** What LinkedIn shows for a commentary: escapes resolved, links, hashtags and mentions kept, cut at the first stray reserved character. */
export function renderLittleText(src: string): { text: string; truncated: boolean } {
  let out = '';
  let i = 0;
  while (i < src.length) {
    const rest = src.slice(i);
    if (src[i] === '\\' && i + 1 < src.length) {
      const next = String.fromCodePoint(src.codePointAt(i + 1)!);
      out += next;
      i += 1 + next.length;
      continue;
    }
    const token = /^https?:\/\/[^\s]+/.exec(rest) ?? /^#[\p{L}\p{N}]+/u.exec(rest);
    if (token) {
      out += token[0];
      i += token[0].length;
      continue;
    }
    const mention = /^@\[([^\]]+)\]\(urn:li:(?:person|organization):[^)]+\)/.exec(rest);
    const hashtag = /^\{hashtag\|\\#\|([^}]+)\}/.exec(rest);
    if (mention || hashtag) {
      out += mention ? mention[1] : `#${hashtag![1]}`;
      i += (mention ?? hashtag)![0].length;
      continue;
    }
    if (RESERVED.test(src[i]!)) return { text: out, truncated: true };
    out += src[i];
    i += 1;
  }
  return { text: out, truncated: false };
}

export const titleUnits = (s: string) => s.replace(/\r\n|\r|\n/g, '\n\n').length;
export const codePoints = (s: string) => [...s].length;
export const isImageBytes = (b: Buffer) =>
  (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) || b.subarray(0, 4).toString('latin1') === '\x89PNG' || b.subarray(0, 4).toString('latin1') === 'GIF8';
export const isMp4Bytes = (b: Buffer) => b.subarray(4, 8).toString('latin1') === 'ftyp';
export const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
