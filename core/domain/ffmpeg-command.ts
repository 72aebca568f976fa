import { invalidInput } from './errors';
import { checkCommandArguments, refuse } from './ffmpeg-check';

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

/** The longest template accepted (ffmpeg's own commands for a job are far shorter). */
export const MAX_COMMAND_LENGTH = 4096;

/** Characters the spec blocks anywhere in a template (command chaining, pipes, substitution). */
const BLOCKED_CHARACTERS: Array<[string, string]> = [
  ['$(', 'command substitution "$("'],
  [';', 'the character ";"'],
  ['|', 'the character "|"'],
  ['&', 'the character "&"'],
  ['`', 'the backtick character'],
  ['$', 'the character "$"'],
];

/** Programs that destroy or move files, or fetch and run things: refused as words of a template (the spec). */
const DESTRUCTIVE_COMMANDS = new Set([
  'rm', 'rmdir', 'mv', 'cp', 'dd', 'shred', 'unlink', 'truncate', 'mkfs', 'chmod', 'chown', 'ln', 'kill', 'pkill', 'killall',
  'sudo', 'su', 'sh', 'bash', 'zsh', 'curl', 'wget', 'nc', 'eval', 'exec', 'xargs', 'find', 'python', 'perl', 'node',
]);

const PLACEHOLDER = /^\{(input(\d*)|output)\}$/;

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

/**
 * The template as an argument vector. `available`: how many input files the request carries; the
 * template must read each input it names from them and write `{output}` exactly once.
 */
export function parseCommandTemplate(template: string, available: number): CommandTemplate {
  if (typeof template !== 'string' || !template.trim()) throw invalidInput('full_command is required: an ffmpeg command with {input} and {output}.', undefined, 'invalid_request');
  if (template.length > MAX_COMMAND_LENGTH) throw refuse(`a command of ${template.length} characters: at most ${MAX_COMMAND_LENGTH}`);
  // The spec: newlines and carriage returns become spaces. NUL and other controls are refused.
  const text = template.replace(/\r\n|\r|\n/g, ' ');
  if (/[\p{Cc}]/u.test(text.replace(/\t/g, ''))) throw refuse('a control character');
  for (const [chars, what] of BLOCKED_CHARACTERS) if (text.includes(chars)) throw refuse(what);
  const tokens = tokenize(text);
  for (const token of tokens) {
    if (DESTRUCTIVE_COMMANDS.has(token.toLowerCase())) throw refuse(`the command "${token}"`);
  }
  if (tokens[0] !== 'ffmpeg') throw refuse(`a command other than ffmpeg ("${tokens[0] ?? ''}"): the template starts with ffmpeg`);
  const args = tokens.slice(1).map((token) => {
    const placeholder = PLACEHOLDER.exec(token);
    if (placeholder) return placeholder[1] === 'output' ? OUTPUT_PLACEHOLDER : inputPlaceholder(Number(placeholder[2] || 0));
    return drawtextLineBreaks(token);
  });
  return { args, inputCount: checkCommandArguments(args, available) };
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
