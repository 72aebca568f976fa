/** Bluesky's text: counted in graphemes, and rich text as facets with UTF-8 byte offsets. */
import type { Json } from '../kit/http';

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
/** How Bluesky counts post text (a grapheme may be several code points: 👍🏽 is one). */
export const graphemeCount = (text: string): number => [...graphemes.segment(text)].length;

export const utf8Length = (s: string): number => Buffer.byteLength(s, 'utf8');

export interface Facet { index: { byteStart: number; byteEnd: number }; features: Json[] }

interface Span { start: number; end: number; value: string }

function spans(text: string, pattern: RegExp, tidy: (s: string) => string): Span[] {
  const found: Span[] = [];
  for (const match of text.matchAll(pattern)) {
    const lead = match[1] ?? '';
    const start = match.index! + lead.length;
    const value = tidy(match[0].slice(lead.length));
    if (value) found.push({ start, end: start + value.length, value });
  }
  return found;
}

/** Trailing punctuation ends a sentence, not the URL; a closing bracket belongs to it only if it opened one. */
function trimUrl(url: string): string {
  let out = url.replace(/[.,;:!?'"]+$/, '');
  while (out.endsWith(')') && (out.match(/\(/g)?.length ?? 0) < (out.match(/\)/g)?.length ?? 0)) out = out.slice(0, -1).replace(/[.,;:!?'"]+$/, '');
  return out;
}

const byteIndex = (text: string, span: Span) => ({ byteStart: utf8Length(text.slice(0, span.start)), byteEnd: utf8Length(text.slice(0, span.end)) });

/** Facets for the text; handles that do not resolve stay plain text. */
export async function detectFacets(text: string, resolveHandle: (handle: string) => Promise<string | undefined>): Promise<Facet[]> {
  const facets: Facet[] = [];
  for (const link of spans(text, /(^|[\s(])https?:\/\/[^\s<>"]+/g, (s) => trimUrl(s))) {
    facets.push({ index: byteIndex(text, link), features: [{ $type: 'app.bsky.richtext.facet#link', uri: link.value }] });
  }
  const handle = /(^|[\s(])@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+/g;
  for (const mention of spans(text, handle, (s) => s)) {
    const did = await resolveHandle(mention.value.slice(1).toLowerCase());
    if (did) facets.push({ index: byteIndex(text, mention), features: [{ $type: 'app.bsky.richtext.facet#mention', did }] });
  }
  for (const tag of spans(text, /(^|\s)[#＃][^\s#＃]+/gu, (s) => s.replace(/\p{P}+$/u, ''))) {
    const name = tag.value.slice(1);
    // A tag needs a non-digit, and Bluesky caps tags at 64 graphemes.
    if (!/\D/.test(name) || graphemeCount(name) > 64) continue;
    facets.push({ index: byteIndex(text, tag), features: [{ $type: 'app.bsky.richtext.facet#tag', tag: name }] });
  }
  return facets.sort((a, b) => a.index.byteStart - b.index.byteStart);
}
