import { z } from 'zod';
import type { MediaKind } from '../../../core/domain/platforms';
import type { SettingField, SettingsSchema } from '../../../core/domain/settings';
import { NETWORKS } from '../../../adapters/platforms';
import { checkedByCore, type FilePart } from './types';

/**
 * The networks' own request fields, for the document: each network declares them once in its
 * descriptor (core/domain/settings.ts), and the core checks them (resolveSettings) with messages
 * naming the network; here they become zod fields left to the core, so the edge lets them through.
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

const describeField = (field: SettingField, networks: string[]) => {
  const parts = [`${networks.join(', ')}: ${field.description ?? field.name}`];
  if (field.aliases?.length) parts.push(`Also sent as ${field.aliases.join(', ')}.`);
  if (field.default !== undefined) parts.push(`Default ${JSON.stringify(field.default)}.`);
  return parts.join(' ');
};

interface Collected { shape: Record<string, z.ZodType>; files: Record<string, FilePart> }

function collect(entries: Array<{ network: string; schema: SettingsSchema | undefined }>, applies: (f: SettingField) => boolean): Collected {
  const byName = new Map<string, { field: SettingField; networks: string[] }>();
  for (const { network, schema } of entries) {
    for (const field of schema?.fields ?? []) {
      if (!applies(field)) continue;
      const seen = byName.get(field.name);
      if (seen) seen.networks.push(network);
      else byName.set(field.name, { field, networks: [network] });
    }
  }
  const shape: Record<string, z.ZodType> = {};
  const files: Record<string, FilePart> = {};
  for (const [name, { field, networks }] of byName) {
    const description = describeField(field, networks);
    shape[name] = checkedByCore(fieldSchema(field).optional().describe(description));
    if (field.type === 'file') files[name] = { description };
  }
  return { shape, files };
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
