import { z } from 'zod';
import type { MediaKind } from '../../../core/domain/platforms';
import type { SettingField, SettingsSchema } from '../../../core/domain/settings';
import { NETWORKS } from '../../../adapters/platforms';
import { invalidInput } from '../../../core/domain/errors';
import { convertSetting } from '../../../core/domain/settings';
import { isPlatform, PLATFORM_ALIASES } from '../../../core/domain/platforms';
import type { PostOperationField } from '../../../core/domain/post-operations';
import type { EditField, PostEditor } from '../../../core/ports/platform';
import { single } from '../input';
import { ruledBy, type FilePart } from './types';

/**
 * The networks' own request fields: each network declares them once in its descriptor
 * (core/domain/settings.ts). The core checks them against the networks a request names
 * (resolveSettings, with messages naming the network; a field of a network not named is ignored
 * with a warning); the edge checks what any of them could take: the wire type.
 */
export function fieldSchema(field: Omit<SettingField, 'endpoints'>): z.ZodType {
  switch (field.type) {
    case 'string': {
      if (field.oneOf?.length) return z.enum(field.oneOf as [string, ...string[]]);
      const text = field.pattern ? z.string().regex(field.pattern.regex) : z.string();
      return field.maxLength !== undefined ? text.max(field.maxLength) : text;
    }
    case 'boolean': return z.boolean();
    case 'integer':
    case 'number': {
      let n = field.type === 'integer' ? z.int() : z.number();
      if (field.min !== undefined) n = n.min(field.min);
      if (field.max !== undefined) n = n.max(field.max);
      return n;
    }
    case 'string_list': return z.union([z.array(z.string()), z.string().describe(`A list separated by "${field.separator ?? ','}".`)]);
    case 'json': return z.union([z.record(z.string(), z.any()), z.array(z.any()), z.string().describe('JSON text.')]);
    case 'url': return z.url();
    case 'file': return z.url().describe('A URL, or send a file part of this name.');
    case 'datetime': return z.iso.datetime({ offset: true });
  }
}

const constraints = (field: Omit<SettingField, 'endpoints'>): string[] => [
  ...(field.oneOf?.length ? [`One of ${field.oneOf.join(', ')}.`] : []),
  ...(field.pattern ? [`It must be ${field.pattern.meaning}.`] : []),
  ...(field.min !== undefined ? [`At least ${field.min}.`] : []),
  ...(field.max !== undefined ? [`At most ${field.max}.`] : []),
  ...(field.maxLength !== undefined ? [`At most ${field.maxLength} ${field.type === 'string_list' ? 'items' : 'characters'}.`] : []),
];

const describeField = (field: SettingField, networks: string[]) => {
  const parts = [`${networks.join(', ')}: ${field.description ?? field.name}`];
  parts.push(...constraints(field));
  if (field.aliases?.length) parts.push(`Also sent as ${field.aliases.join(', ')}.`);
  if (field.default !== undefined) parts.push(`Default ${JSON.stringify(field.default)}.`);
  return parts.join(' ');
};

type Typed = Pick<SettingField, 'type' | 'separator'>;

/** What a client may send for a field of this type (a form sends text; the network's limits are its own). */
function wireSchema(type: SettingField['type']): z.ZodType {
  switch (type) {
    case 'string': return z.union([z.string(), z.number()]);
    case 'boolean': return z.union([z.boolean(), z.string(), z.number()]);
    case 'integer':
    case 'number': return z.union([z.number(), z.string()]);
    case 'string_list': return z.union([z.array(z.union([z.string(), z.number(), z.boolean()])), z.string().describe('A list separated by the field\'s separator, or a JSON array.')]);
    case 'json': return z.union([z.record(z.string(), z.any()), z.array(z.any()), z.string().describe('JSON text.')]);
    case 'datetime':
    case 'url':
    case 'file': return z.string();
  }
}

/**
 * The field's wire type, checked at the edge: a value some network declaring it could read
 * (core/domain/settings.ts convertSetting, without that network's limits). Null and '' mean absent.
 */
