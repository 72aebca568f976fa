/**
 * X's text rules: its weighted counting (twitter-text v3: most scripts 1, CJK and emoji 2, links
 * 23), link stripping and thread splitting.
 */

export const TWEET_MAX_WEIGHT = 280;
/** The longest single post X accepts (Premium); threads have no overall cap, so this bounds the text too. */
export const LONG_POST_MAX_WEIGHT = 25_000;

const LIGHT_RANGES: ReadonlyArray<readonly [number, number]> = [[0, 4351], [8192, 8205], [8208, 8223], [8242, 8247]];
const LINK_WEIGHT = 23;
const TLDS = 'com|net|org|io|co|me|app|dev|ly|gg|tv|ai|xyz|info|biz|edu|gov|us|uk|de|fr|es|it|nl|ca|au|jp|in|br|ch|se|eu|news|blog|site|online|shop|store|tech|link|page|live';
/** What X turns into a link: scheme URLs, www. hosts and bare domains with a common TLD. */
const LINK_PATTERN = new RegExp(
  String.raw`(?<![\w@./-])(?:https?:\/\/[^\s<>"]+|www\.[^\s<>"]+|(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+(?:${TLDS})(?![\w-])(?:[/?#][^\s<>"]*)?)`,
  'giu',
);
const TRAILING_PUNCTUATION = /[.,;:!?'")\]}]+$/u;
const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

function linkSpans(text: string): Array<[number, number]> {
  return [...text.matchAll(LINK_PATTERN)].map((m) => [m.index, m.index + m[0].replace(TRAILING_PUNCTUATION, '').length]);
}

function plainWeight(text: string): number {
  let weight = 0;
  for (const { segment } of segmenter.segment(text)) {
    if (segment.codePointAt(0)! > 0xff && /\p{Extended_Pictographic}/u.test(segment)) {
      weight += 2;
      continue;
    }
    for (const char of segment) {
      const cp = char.codePointAt(0)!;
      weight += LIGHT_RANGES.some(([from, to]) => cp >= from && cp <= to) ? 1 : 2;
    }
  }
  return weight;
}

/** The length X counts for a post text. */
export function xWeightedLength(text: string): number {
  const normalized = text.normalize('NFC');
  let weight = 0;
  let at = 0;
  for (const [start, end] of linkSpans(normalized)) {
    weight += plainWeight(normalized.slice(at, start)) + LINK_WEIGHT;
    at = end;
  }
  return weight + plainWeight(normalized.slice(at));
}

/** Removes links line by line; a line that held only links goes with them, so paragraphs stay as they were. */
export function stripLinks(text: string): { text: string; removed: number } {
  let removed = 0;
  const lines: string[] = [];
  for (const line of text.split('\n')) {
    const spans = linkSpans(line);
    if (!spans.length) {
      lines.push(line);
      continue;
    }
    removed += spans.length;
    let out = line;
    for (const [start, end] of spans.reverse()) {
      // Take one neighbouring space with the link so no double space is left behind.
      const from = start > 0 && out[start - 1] === ' ' ? start - 1 : start;
      const to = from === start && out[end] === ' ' ? end + 1 : end;
      out = out.slice(0, from) + out.slice(to);
    }
    if (out.trim() !== '') lines.push(out.trimEnd());
  }
  return { text: lines.join('\n').trim(), removed };
}

/** Greedy packing of items joined by `sep`; an item too long on its own is cut by `split`. */
function pack(items: string[], sep: string, fits: (s: string) => boolean, split: (item: string) => string[]): string[] {
  const out: string[] = [];
  let current = '';
  for (const item of items) {
    if (current && fits(`${current}${sep}${item}`)) {
      current = `${current}${sep}${item}`;
      continue;
    }
    if (current) out.push(current);
    if (fits(item)) {
      current = item;
      continue;
    }
    const pieces = split(item);
    out.push(...pieces.slice(0, -1));
    current = pieces[pieces.length - 1] ?? '';
  }
  if (current) out.push(current);
  return out;
}

/**
 * The spec's thread rule: blank-line-separated paragraphs are grouped up to 280 weighted
 * characters per tweet; an over-long paragraph is split by line break, then by word (and a single
 * over-long word by character).
 */
export function splitIntoThread(text: string, limit = TWEET_MAX_WEIGHT): string[] {
  const fits = (s: string) => xWeightedLength(s) <= limit;
  const byCharacter = (word: string) => pack([...segmenter.segment(word)].map((s) => s.segment), '', fits, (g) => [g]);
  const byWord = (line: string) => pack(line.split(/ +/).filter(Boolean), ' ', fits, byCharacter);
  const byLine = (paragraph: string) => pack(paragraph.split('\n').map((l) => l.trimEnd()).filter((l) => l.trim()), '\n', fits, byWord);
  const paragraphs = text.split(/\n[ \t]*\n\s*/).map((p) => p.trim()).filter(Boolean);
  return pack(paragraphs, '\n\n', fits, byLine);
}

