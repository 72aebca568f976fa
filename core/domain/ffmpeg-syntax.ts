/**
 * ffmpeg's own readers of the strings it is given, rewritten to the letter so that what Herald
 * checks is what ffmpeg will act on, after every level of unescaping:
 * - `av_get_token` (libavutil/avstring.c): leading white space skipped; `\x` is `x`; `'…'` is
 *   taken as it is; the token ends at an unescaped, unquoted terminator; trailing white space
 *   that was neither escaped nor quoted is dropped.
 * - the filtergraph grammar of libavfilter's graph parser: chains of `[in]name@id=args[out]`,
 *   filters split by `,` (and `;`, which templates never contain), the name read with
 *   av_get_token up to `=,;[`, the arguments with av_get_token up to `[],;`.
 * - a filter's arguments as `process_options` reads them: `key=value` pairs split by `:`, a key
 *   being the characters of libavutil's `is_key_char` followed by `=`, else a value for the next
 *   option in the filter's declared order; each value read with av_get_token up to `:`.
 * - `av_dict_parse_string` (`key=value:key=value`, both sides through av_get_token), which codec
 *   options such as `-x264-params` go through.
 */

const WHITESPACE = ' \n\t\r';

/** One av_get_token call: the token, and where in `text` the reading stopped. */
export function avGetToken(text: string, start: number, terminators: string): { token: string; end: number } {
  let p = start;
  while (p < text.length && WHITESPACE.includes(text[p]!)) p += 1;
  let out = '';
  let keep = 0; // out's length up to which trailing white space is kept (escaped or quoted)
  while (p < text.length && !terminators.includes(text[p]!)) {
    const c = text[p++]!;
    if (c === '\\' && p < text.length) {
      out += text[p++];
      keep = out.length;
    } else if (c === "'") {
      while (p < text.length && text[p] !== "'") out += text[p++];
      if (p < text.length) {
        p += 1;
        keep = out.length;
      }
    } else {
      out += c;
    }
  }
  let end = out.length;
  while (end > keep && WHITESPACE.includes(out[end - 1]!)) end -= 1;
  return { token: out.slice(0, end), end: p };
}

const isKeyChar = (c: string | undefined): boolean => c !== undefined && /[A-Za-z0-9_\-/.]/.test(c);

/** One `key=value` or bare value of a filter's arguments, as process_options reads it. */
export interface FilterArgument {
  /** The key as written, or null for a value that goes to the next option in declared order. */
  key: string | null;
  value: string;
}

/** A filter's argument string (already unescaped once by the graph parser) as its options. */
export function parseFilterArguments(args: string): FilterArgument[] {
  const out: FilterArgument[] = [];
  let p = 0;
  while (p < args.length) {
    // get_key: white space, key characters, white space, then "=" or no key at all.
    let q = p;
    while (q < args.length && WHITESPACE.includes(args[q]!)) q += 1;
    const keyStart = q;
    while (isKeyChar(args[q])) q += 1;
    const keyEnd = q;
    while (q < args.length && WHITESPACE.includes(args[q]!)) q += 1;
    let key: string | null = null;
    if (args[q] === '=' ) {
      key = args.slice(keyStart, keyEnd);
      p = q + 1;
    }
    const value = avGetToken(args, p, ':');
    out.push({ key, value: value.token });
    p = value.end;
    if (p < args.length) p += 1; // the ":"
  }
  return out;
}

/** A filter of a parsed graph: link labels, name (without `@id`), instance id, arguments text. */
export interface GraphFilter {
  inputs: string[];
  name: string;
  instance: string | null;
  /** The argument string after the graph parser's unescaping, null without `=`. */
  args: string | null;
  outputs: string[];
}

export class GraphSyntaxError extends Error {}

function readLabels(text: string, at: number): { labels: string[]; end: number } {
  const labels: string[] = [];
  let p = at;
  while (text[p] === '[') {
    const label = avGetToken(text, p + 1, ']');
    if (text[label.end] !== ']') throw new GraphSyntaxError(`an unclosed "[" in "${text.slice(p)}"`);
    if (!label.token) throw new GraphSyntaxError(`an empty link label in "${text.slice(p)}"`);
    labels.push(label.token);
    p = label.end + 1;
    while (p < text.length && WHITESPACE.includes(text[p]!)) p += 1;
  }
  return { labels, end: p };
}

/** A filtergraph description as libavfilter's parser reads it (filters in order). */
export function parseFiltergraph(text: string): GraphFilter[] {
  const filters: GraphFilter[] = [];
  let p = 0;
  const skip = () => { while (p < text.length && WHITESPACE.includes(text[p]!)) p += 1; };
  skip();
  if (text.startsWith('sws_flags=', p)) throw new GraphSyntaxError('"sws_flags=" at the start of a graph');
  for (;;) {
    skip();
    const inputs = readLabels(text, p);
    p = inputs.end;
    const name = avGetToken(text, p, '=,;[');
    p = name.end;
    let args: string | null = null;
    if (text[p] === '=') {
      const read = avGetToken(text, p + 1, '[],;');
      args = read.token;
      p = read.end;
    }
    const outputs = readLabels(text, p);
    p = outputs.end;
    const at = name.token.indexOf('@');
    filters.push({
      inputs: inputs.labels,
      name: at < 0 ? name.token : name.token.slice(0, at),
      instance: at < 0 ? null : name.token.slice(at + 1),
      args,
      outputs: outputs.labels,
    });
    skip();
    const separator = text[p];
    if (separator === undefined) return filters;
    p += 1;
    if (separator !== ',' && separator !== ';') throw new GraphSyntaxError(`"${text.slice(p - 1)}" where a filter or "," was expected`);
  }
}

/** `key=value:key=value` as av_dict_parse_string reads it; null when ffmpeg would refuse it. */
export function parseDictionary(text: string): Array<[string, string]> | null {
  const out: Array<[string, string]> = [];
  let p = 0;
  while (p < text.length) {
    const key = avGetToken(text, p, '=');
    if (!key.token || text[key.end] !== '=') return null;
    const value = avGetToken(text, key.end + 1, ':');
    if (!value.token) return null;
    out.push([key.token, value.token]);
    p = value.end;
    if (p < text.length) p += 1;
  }
  return out;
}