function wireField(name: string, typed: readonly Typed[]): z.ZodType {
  const types = [...new Set(typed.map((t) => t.type))];
  const schema = types.length === 1 ? wireSchema(types[0]!) : z.union(types.map(wireSchema) as [z.ZodType, z.ZodType, ...z.ZodType[]]);
  return ruledBy((value) => {
    if (value === undefined || value === null || value === '') return value;
    let error: string | undefined;
    for (const t of typed) {
      // Dates and URLs are checked by the network that reads them; a file field takes a URL here.
      const loose = t.type === 'datetime' || t.type === 'url' || t.type === 'file' ? { type: 'string' as const } : { type: t.type, ...(t.separator ? { separator: t.separator } : {}) };
      const read = convertSetting({ name, ...loose }, value);
      if (!read.error) return t.type === 'string_list' ? value : single(value);
      error ??= read.error;
    }
    throw invalidInput(`${name} ${error}.`, { violations: [{ field: name, message: `${name} ${error}` }] });
  }, schema.nullable().optional());
}

interface Collected { shape: Record<string, z.ZodType>; files: Record<string, FilePart> }

function collect(entries: Array<{ network: string; schema: SettingsSchema | undefined }>, applies: (f: SettingField) => boolean): Collected {
  const byName = new Map<string, { field: SettingField; networks: string[]; typed: SettingField[] }>();
  for (const { network, schema } of entries) {
    for (const field of schema?.fields ?? []) {
      if (!applies(field)) continue;
      const seen = byName.get(field.name);
      if (seen) {
        seen.networks.push(network);
        seen.typed.push(field);
      } else byName.set(field.name, { field, networks: [network], typed: [field] });
    }
  }
  const shape: Record<string, z.ZodType> = {};
  const files: Record<string, FilePart> = {};
  for (const [name, { field, networks, typed }] of byName) {
    const description = describeField(field, networks);
    shape[name] = wireField(name, typed).describe(description);
    if (field.type === 'file') files[name] = { description };
  }
  return { shape, files };
}

/** `platform` of a /posts/* request as the edit reads it (aliases such as twitter), when it names a network. */
function postPlatform(fields: Record<string, unknown>): string | undefined {
  const raw = single(fields.platform);
  if (typeof raw !== 'string') return undefined;
  const value = raw.trim().toLowerCase();
  const platform = PLATFORM_ALIASES[value] ?? value;
  return isPlatform(platform) ? platform : undefined;
}

/** Whether a /posts/* request edits (POST /posts/edit, or /posts/action with action edit): other actions ignore the edit fields. */
export const editing = (fields: Record<string, unknown>) => {
  const action = single(fields.action);
  return action === undefined || (typeof action === 'string' && action.toLowerCase() === 'edit');
};

const firstSent = (fields: Record<string, unknown>, names: readonly string[]) => names.find((n) => fields[n] !== undefined && fields[n] !== null);

/**
 * The edit fields of `/posts/edit` from every network's descriptor (`posts.edit`: its fields under
 * each of their request names, and its title names): each is checked as the network named in
 * `platform` declares it, with the edit's message (`<field> must be …`); a field that network's
 * edit does not take is left to the edit, which names what it takes.
 */
export function networkEditFields(): Record<string, z.ZodType> {
  const byName = new Map<string, Array<{ network: string; field?: EditField; title?: readonly string[] }>>();
  const add = (name: string, entry: { network: string; field?: EditField; title?: readonly string[] }) => byName.set(name, [...(byName.get(name) ?? []), entry]);
  for (const n of NETWORKS) {
    const edit = n.descriptor.posts?.edit;
    for (const field of edit?.fields ?? []) for (const name of field.from) add(name, { network: n.id, field });
    for (const name of edit?.title ?? []) add(name, { network: n.id, title: edit!.title });
  }
  const shape: Record<string, z.ZodType> = {};
  for (const [name, entries] of byName) {
    const first = entries[0]!;
    const networks = [...new Set(entries.map((e) => e.network))];
    const description = first.field
      ? [`${networks.join(', ')}: ${first.field.description ?? first.field.name}`, ...constraints(first.field), ...(first.field.from[0] !== name ? [`Alias of ${first.field.from[0]}.`] : [])].join(' ')
      : `${networks.join(', ')}: the new title.`;
    // The edit's own reading (convertSetting) is the check; the schema then takes what it read.
    const types = [...new Set(entries.map((e) => (e.field && e.field.type !== 'datetime' ? e.field.type : 'string')))];
    const schema = types.length === 1 ? fieldSchema({ name, type: types[0]! }) : z.union(types.map((type) => fieldSchema({ name, type })) as [z.ZodType, z.ZodType, ...z.ZodType[]]);
    shape[name] = ruledBy((value, fields) => {
      const entry = entries.find((e) => e.network === postPlatform(fields));
      if (!entry || value === undefined || value === null || !editing(fields)) return undefined;
      if (entry.title) {
        if (firstSent(fields, entry.title) !== name) return undefined;
        const title = single(value);
        if (typeof title !== 'string') throw invalidInput(`${name}: title must be text.`, { violations: [{ field: name, message: 'title must be text' }] });
        return title;
      }
      const decl = entry.field!;
      if (firstSent(fields, decl.from) !== name) return undefined;
      const { value: read, error } = convertSetting(decl, value);
      if (error) throw invalidInput(`${decl.from[0]} ${error}.`, { violations: [{ field: decl.from[0], message: `${decl.from[0]} ${error}` }] });
      return read;
    }, schema.optional().describe(description));
  }
  return shape;
}

