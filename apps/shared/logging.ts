import pino, { type Logger } from 'pino';
import { BoundedMemo } from '../../adapters/bounded-memo';

/**
 * Structured JSON logs (pino), one line per event, for every daemon. Secrets never reach the
 * output: values under secret-looking keys are replaced, and every string is scrubbed of API keys,
 * Authorization values, bot and webhook tokens in URLs, token-bearing query parameters and any
 * value registered with `registerSecret` (the secret key, OAuth client secrets, the ops token).
 */
export interface LoggingOptions {
  /** trace, debug, info, warn, error, fatal or silent (HERALD_LOG_LEVEL). */
  level: string;
  /** Human-readable output: HERALD_LOG_PRETTY=true, or stdout is a terminal (unless HERALD_LOG_PRETTY=false). */
  pretty: boolean;
  /** The daemon's name, on every line (`daemon`). */
  daemon: string;
  /** Extra fields on every line (e.g. the worker pools). */
  base?: Record<string, unknown>;
  /** Where lines go (tests); default stdout. */
  destination?: NodeJS.WritableStream;
}

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;

/** Keys whose values are credentials wherever they appear. */
const SECRET_KEY = /(authorization|cookie|token|secret|password|passwd|api[_-]?key|apikey|webhook_url|credential|sealed|signature|^sig$|^code$|private[_-]?key)/i;
const REDACTED = '[redacted]';

/** Patterns of credentials inside free text (error messages, URLs). */
const SECRET_TEXT: [RegExp, string][] = [
  [/\bhk_[A-Za-z0-9_-]{6,}/g, 'hk_[redacted]'],
  [/\b(Apikey|Bearer|Basic|OAuth)\s+[^\s"',;]+/gi, `$1 ${REDACTED}`],
  [/\bbot\d+:[A-Za-z0-9_-]{10,}/g, `bot${REDACTED}`],
  [/\/webhooks\/(\d+)\/[A-Za-z0-9_.-]+/g, `/webhooks/$1/${REDACTED}`],
  [/([?&#](?:access_token|refresh_token|id_token|client_secret|token|code|code_verifier|sig|signature|key|api_key|password|app_password|oauth_token|oauth_verifier)=)[^&\s"'#]+/gi, `$1${REDACTED}`],
];

const registered = new Set<string>();

/** A value that must never be printed (only values of 8 characters or more: shorter ones would hit ordinary words). */
export function registerSecret(value: string | undefined): void {
  if (value && value.length >= 8) registered.add(value);
}

/**
 * Text none of SECRET_TEXT can match: each pattern needs one of these (`hk_`; whitespace after
 * Apikey, Bearer, Basic or OAuth; `bot` and a digit; `/webhooks/`; `=` after a parameter name).
 * Most log values (ids, routes, methods) have none, and skip the five replacements.
 */
const MAYBE_SECRET_TEXT = /hk_|\s|bot\d|\/webhooks\/|=/i;

export function scrubText(text: string): string {
  let out = text;
  if (MAYBE_SECRET_TEXT.test(out)) for (const [pattern, replacement] of SECRET_TEXT) out = out.replace(pattern, replacement);
  for (const secret of registered) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}

/** The value with secret keys redacted and every string scrubbed (depth-bounded; cycles end as "[cycle]"). */
export function scrub(value: unknown, depth = 0, seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > 8) return '[deep]';
  if (seen.has(value)) return '[cycle]';
  seen.add(value);
  if (value instanceof Error) return { type: value.name, message: scrubText(value.message), ...(value.stack ? { stack: scrubText(value.stack) } : {}) };
  if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1, seen));
  if (value instanceof Date) return value.toISOString();
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = secretKey(k) && v !== null && v !== undefined && typeof v !== 'boolean' && typeof v !== 'number' ? REDACTED : scrub(v, depth + 1, seen);
  return out;
}

/** SECRET_KEY's verdict on a key, remembered for the last 2,000 keys (log keys come from a small set). */
const keyVerdicts = new BoundedMemo<boolean>(2000);
const secretKey = (key: string): boolean => keyVerdicts.get(key, () => SECRET_KEY.test(key));

function prettyStream(destination?: NodeJS.WritableStream): NodeJS.WritableStream | undefined {
  try {
    // A development dependency: a production install without it logs JSON.
    const pretty = require('pino-pretty') as (o: Record<string, unknown>) => NodeJS.WritableStream;
    return pretty({ colorize: !destination, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', ...(destination ? { destination } : {}) });
  } catch {
    return undefined;
  }
}

export function createLogger(opts: LoggingOptions): Logger {
  const stream = (opts.pretty ? prettyStream(opts.destination) : undefined) ?? opts.destination;
  const options: pino.LoggerOptions = {
    level: opts.level,
    base: { daemon: opts.daemon, pid: process.pid, ...opts.base },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: {
      level: (label) => ({ level: label }),
      log: (object) => scrub(object) as Record<string, unknown>,
    },
    hooks: {
      // The message is scrubbed too (it may quote an error that quotes a URL).
      logMethod(args, method) {
        const scrubbed = args.map((a) => (typeof a === 'string' ? scrubText(a) : a)) as Parameters<typeof method>;
        return method.apply(this, scrubbed);
      },
    },
  };
  return stream ? pino(options, stream as pino.DestinationStream) : pino(options);
}

let root: Logger | undefined;

/** The process's logger: set once by the daemon's composition root (before, a JSON logger at info). */
export function rootLogger(): Logger {
  root ??= createLogger({ level: 'info', pretty: false, daemon: 'herald' });
  return root;
}

export function setRootLogger(logger: Logger): Logger {
  root = logger;
  return logger;
}

/**
 * The `log(message, fields)` function use cases and daemons take: info, or error when the fields
 * carry an `error`.
 */
export function logWith(logger: () => Logger) {
  return (message: string, fields: Record<string, unknown> = {}): void => {
    const l = logger();
    if ('error' in fields) l.error(fields, message);
    else l.info(fields, message);
  };
}
