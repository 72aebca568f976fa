/**
 * Credentials submitted to Herald (`POST /users/<network>/credentials`) are read against the
 * network's declared `credentialFields`: the declaration the OpenAPI document is generated from is
 * also what the connector enforces, so the two cannot drift apart.
 */
import { invalidInput, type HeraldError } from '../../../core/domain/errors';
import type { MediaKind } from '../../../core/domain/platforms';
import { resolveSettings, type SettingField, type SettingsSchema } from '../../../core/domain/settings';

/** Credential fields belong to no upload endpoint; the settings framework wants some, so: all. */
const EVERY_ENDPOINT: readonly MediaKind[] = ['text', 'photo', 'video'];

/** A field of a `credentialFields` schema. */
export const credentialField = (field: Omit<SettingField, 'endpoints'>): SettingField => ({ ...field, endpoints: EVERY_ENDPOINT });

/**
 * invalid_input about one credential field. The field's description (what the network wants
 * there, and where to find it) follows the complaint, so every refusal says how to fix it.
 */
export function invalidCredential(schema: SettingsSchema, field: string, message: string): HeraldError {
  const description = schema.fields.find((f) => f.name === field || f.aliases?.includes(field))?.description;
  return invalidInput(description ? `${message}. ${description}` : message, { field });
}

/** The declared fields of `input`, converted and checked; throws invalid_input for the first offending field. */
export function readCredentials(schema: SettingsSchema, input: Record<string, unknown>): Record<string, unknown> {
  const { values, violations } = resolveSettings('credentials', schema, input, { endpoint: 'text', mediaCount: 0 });
  const first = violations[0];
  if (first) throw invalidCredential(schema, first.field, first.message);
  return values;
}
