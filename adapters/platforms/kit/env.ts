/**
 * Readers of environment values for network options: a raw (trimmed, non-empty) value to an
 * option value, naming the variable on error. Only apps/ reads the environment; it hands the
 * values to these through each network's `env` map.
 */
export type EnvRead<T> = (raw: string, variable: string) => T;

/** What each reader accepts, as docs/configuration.md shows it. */
const TYPES = new WeakMap<EnvRead<unknown>, string>();
const typed = <T>(type: string, read: EnvRead<T>): EnvRead<T> => {
  TYPES.set(read as EnvRead<unknown>, type);
  return read;
};
export const readerType = (read: EnvRead<unknown>): string | undefined => TYPES.get(read);

export const httpUrl: EnvRead<string> = typed('http(s) URL', (raw, variable) => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`${variable} must be an http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${variable} must be an http(s) URL, got "${raw}"`);
  return raw;
});
export const text: EnvRead<string> = typed('text', (raw) => raw);
export const flag: EnvRead<boolean> = typed('`true` or `false` (also 1/0, yes/no)', (raw, variable) => {
  if (/^(true|1|yes)$/i.test(raw)) return true;
  if (/^(false|0|no)$/i.test(raw)) return false;
  throw new Error(`${variable} must be true or false, got "${raw}"`);
});
export const millis: EnvRead<number> = typed('milliseconds > 0', (raw, variable) => {
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${variable} must be a positive number of milliseconds, got "${raw}"`);
  return n;
});
export const hostList: EnvRead<string[]> = typed('comma list of hosts', (raw) => raw.split(',').map((s) => s.trim()).filter(Boolean));
export const oneOf = <T extends string>(...values: readonly T[]): EnvRead<T> => typed(`one of ${values.join(', ')}`, (raw, variable) => {
  if (!(values as readonly string[]).includes(raw)) throw new Error(`${variable} must be one of ${values.join(', ')}, got "${raw}"`);
  return raw as T;
});
export const matching = (pattern: RegExp, what: string): EnvRead<string> => typed(what, (raw, variable) => {
  if (!pattern.test(raw)) throw new Error(`${variable} must be ${what}, got "${raw}"`);
  return raw;
});
