/** LinkedIn's text formats: the "little" text of commentary, and media titles counted in UTF-16 units. */

/**
 * LinkedIn's "little" text format reserves `\ | { } @ [ ] ( ) < > # * _ ~`: unescaped, LinkedIn
 * silently cuts the commentary at the first one. URLs are kept whole so they still link, and
 * `#word` stays a hashtag, which is what an author means by it.
 */
export function escapeLittleText(text: string): string {
  return text
    .split(/(https?:\/\/[^\s]+|(?<![\p{L}\p{N}_\\])#[\p{L}\p{N}]+)/u)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/[\\|{}@[\]()<>#*_~]/g, (c) => `\\${c}`)))
    .join('');
}

/** LinkedIn counts media titles in UTF-16 units, a line break as two. */
export function linkedinTitleLength(title: string): number {
  return title.replace(/\r\n|\r|\n/g, '\n\n').length;
}

/** The longest start of `title` within `maxUnits` as linkedinTitleLength counts. */
export function trimTitle(title: string, maxUnits: number): string {
  let used = 0;
  let out = '';
  for (const [piece] of title.matchAll(/\r\n|\r|\n|[\s\S]/gu)) {
    const cost = /^[\r\n]/.test(piece) ? 2 : piece.length;
    if (used + cost > maxUnits) break;
    used += cost;
    out += piece;
  }
  return out.trimEnd();
}
