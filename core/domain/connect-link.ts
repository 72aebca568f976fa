import { invalidInput } from './errors';
import { isPlatform, UNAVAILABLE_PLATFORMS, type Platform } from './platforms';

/**
 * The hosted connect page's link (`POST /users/generate-jwt`): a random token, stored only as its
 * hash, that reaches exactly one profile of one operator account for a limited time, and that the
 * first browser to open it exchanges for a session (single use).
 */

/** The connect page's languages (the spec's list); anything else falls back to Accept-Language, then English. */
export const CONNECT_LANGUAGES = ['en', 'es', 'de', 'fr', 'pt', 'pl', 'tr'] as const;
export type ConnectLanguage = (typeof CONNECT_LANGUAGES)[number];
export const isConnectLanguage = (value: unknown): value is ConnectLanguage =>
  typeof value === 'string' && (CONNECT_LANGUAGES as readonly string[]).includes(value);

/** The spec's lifetime of a connect URL; `HERALD_CONNECT_LINK_TTL_MS` shortens it (tests). */
export const CONNECT_LINK_TTL_MS = 48 * 3600_000;

/** Prefix of connect tokens, so one is never mistaken for an API key (`hk_`). */
export const CONNECT_TOKEN_PREFIX = 'hct_';

export const UI_LABELS_MAX_ENTRIES = 100;
export const UI_LABEL_MAX_CHARS = 300;
const UI_LABEL_KEY = /^[a-zA-Z0-9_.]+$/;

/** What the page shows and allows, as the link's fields chose it (defaults filled in). */
export interface ConnectLinkSettings {
  redirectUrl?: string;
  logoImage?: string;
  redirectButtonText?: string;
  connectTitle?: string;
  connectDescription?: string;
  /** null: every network Herald can connect. */
  platforms: Platform[] | null;
  showCalendar: boolean;
  readonlyCalendar: boolean;
  /** Absent: the browser's Accept-Language, then English. */
  language?: ConnectLanguage;
}

export interface ConnectLink {
  /** SHA-256 of the token: the token itself is never stored. */
  tokenHash: string;
  accountId: string;
  profileUsername: string;
  settings: ConnectLinkSettings;
  createdAt: Date;
  expiresAt: Date;
}

/**
 * The browser session a link was exchanged for at its first open. Stored once per link (the
 * link's token hash is the unique key, so of two browsers racing, one wins): that is what makes
 * the link single use.
 */
export interface ConnectSession {
  tokenHash: string;
  /** SHA-256 of the session secret held in the browser's HttpOnly cookie. */
  sessionHash: string;
  accountId: string;
  profileUsername: string;
  createdAt: Date;
  /** The link's expiry: the session ends with it. */
  expiresAt: Date;
}

/**
 * `ui_labels` of generate-jwt: undefined (omitted: stored labels untouched), null (clear), or the
 * new labels (a non-empty object replaces, `{}` clears). Throws invalid_input naming the rule broken.
 */
export function parseUiLabels(value: unknown): Record<string, string> | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw invalidInput('ui_labels must be an object mapping connect-page label keys to replacement text (or null to clear them).', { field: 'ui_labels' });
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > UI_LABELS_MAX_ENTRIES) {
    throw invalidInput(`ui_labels has ${entries.length} entries; at most ${UI_LABELS_MAX_ENTRIES} are allowed.`, { field: 'ui_labels' });
  }
  const labels: Record<string, string> = {};
  for (const [key, text] of entries) {
    if (!UI_LABEL_KEY.test(key)) {
      throw invalidInput(`ui_labels key "${key.slice(0, 100)}" is invalid: keys are letters, digits, "_" and "." only.`, { field: `ui_labels.${key.slice(0, 100)}` });
    }
    if (typeof text !== 'string') throw invalidInput(`ui_labels.${key} must be a string.`, { field: `ui_labels.${key}` });
    if ([...text].length > UI_LABEL_MAX_CHARS) {
      throw invalidInput(`ui_labels.${key} is ${[...text].length} characters long; at most ${UI_LABEL_MAX_CHARS} are allowed.`, { field: `ui_labels.${key}` });
    }
    labels[key] = text;
  }
  return entries.length ? labels : null;
}

export const optionalText = (input: Record<string, unknown>, name: string, max = 500): string | undefined => {
  const value = input[name];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw invalidInput(`${name} must be a string.`, { field: name });
  if ([...value].length > max) throw invalidInput(`${name} is longer than ${max} characters.`, { field: name });
  return value;
};

export const optionalUrl = (input: Record<string, unknown>, name: string): string | undefined => {
  const value = optionalText(input, name, 2000);
  if (value === undefined) return undefined;
  let url: URL | undefined;
  try { url = new URL(value); } catch { url = undefined; }
  if (!url || !['http:', 'https:'].includes(url.protocol)) throw invalidInput(`${name} must be an http(s) URL.`, { field: name });
  return url.toString();
};

