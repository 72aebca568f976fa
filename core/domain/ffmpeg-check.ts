import { invalidInput, type HeraldError } from './errors';
import {
  BITSTREAM_FILTERS, CODEC_PARAM_KEYS, CODECS, COMMON_FILTER_OPTIONS, DEMUXERS, FFLAGS, FILTERS, LOGLEVELS, MOVFLAGS, MUXERS, OPTIONS,
  type OptionRule, type ValueKind,
} from './ffmpeg-allow-list';
import { GraphSyntaxError, parseDictionary, parseFilterArguments, parseFiltergraph } from './ffmpeg-syntax';

/**
 * The check of a media job's ffmpeg arguments by allow-list, on what ffmpeg will read: each
 * option by its name and stream specifier, each value by its kind, each filter graph parsed and
 * unescaped the way libavfilter does (ffmpeg-syntax.ts) before its filters and their options are
 * looked up. Run at intake on the parsed template and again by the runner before ffmpeg starts.
 */

export const refuse = (what: string): HeraldError =>
  invalidInput(`Unsafe media command: ${what}.`, { violations: [{ field: 'full_command', message: what }] }, 'unsafe_command');

/** The longest single value (a filter graph, a title) a template may give. */
const MAX_VALUE_LENGTH = 2048;

const own = <T>(table: Record<string, T>, key: string): T | undefined => (Object.hasOwn(table, key) ? table[key] : undefined);
const quoted = (text: string): string => JSON.stringify(text.length > 80 ? `${text.slice(0, 77)}...` : text);

const PATTERNS: Partial<Record<ValueKind, RegExp>> = {
  int: /^-?\d{1,12}$/,
  number: /^-?\d{1,12}(\.\d{1,12})?$/,
  time: /^-?(\d{1,12}:){0,2}\d{1,12}(\.\d{1,12})?(s|ms|us)?$/,
  rate: /^(\d{1,12}(\.\d{1,12})?([/:]\d{1,12}(\.\d{1,12})?)?|ntsc|pal|qntsc|qpal|sntsc|spal|film|ntsc-film)$/,
  size: /^(\d{1,5}x\d{1,5}|[a-z0-9]{2,8})$/,
  bitrate: /^\d{1,12}(\.\d{1,6})?[kKmMgG]?$/,
  word: /^[A-Za-z0-9_.+-]{1,64}$/,
  fourcc: /^[A-Za-z0-9 ]{4}$/,
  disposition: /^(0|[+-]?[a-z_]{1,32}([+-][a-z_]{1,32}){0,16})$/,
};

/** The input index a stream reference (`-map 1:v`, `[1:a]`) names, or null when it names none. */
const inputIndex = (reference: string): number | null => {
  const m = /^-?(\d+)(?=$|:|\?)/.exec(reference);
  return m ? Number(m[1]) : null;
};

interface CheckContext {
  available: number;
  /** The option the value belongs to, for messages: `-vf`. */
  option: string;
}

function checkInputReference(reference: string, ctx: CheckContext, what: string): void {
  const index = inputIndex(reference);
  if (index !== null && index >= ctx.available) throw refuse(`${what} ${quoted(reference)} of ${ctx.option}: the request has ${ctx.available} input file${ctx.available === 1 ? '' : 's'}`);
}

function checkFlagList(value: string, allowed: Set<string>, ctx: CheckContext): void {
  const flags = value.split(/(?=[+-])/).map((flag) => flag.replace(/^[+-]/, ''));
  for (const flag of flags) if (!allowed.has(flag)) throw refuse(`the flag ${quoted(flag)} of ${ctx.option}: not one a media job may set`);
}

