import type { MediaKind } from './platforms';

/**
 * The per-platform settings framework. Each network adapter declares the fields it accepts on
 * each upload endpoint (names, aliases, types, defaults, ranges) plus cross-field rules; the edge
 * resolves every targeted network's fields from the request, answers 400 naming every offending
 * field, and turns fields nobody uses into warnings.
 */
export type SettingType =
  | 'string'
  | 'boolean'
  | 'integer'
  | 'number'
  /** Repeated field, JSON array, or text split on `separator` (default ","). */
  | 'string_list'
  /** A JSON object or array, given as JSON or as JSON text. */
  | 'json'
  /** An http(s) URL. */
  | 'url'
  /** An uploaded file: the edge stores it and passes its MediaRef. */
  | 'file'
  /** An ISO-8601 date-time with its offset (`Z` or `±hh:mm`), kept as sent. */
  | 'datetime';

export interface SettingField {
  /** Canonical name, as the adapter reads it from `settings`. */
  name: string;
  /** Other request field names that mean the same (the canonical name wins when both are sent). */
  aliases?: readonly string[];
  type: SettingType;
  /** The field must be sent (credential fields; upload settings use `check` for required-when rules). */
  required?: boolean;
  /** Upload endpoints where the field applies; elsewhere it is ignored with a warning. */
  endpoints: readonly MediaKind[];
  default?: unknown;
  /** Allowed values of a string (or of each list item). */
  oneOf?: readonly string[];
  /** Bounds of an integer or number. */
  min?: number;
  max?: number;
  /** Longest string (or list: most items). */
  maxLength?: number;
  /** A string must match `regex`; the refusal says it must be `meaning`. */
  pattern?: { regex: RegExp; meaning: string };
  separator?: string;
  description?: string;
}

export interface SettingViolation {
  field: string;
  message: string;
}

export interface SettingsSchema {
  fields: readonly SettingField[];
  /** Cross-field rules: required-when, mutually exclusive pairs, counts that must match the media. */
  check?(values: Record<string, unknown>, ctx: { endpoint: MediaKind; mediaCount: number }): SettingViolation[];
}

export const NO_SETTINGS: SettingsSchema = { fields: [] };

export interface ResolvedSettings {
  values: Record<string, unknown>;
  violations: SettingViolation[];
  warnings: string[];
  /** Request field names this schema used (so the edge can tell which fields nobody used). */
  consumed: string[];
}

const TRUE = new Set(['true', '1', 'yes', 'on']);
const FALSE = new Set(['false', '0', 'no', 'off']);

const single = (raw: unknown): unknown => (Array.isArray(raw) ? raw[raw.length - 1] : raw);

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** One field's value from its raw request value, or what is wrong with it (the field's name goes before it). */
export function convertSetting(field: Omit<SettingField, 'endpoints'>, raw: unknown): { value?: unknown; error?: string } {
  switch (field.type) {
    case 'string': {
      const v = single(raw);
      if (typeof v !== 'string' && typeof v !== 'number') return { error: 'must be text' };
      const s = String(v);
      if (field.maxLength !== undefined && [...s].length > field.maxLength) return { error: `is at most ${field.maxLength} characters` };
      if (field.oneOf && !field.oneOf.includes(s)) return { error: `must be one of ${field.oneOf.join(', ')}` };
      if (field.pattern && !field.pattern.regex.test(s)) return { error: `must be ${field.pattern.meaning}` };
      return { value: s };
    }
    case 'datetime': {
      const v = single(raw);
      if (typeof v !== 'string' || !DATE_TIME.test(v) || Number.isNaN(Date.parse(v))) return { error: 'must be an ISO-8601 date-time with its offset (2026-01-31T09:00:00Z)' };
      return { value: v };
    }
    case 'boolean': {
      const v = single(raw);
      if (typeof v === 'boolean') return { value: v };
      const t = String(v).trim().toLowerCase();
      if (TRUE.has(t)) return { value: true };
      if (FALSE.has(t)) return { value: false };
      return { error: 'must be true or false' };
    }
    case 'integer':
    case 'number': {
      const v = single(raw);
      const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
      if (!Number.isFinite(n) || (field.type === 'integer' && !Number.isInteger(n))) return { error: `must be ${field.type === 'integer' ? 'a whole number' : 'a number'}` };
      if (field.min !== undefined && n < field.min) return { error: `must be at least ${field.min}` };
      if (field.max !== undefined && n > field.max) return { error: `must be at most ${field.max}` };
      return { value: n };
    }
    case 'string_list': {
      let items: unknown[];
      if (Array.isArray(raw)) items = raw;
      else if (typeof raw === 'string' && raw.trim().startsWith('[')) {
        try {
          const parsed: unknown = JSON.parse(raw);
          if (!Array.isArray(parsed)) return { error: 'must be a list' };
          items = parsed;
        } catch {
          return { error: 'is not valid JSON' };
        }
      } else if (typeof raw === 'string') items = raw.split(field.separator ?? ',');
      else return { error: 'must be a list' };
      const list = items.map((i) => String(i).trim()).filter((i) => i !== '');
      if (field.maxLength !== undefined && list.length > field.maxLength) return { error: `takes at most ${field.maxLength} items` };
      const bad = field.oneOf ? list.filter((i) => !field.oneOf!.includes(i)) : [];
      if (bad.length) return { error: `has ${bad.join(', ')}; allowed: ${field.oneOf!.join(', ')}` };
      return { value: list };
    }
    case 'json': {
      const v = single(raw);
      if (typeof v === 'object' && v !== null) return { value: v };
      if (typeof v !== 'string') return { error: 'must be JSON' };
      try {
        return { value: JSON.parse(v) };
      } catch {
        return { error: 'is not valid JSON' };
      }
    }
    case 'url': {
      const v = single(raw);
      if (typeof v !== 'string') return { error: 'must be a URL' };
      try {
        const url = new URL(v);
        if (url.protocol !== 'https:' && url.protocol !== 'http:') return { error: 'must be an http(s) URL' };
        return { value: url.toString() };
      } catch {
        return { error: 'must be a URL' };
      }
    }
    case 'file': {
      const v = single(raw);
      if (typeof v === 'object' && v !== null && 'id' in v) return { value: v };
      return { error: 'must be an uploaded file' };
    }
  }
}

/** Resolves one network's settings from the request fields for one endpoint. */
export function resolveSettings(
  platform: string,
  schema: SettingsSchema,
  fields: Record<string, unknown>,
  ctx: { endpoint: MediaKind; mediaCount: number },
): ResolvedSettings {
  const values: Record<string, unknown> = {};
  const violations: SettingViolation[] = [];
  const warnings: string[] = [];
  const consumed: string[] = [];
  for (const field of schema.fields) {
    const names = [field.name, ...(field.aliases ?? [])];
    const present = names.filter((n) => fields[n] !== undefined && fields[n] !== null && fields[n] !== '');
    consumed.push(...present);
    if (!field.endpoints.includes(ctx.endpoint)) {
      if (present.length) warnings.push(`${present[0]} is not used by ${platform} on this endpoint and was ignored.`);
      continue;
    }
    if (!present.length) {
      if (field.required) violations.push({ field: field.name, message: `${field.name} is required` });
      else if (field.default !== undefined) values[field.name] = field.default;
      continue;
    }
    const { value, error } = convertSetting(field, fields[present[0]]);
    if (error) violations.push({ field: present[0], message: `${present[0]} ${error}` });
    else values[field.name] = value;
  }
  if (!violations.length && schema.check) violations.push(...schema.check(values, ctx));
  return { values, violations, warnings, consumed };
}