/** The fields naming where a post lives, from every network's descriptor (`posts`: its post_id alias, its target fields). */
export function postTargetFields(): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = {};
  for (const n of NETWORKS) {
    const posts = n.descriptor.posts;
    if (posts?.postIdAlias) {
      shape[posts.postIdAlias] = z.union([z.string(), z.number()], { error: `${posts.postIdAlias} must be text: the published post's id` }).optional()
        .describe(`${n.id}: alias of post_id.`);
    }
    for (const [field, name] of Object.entries(posts?.targetFields ?? {})) {
      shape[field] = z.string({ error: `${field} must be text` }).optional().describe(`${n.id}: the ${name.replace(/_/g, ' ')} of the post.`);
    }
  }
  return shape;
}

/** Every network's own fields on one upload endpoint. */
export function networkUploadFields(kind: MediaKind): Collected {
  return collect(NETWORKS.filter((n) => n.descriptor.endpoints.includes(kind)).map((n) => ({ network: n.id, schema: n.descriptor.settings })), (f) => f.endpoints.includes(kind));
}

/** The credential fields of every network connected by credentials. */
export function networkCredentialFields(): Collected & { networks: string[] } {
  const entries = NETWORKS.filter((n) => n.descriptor.credentialFields).map((n) => ({ network: n.id, schema: n.descriptor.credentialFields }));
  return { ...collect(entries, () => true), networks: entries.map((e) => e.network) };
}

/** Each network's adapter, built without credentials (nothing is called), to tell which capabilities and operations it has. */
const ADAPTERS = NETWORKS.map((n) => ({ id: n.id as string, descriptor: n.descriptor, adapter: n.create({ clientId: 'catalogue', clientSecret: 'catalogue' } as never) }));
const EDITORS = ADAPTERS.map((a) => ({ id: a.id, notes: a.descriptor.posts?.notes, editor: a.adapter.postEditor }));

/** The networks whose adapter has the capability (registry order), and the others: the lists the catalogue's texts name. */
export function networksWith(capability: 'analytics' | 'comments' | 'mediaLibrary'): { can: string[]; cannot: string[] } {
  return {
    can: ADAPTERS.filter((a) => a.adapter[capability] !== undefined).map((a) => a.id),
    cannot: ADAPTERS.filter((a) => a.adapter[capability] === undefined).map((a) => a.id),
  };
}

/**
 * The networks whose adapter implements a post operation, in registry order (as the use case's
 * `platform_not_supported` names them), each with its descriptor's note on it; `cannot`: the others.
 */
export function postEditorNetworks(operation: keyof PostEditor): { can: Array<{ id: string; note?: string }>; cannot: string[] } {
  const has = (e: (typeof EDITORS)[number]) => typeof e.editor?.[operation] === 'function';
  const note = (e: (typeof EDITORS)[number]) => (operation === 'setThumbnail' ? undefined : e.notes?.[operation]);
  return {
    can: EDITORS.filter(has).map((e) => ({ id: e.id, ...(note(e) ? { note: note(e) } : {}) })),
    cannot: EDITORS.filter((e) => !has(e)).map((e) => e.id),
  };
}

/** An operation's input fields (core's field vocabulary) as the edge checks them, under their names and aliases. */
export function postOperationFields(fields: readonly PostOperationField[], operation: string): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = {};
  for (const field of fields) {
    const described = `${operation}: ${field.description ?? field.name}${field.required ? ' Required.' : ''}${field.aliases?.length ? ` Also sent as ${field.aliases.join(', ')}.` : ''}`;
    shape[field.name] = fieldSchema(field).optional().describe([described, ...constraints(field)].join(' '));
    for (const alias of field.aliases ?? []) shape[alias] = fieldSchema(field).optional().describe(`Alias of ${field.name}.`);
  }
  return shape;
}