export const optionalBoolean = (input: Record<string, unknown>, name: string, fallback: boolean): boolean => {
  const value = input[name];
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'false') return value === 'true';
  throw invalidInput(`${name} must be true or false.`, { field: name });
};

/** `platforms` of generate-jwt as a list of names (an array or a comma list), undefined when absent. */
export function platformList(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const list = typeof value === 'string' ? value.split(',').map((s) => s.trim()).filter(Boolean) : value;
  if (!Array.isArray(list) || list.some((p) => typeof p !== 'string')) {
    throw invalidInput('platforms must be an array of platform names.', { field: 'platforms' });
  }
  return list as string[];
}

/** `language` of generate-jwt: one of the page's languages, or nothing. */
export function connectLanguage(value: unknown): ConnectLanguage | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (!isConnectLanguage(value)) throw invalidInput(`language must be one of ${CONNECT_LANGUAGES.join(', ')}.`, { field: 'language' });
  return value;
}

/**
 * The link's fields of generate-jwt, checked, with the spec's defaults. `connectable` is every
 * network Herald can connect here: `platforms` must be a subset of it.
 */
export function parseConnectLinkSettings(input: Record<string, unknown>, connectable: readonly Platform[]): ConnectLinkSettings {
  let platforms: Platform[] | null = null;
  const list = platformList(input.platforms);
  if (list) {
    const unknown = (list as string[]).filter((p) => !isPlatform(p) || UNAVAILABLE_PLATFORMS.includes(p) || !connectable.includes(p));
    if (unknown.length) {
      throw invalidInput(`platforms: ${unknown.join(', ')} cannot be connected here. Allowed: ${connectable.join(', ')}.`, { field: 'platforms' }, 'platform_not_supported');
    }
    platforms = [...new Set(list as Platform[])];
    if (!platforms.length) platforms = null;
  }
  const language = connectLanguage(input.language);
  const settings: ConnectLinkSettings = {
    platforms,
    showCalendar: optionalBoolean(input, 'show_calendar', true),
    readonlyCalendar: optionalBoolean(input, 'readonly_calendar', false),
  };
  const redirectUrl = optionalUrl(input, 'redirect_url');
  const logoImage = optionalUrl(input, 'logo_image');
  const redirectButtonText = optionalText(input, 'redirect_button_text', 100);
  const connectTitle = optionalText(input, 'connect_title', 200);
  const connectDescription = optionalText(input, 'connect_description', 1000);
  if (redirectUrl) settings.redirectUrl = redirectUrl;
  if (logoImage) settings.logoImage = logoImage;
  if (redirectButtonText) settings.redirectButtonText = redirectButtonText;
  if (connectTitle) settings.connectTitle = connectTitle;
  if (connectDescription) settings.connectDescription = connectDescription;
  if (language) settings.language = language;
  return settings;
}

/** "48h" for the spec's lifetime; shorter configured lifetimes in minutes or seconds. */
export function formatDuration(ms: number): string {
  if (ms % 3600_000 === 0) return `${ms / 3600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  return `${Math.max(1, Math.round(ms / 1000))}s`;
}

/** Days a week may start on (`week_start_day` of the preferences): 0 = Sunday … 6 = Saturday, as JavaScript's Date. */
export const WEEK_DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
export type WeekDay = (typeof WEEK_DAYS)[number];

export interface OperatorPreferences {
  weekStartDay: WeekDay;
}

export const DEFAULT_PREFERENCES: OperatorPreferences = { weekStartDay: 'monday' };

/** `week_start_day`: a day name (any case, or its first three letters) or 0-6 with 0 = Sunday. */
export function parseWeekStartDay(value: unknown): WeekDay {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 6) return WEEK_DAYS[value]!;
  if (typeof value === 'string') {
    const v = value.trim().toLowerCase();
    if (/^[0-6]$/.test(v)) return WEEK_DAYS[Number(v)]!;
    const day = WEEK_DAYS.find((d) => d === v || d.slice(0, 3) === v);
    if (day) return day;
  }
  throw invalidInput(`week_start_day must be a day name (${WEEK_DAYS.join(', ')}) or 0-6 with 0 = sunday.`, { field: 'week_start_day' });
}

/**
 * A profile is blocked by its plan when the account holds more profiles than the plan allows
 * (after a downgrade): the oldest `limit` profiles stay usable, the newer ones are blocked.
 */
export function isProfileBlocked(profilesOldestFirst: readonly { username: string }[], username: string, limit: number): boolean {
  const index = profilesOldestFirst.findIndex((p) => p.username === username);
  return index >= limit;
}
