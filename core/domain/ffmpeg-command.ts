import { invalidInput, type HeraldError } from './errors';

/**
 * Media-processing command templates, safe by construction: the caller's text is parsed here
 * into an argument vector (never given to a shell) in which the inputs and the output appear only
 * as whole placeholder arguments (`{input0}`, `{input1}`, …, `{output}`) that the runner replaces
 * with paths it chooses. Everything that could name another file, reach the network or write
 * outside the job's scratch directory is refused with 400 `unsafe_command`, naming what was refused.
 */

export const OUTPUT_PLACEHOLDER = '{output}';
export const inputPlaceholder = (index: number): string => `{input${index}}`;

/** A parsed command: ffmpeg's arguments (without the program name), placeholders as whole arguments. */
export interface CommandTemplate {
  args: string[];
  /** How many inputs the command reads: `{input0}` … `{input<n-1>}`. */
  inputCount: number;
}

const refuse = (what: string): HeraldError =>
  invalidInput(`Unsafe media command: ${what}.`, { violations: [{ field: 'full_command', message: what }] }, 'unsafe_command');

/** Characters the spec blocks anywhere in a template (command chaining, pipes, substitution). */
const BLOCKED_CHARACTERS: Array<[string, string]> = [
  ['$(', 'command substitution "$("'],
  [';', 'the character ";"'],
  ['|', 'the character "|"'],
  ['&', 'the character "&"'],
  ['`', 'the backtick character'],
  ['$', 'the character "$"'],
];

/** Programs that destroy or move files, or fetch and run things: refused as words of a template. */
const DESTRUCTIVE_COMMANDS = new Set([
  'rm', 'rmdir', 'mv', 'cp', 'dd', 'shred', 'unlink', 'truncate', 'mkfs', 'chmod', 'chown', 'ln', 'kill', 'pkill', 'killall',
  'sudo', 'su', 'sh', 'bash', 'zsh', 'curl', 'wget', 'nc', 'eval', 'exec', 'xargs', 'find', 'python', 'perl', 'node',
]);

/**
 * Filters that open files or sockets of their own (a movie source, subtitles, command files,
 * message queues, plug-ins, model files, analysis results written to disk).
 */
const FILE_FILTERS = [
  'movie', 'amovie', 'subtitles', 'ass', 'sendcmd', 'asendcmd', 'zmq', 'azmq', 'ladspa', 'lv2', 'frei0r', 'frei0r_src', 'lut3d', 'lut1d',
  'vidstabdetect', 'vidstabtransform', 'ocr', 'dnn_processing', 'dnn_classify', 'dnn_detect', 'sr', 'arnndn', 'libvmaf', 'coreimage',
  'coreimagesrc', 'openclsrc', 'program_opencl', 'signature', 'metadata', 'ametadata', 'bluray', 'avgblur_opencl', 'showcqt', 'afir',
];

/** Filter options that name a file (read or written). */
const FILE_OPTION_KEYS = ['fontfile', 'textfile', 'filename', 'file', 'stats_file', 'log_path', 'result', 'model', 'datapath', 'fontsdir', 'original_size_file'];

/** ffmpeg's protocols (`ffmpeg -protocols`) and the URL schemes around them: `<name>:` inside any argument. */
const PROTOCOLS = [
  'async', 'bluray', 'cache', 'concat', 'concatf', 'crypto', 'data', 'fd', 'ffrtmpcrypt', 'ffrtmphttp', 'file', 'ftp', 'gopher', 'gophers',
  'hls', 'http', 'httpproxy', 'https', 'icecast', 'ipfs', 'ipns', 'md5', 'mmsh', 'mmst', 'pipe', 'prompeg', 'rtmp', 'rtmpe', 'rtmps', 'rtmpt',
  'rtmpte', 'rtmpts', 'rtp', 'rtsp', 'sctp', 'srtp', 'subfile', 'tcp', 'tee', 'tls', 'udp', 'udplite', 'unix', 'rist', 'librist', 'srt',
  'libsrt', 'sftp', 'ssh', 'libssh', 'smb', 'libsmbclient', 'zmq', 'amqp', 'dash', 'gs', 's3', 'ws', 'wss', 'jack', 'alsa', 'pulse', 'x11grab',
];