/** A filter graph: every filter allowed, every option of it allowed by name, every label plain. */
function checkFiltergraph(graph: string, ctx: CheckContext): void {
  let filters;
  try {
    filters = parseFiltergraph(graph);
  } catch (err) {
    if (err instanceof GraphSyntaxError) throw refuse(`the filter graph of ${ctx.option}: ${err.message}`);
    throw err;
  }
  for (const filter of filters) {
    for (const label of [...filter.inputs, ...filter.outputs]) {
      if (!/^[A-Za-z0-9_.:]{1,64}$/.test(label)) throw refuse(`the link label ${quoted(label)} in ${ctx.option}: labels are letters, digits and "_.:"`);
      checkInputReference(label, ctx, 'the stream');
    }
    const rule = own(FILTERS, filter.name);
    if (!rule) throw refuse(`the filter ${quoted(filter.name)} in ${ctx.option} (as ffmpeg reads it): not one a media job may use`);
    if (filter.instance !== null && !/^[A-Za-z0-9_]{1,32}$/.test(filter.instance)) throw refuse(`the filter instance name ${quoted(filter.instance)} in ${ctx.option}`);
    if (filter.args === null) continue;
    let positional = 0;
    let named = false;
    for (const { key, value } of parseFilterArguments(filter.args)) {
      if (key === null) {
        // ffmpeg gives a value without a name to the filter's next option in declared order.
        if (named || positional >= rule.positional) {
          throw refuse(`the value ${quoted(value)} without an option name for the filter "${filter.name}" in ${ctx.option}: name the option (${rule.options.join(', ') || 'it takes none'})`);
        }
        positional += 1;
      } else {
        named = true;
        if (!rule.options.includes(key) && !COMMON_FILTER_OPTIONS.includes(key)) {
          throw refuse(`the option ${quoted(key)} of the filter "${filter.name}" in ${ctx.option} (as ffmpeg reads it): not one a media job may set`);
        }
      }
      if (value.length > MAX_VALUE_LENGTH) throw refuse(`a value of the filter "${filter.name}" longer than ${MAX_VALUE_LENGTH} characters`);
    }
  }
}

function checkValue(kind: ValueKind, value: string, ctx: CheckContext): void {
  const pattern = PATTERNS[kind];
  if (pattern) {
    if (!pattern.test(value)) throw refuse(`the value ${quoted(value)} of ${ctx.option}`);
    return;
  }
  const set = (allowed: Set<string>, what: string) => {
    if (!allowed.has(value)) throw refuse(`the ${what} ${quoted(value)} of ${ctx.option}: not one a media job may use`);
  };
  switch (kind) {
    case 'codec': return set(CODECS, 'codec');
    case 'muxer': return set(MUXERS, 'output format');
    case 'demuxer': return set(DEMUXERS, 'input format');
    case 'loglevel': return set(LOGLEVELS, 'log level');
    case 'bsf':
      for (const name of value.split(',')) if (!BITSTREAM_FILTERS.has(name)) throw refuse(`the bitstream filter ${quoted(name)} of ${ctx.option}: not one a media job may use`);
      return;
    case 'movflags': return checkFlagList(value, MOVFLAGS, ctx);
    case 'fflags': return checkFlagList(value, FFLAGS, ctx);
    case 'map':
      if (!/^(-?\d{1,3}(:[vVasdt](:\d{1,3})?|:\d{1,3})?\??|\[[A-Za-z0-9_.:]{1,64}\])$/.test(value)) throw refuse(`the stream map ${quoted(value)} of ${ctx.option}`);
      return checkInputReference(value, ctx, 'the stream');
    case 'map_metadata':
      if (!/^-?\d{1,3}(:[gsc](:\d{1,3})?)?$/.test(value)) throw refuse(`the value ${quoted(value)} of ${ctx.option}`);
      return value.startsWith('-') ? undefined : checkInputReference(value, ctx, 'the input');
    case 'metadata':
      if (!/^[A-Za-z0-9_.-]{1,64}=/.test(value)) throw refuse(`the metadata ${quoted(value)} of ${ctx.option}: write key=value`);
      if (value.length > MAX_VALUE_LENGTH) throw refuse(`metadata longer than ${MAX_VALUE_LENGTH} characters`);
      return;
    case 'codec_params': {
      const pairs = parseDictionary(value);
      if (!pairs) throw refuse(`the parameters ${quoted(value)} of ${ctx.option}: write key=value:key=value`);
      for (const [key, param] of pairs) {
        if (!CODEC_PARAM_KEYS.has(key)) throw refuse(`the parameter ${quoted(key)} of ${ctx.option} (as the encoder reads it): not one a media job may set`);
        if (!/^[A-Za-z0-9_.,+\-/]{1,64}$/.test(param)) throw refuse(`the value ${quoted(param)} of the parameter "${key}" of ${ctx.option}`);
      }
      return;
    }
    case 'filtergraph':
      if (value.length > MAX_VALUE_LENGTH) throw refuse(`a filter graph longer than ${MAX_VALUE_LENGTH} characters`);
      return checkFiltergraph(value, ctx);
    default:
      throw refuse(`the value ${quoted(value)} of ${ctx.option}`);
  }
}

const STREAM_SPECIFIER = /^([vVasdt]|\d{1,3})(:\d{1,3})?$/;
const METADATA_SPECIFIER = /^(g|s(:[vVasdt])?(:\d{1,3})?|s:\d{1,3}|c:\d{1,3}|p:\d{1,3})$/;
const PLACEHOLDER_ARG = /^\{(input(\d+)|output)\}$/;

/**
 * Checks an argument vector (placeholders as whole arguments, `{input<n>}` and `{output}`) and
 * answers how many inputs it reads. Refuses with 400 `unsafe_command`, naming the token.
 */
export function checkCommandArguments(args: readonly string[], available: number): number {
  const inputs = new Set<number>();
  let outputs = 0;
  /** Options given since the last file argument: they apply to the next one (ffmpeg's rule). */
  let pending: Array<{ option: string; rule: OptionRule; value?: string }> = [];
  const settle = (place: 'input' | 'output') => {
    for (const { option, rule, value } of pending) {
      if (rule.place !== 'any' && rule.place !== place) throw refuse(`the ${rule.place} option ${option} before ${place === 'input' ? 'an -i' : '{output}'}: it applies to ${rule.place === 'input' ? 'inputs' : 'the output'} only`);
      if (rule.value === 'muxer' && value !== undefined) checkValue(place === 'input' ? 'demuxer' : 'muxer', value, { available, option });
    }
    pending = [];
  };
  for (let i = 0; i < args.length; i += 1) {
    const token = args[i]!;
    if (/[\p{Cc}]/u.test(token.replace(/\n/g, ''))) throw refuse(`a control character in ${quoted(token)}`);
    const placeholder = PLACEHOLDER_ARG.exec(token);
    if (placeholder) {
      if (placeholder[1] !== 'output') throw refuse(`${token} without -i before it: inputs are read only with -i {input…}`);
      settle('output');
      outputs += 1;
      continue;
    }
    if (!token.startsWith('-') || token === '-') {
      throw refuse(`${quoted(token)} where ffmpeg expects a file name: write the output only as {output}`);
    }
    const colon = token.indexOf(':');
    const name = colon < 0 ? token.slice(1) : token.slice(1, colon);
    const specifier = colon < 0 ? null : token.slice(colon + 1);
    if (name === 'i') {
      const value = args[i + 1];
      const input = value === undefined ? null : PLACEHOLDER_ARG.exec(value);
      if (!input || input[1] === 'output' || specifier !== null) throw refuse(`-i ${value ?? '(nothing)'}: -i takes only an input placeholder ({input}, {input1}, …)`);
      const index = Number(input[2]);
      if (index >= available) {
        throw refuse(`${value}: the request has ${available} input file${available === 1 ? '' : 's'} (${Array.from({ length: available }, (_, n) => `{input${n}}`).join(', ') || 'none'})`);
      }
      settle('input');
      inputs.add(index);
      i += 1;
      continue;
    }
    const rule = own(OPTIONS, name);
    if (!rule) throw refuse(`the option -${name}: not one a media job may use`);
    if (specifier !== null) {
      const allowed = rule.streams === 'metadata' ? METADATA_SPECIFIER : rule.streams ? STREAM_SPECIFIER : null;
      if (!allowed?.test(specifier)) throw refuse(`the stream specifier ${quoted(specifier)} of -${name}`);
    }
    if (rule.value === 'flag') {
      pending.push({ option: token, rule });
      continue;
    }
    const value = args[i + 1];
    if (value === undefined || PLACEHOLDER_ARG.test(value)) throw refuse(`${token} without a value`);
    i += 1;
    // -f is checked when it is known whether it names the input's or the output's format.
    if (rule.value !== 'muxer') checkValue(rule.value, value, { available, option: token });
    pending.push({ option: token, rule, value });
  }
  if (pending.length) throw refuse(`${pending.map((p) => p.option).join(' ')} after {output}: options go before the file they apply to`);
  if (outputs !== 1) throw refuse(outputs ? '{output} more than once' : 'no {output}: the template must write {output}');
  if (inputs.size === 0) throw refuse('no input: the template must read {input}');
  const inputCount = Math.max(...inputs) + 1;
  for (let n = 0; n < inputCount; n += 1) if (!inputs.has(n)) throw refuse(`{input${n}} is never read while a later input is`);
  return inputCount;
}

/** An input's probed container (ffprobe's comma-separated names), checked against the demuxers a job may read. */
export function refusedInputFormat(format: string | null): string | null {
  if (format === null) return null;
  return format.split(',').find((name) => !DEMUXERS.has(name)) ?? null;
}