/** Options that read or write files of their own, or take over what the runner controls. */
const REFUSED_OPTIONS: Record<string, string> = {
  '-passlogfile': 'writes its log to a path of its choosing',
  '-report': 'writes a report file',
  '-dump_attachment': 'writes attachments to files',
  '-attach': 'reads a file',
  '-vstats': 'writes a statistics file',
  '-vstats_file': 'writes a statistics file',
  '-sdp_file': 'writes an SDP file',
  '-filter_script': 'reads a filter script file',
  '-filter_complex_script': 'reads a filter script file',
  '-stats_enc_pre': 'writes a statistics file',
  '-stats_enc_post': 'writes a statistics file',
  '-stats_mux_pre': 'writes a statistics file',
  '-progress': 'is set by Herald itself (progress reporting)',
  '-i': '', // handled apart: only an input placeholder may follow
};

/**
 * Formats that open further files or the network on their own (playlists, lists of files,
 * filter graphs as inputs, session descriptions, several outputs). Refused for `-f`, and for
 * inputs whose probed format is one of them (an uploaded playlist).
 */
export const REFUSED_FORMATS = new Set([
  'concat', 'ffconcat', 'hls', 'applehttp', 'dash', 'webm_dash_manifest', 'lavfi', 'tee', 'sdp', 'rtp', 'rtsp', 'rtp_mpegts', 'image2pipe',
  'fifo', 'fifo_test', 'segment', 'stream_segment', 'ssegment', 'smoothstreaming', 'mpd', 'ffmetadata', 'x11grab', 'v4l2', 'alsa', 'pulse',
]);

/** Options that take no value (everything else starting with `-` takes the next argument as its value). */
const FLAGS = new Set([
  '-y', '-n', '-nostdin', '-stdin', '-hide_banner', '-an', '-vn', '-sn', '-dn', '-shortest', '-copyts', '-start_at_zero', '-re', '-nostats',
  '-stats', '-benchmark', '-benchmark_all', '-accurate_seek', '-noaccurate_seek', '-autorotate', '-noautorotate', '-ignore_unknown',
  '-copy_unknown', '-debug_ts', '-xerror', '-seek_timestamp', '-apad', '-autoscale', '-noautoscale', '-find_stream_info', '-reinit_filter',
  '-guess_layout_max', '-no_guess_layout_max', '-fix_sub_duration', '-intra', '-sameq', '-same_quant', '-deinterlace', '-psnr', '-vstats_version',
]);

const PLACEHOLDER = /^\{(input(\d*)|output)\}$/;
const protocolPattern = new RegExp(`(^|[^a-z0-9_])(${PROTOCOLS.join('|')}):`, 'i');
const filterPattern = new RegExp(`(^|[,;\\]])\\s*(${FILE_FILTERS.join('|')})\\s*(?=$|[=,;\\[@])`, 'i');
const filterKeyPattern = new RegExp(`(^|[:=,'"\\s])(${FILE_OPTION_KEYS.join('|')})\\s*=`, 'i');

/** Splits the template into arguments with shell-like quoting (no expansion of any kind). */
function tokenize(text: string): string[] {
  const tokens: string[] = [];
  let current = '';
  let inToken = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
      else current += c;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = null;
      // Inside double quotes only \" and \\ are escapes; every other backslash is kept (\n, \, \:).
      else if (c === '\\' && (text[i + 1] === '"' || text[i + 1] === '\\')) current += text[++i];
      else current += c;
      continue;
    }
    if (c === ' ' || c === '\t') {
      if (inToken) tokens.push(current);
      current = '';
      inToken = false;
      continue;
    }
    inToken = true;
    if (c === "'" || c === '"') quote = c;
    // Outside quotes a backslash escapes a space or a quote; any other backslash is kept for ffmpeg.
    else if (c === '\\' && (text[i + 1] === ' ' || text[i + 1] === "'" || text[i + 1] === '"')) current += text[++i];
    else current += c;
  }
  if (quote) throw refuse(`an unterminated ${quote === '"' ? 'double' : 'single'} quote`);
  if (inToken) tokens.push(current);
  return tokens;
}

/** What an argument other than a placeholder may not contain: other files, URLs, file-opening filters. */
function checkValue(token: string): void {
  if (/\{(input\d*|output)\}/.test(token)) throw refuse(`the placeholder in "${token}": {input…} and {output} must stand alone as whole arguments`);
  const protocol = protocolPattern.exec(token);
  if (protocol) throw refuse(`the protocol prefix "${protocol[2]}:" in "${token}": inputs come only through {input…} placeholders`);
  const filter = filterPattern.exec(token);
  if (filter) throw refuse(`the filter "${filter[2]}" in "${token}": it opens files of its own`);
  const key = filterKeyPattern.exec(token);
  if (key) throw refuse(`the option "${key[2]}=" in "${token}": it names a file`);
  if (/(^|[=:,'"[\]\s])(\/|~)/.test(token)) throw refuse(`the path in "${token}": no file names, only {input…} and {output}`);
  if (token.includes('..')) throw refuse(`the path "${token}" ("..")`);
}

/**
 * The template as an argument vector. `available`: how many input files the request carries; the
 * template must read each input it names from them and write `{output}` exactly once.
 */
export function parseCommandTemplate(template: string, available: number): CommandTemplate {
  if (typeof template !== 'string' || !template.trim()) throw invalidInput('full_command is required: an ffmpeg command with {input} and {output}.', undefined, 'invalid_request');
  // The spec: newlines and carriage returns become spaces. NUL and other controls are refused.
  const text = template.replace(/\r\n|\r|\n/g, ' ');
  if (/[\p{Cc}]/u.test(text.replace(/\t/g, ''))) throw refuse('a control character');
  for (const [chars, what] of BLOCKED_CHARACTERS) if (text.includes(chars)) throw refuse(what);
  const tokens = tokenize(text);
  for (const token of tokens) {
    if (DESTRUCTIVE_COMMANDS.has(token.toLowerCase())) throw refuse(`the command "${token}"`);
  }
  if (tokens[0] !== 'ffmpeg') throw refuse(`a command other than ffmpeg ("${tokens[0] ?? ''}"): the template starts with ffmpeg`);

  const args: string[] = [];
  const inputs = new Set<number>();
  let outputs = 0;
  for (let i = 1; i < tokens.length; i += 1) {
    const token = tokens[i]!;
    const placeholder = PLACEHOLDER.exec(token);
    if (placeholder) {
      if (placeholder[1] !== 'output') throw refuse(`${token} without -i before it: inputs are read only with -i {input…}`);
      outputs += 1;
      args.push(OUTPUT_PLACEHOLDER);
      continue;
    }
    if (token.startsWith('-') && token.length > 1 && !/^-\d/.test(token)) {
      const option = token.split(':')[0]!;
      if (option === '-i') {
        const value = tokens[i + 1];
        const input = value === undefined ? null : PLACEHOLDER.exec(value);
        if (!input || input[1] === 'output') throw refuse(`-i ${value ?? '(nothing)'}: -i takes only an input placeholder ({input}, {input1}, …)`);
        const index = input[2] ? Number(input[2]) : 0;
        if (index >= available) {
          throw refuse(`${value}: the request has ${available} input file${available === 1 ? '' : 's'} (${Array.from({ length: available }, (_, n) => `{input${n}}`).join(', ') || 'none'})`);
        }
        inputs.add(index);
        args.push('-i', inputPlaceholder(index));
        i += 1;
        continue;
      }
      const reason = REFUSED_OPTIONS[option];
      if (reason) throw refuse(`the option ${option}, which ${reason}`);
      if ((option === '-f' || option === '-format') && REFUSED_FORMATS.has((tokens[i + 1] ?? '').toLowerCase())) {
        throw refuse(`the format "${tokens[i + 1]}" of ${option}: it reads or writes other files or the network`);
      }
      checkValue(token);
      args.push(token);
      if (FLAGS.has(option)) continue;
      const value = tokens[i + 1];
      if (value === undefined) continue;
      if (PLACEHOLDER.test(value)) continue; // an option left without value before {output}: ffmpeg answers it
      checkValue(value);
      args.push(drawtextLineBreaks(value));
      i += 1;
      continue;
    }
    // A positional argument is an output file name to ffmpeg: only {output} may be one.
    checkValue(token);
    throw refuse(`"${token}" where ffmpeg expects a file name: write the output only as {output}`);
  }
  if (outputs !== 1) throw refuse(outputs ? '{output} more than once' : 'no {output}: the template must write {output}');
  if (inputs.size === 0) throw refuse('no input: the template must read {input}');
  const inputCount = Math.max(...inputs) + 1;
  for (let n = 0; n < inputCount; n += 1) if (!inputs.has(n)) throw refuse(`{input${n}} is never read while a later input is`);
  return { args, inputCount };
}

/**
 * Multi-line drawtext: the two characters backslash-n in a drawtext filter become a line break in
 * the argument ffmpeg receives (ffmpeg 5's drawtext draws only a real line break as one; no shell
 * is in between to do it). `\\n` (an escaped backslash before n) is left as it is.
 */
function drawtextLineBreaks(value: string): string {
  if (!/drawtext/i.test(value)) return value;
  return value.replace(/(^|[^\\])\\n/g, '$1\n').replace(/(^|[^\\])\\n/g, '$1\n');
}

/** Replaces the placeholders with the runner's paths (whole arguments only). */
export function bindCommand(template: CommandTemplate, inputs: string[], output: string): string[] {
  return template.args.map((arg) => {
    if (arg === OUTPUT_PLACEHOLDER) return output;
    const input = /^\{input(\d+)\}$/.exec(arg);
    if (input) {
      const path = inputs[Number(input[1])];
      if (path === undefined) throw new Error(`no path for ${arg}`);
      return path;
    }
    return arg;
  });
}

/**
 * Presets: one input, a well-known encoding (request field `preset`); `ffmpeg_args` are the
 * caller's own options between input and output, checked like a template.
 */
export const MEDIA_PRESETS = {
  h264_social: {
    extension: 'mp4',
    args: '-c:v libx264 -preset veryfast -crf 23 -profile:v high -pix_fmt yuv420p -vf scale=trunc(iw/2)*2:trunc(ih/2)*2 -c:a aac -b:a 128k -movflags +faststart',
  },
  hevc_social: {
    extension: 'mp4',
    args: '-c:v libx265 -preset fast -crf 28 -tag:v hvc1 -pix_fmt yuv420p -vf scale=trunc(iw/2)*2:trunc(ih/2)*2 -c:a aac -b:a 128k -movflags +faststart',
  },
  copy_mux: { extension: 'mp4', args: '-c copy' },
} as const;

export type MediaPreset = keyof typeof MEDIA_PRESETS;
export const isMediaPreset = (v: unknown): v is MediaPreset => typeof v === 'string' && Object.hasOwn(MEDIA_PRESETS, v);

/** The template a preset and/or `ffmpeg_args` stand for (single input). */
export function presetTemplate(preset: MediaPreset | undefined, ffmpegArgs: string | undefined): string {
  const parts = ['ffmpeg -i {input}'];
  if (preset) parts.push(MEDIA_PRESETS[preset].args);
  if (ffmpegArgs) {
    const text = ffmpegArgs.replace(/\r\n|\r|\n/g, ' ');
    if (/\{(input\d*|output)\}/.test(text)) throw refuse('a placeholder in ffmpeg_args: they go between the single input and the output');
    parts.push(text);
  }
  parts.push(OUTPUT_PLACEHOLDER);
  return parts.join(' ');
}
