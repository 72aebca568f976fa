import { z } from 'zod';
import { allErrorCodes } from '../../../core/domain/error-codes';
import { invalidInput } from '../../../core/domain/errors';
import { isPlatform, PLATFORMS, type Platform as PlatformId } from '../../../core/domain/platforms';
import { refuseUnavailablePlatforms } from '../input';
import { ruledBy } from './types';

/** Building blocks shared by the operation files. */

/** Every error answer (apps/api/http-errors.ts `errorBody`): extra fields depend on the error. */
export const ErrorBody = z.looseObject({
  success: z.literal(false),
  message: z.string().describe('What went wrong and what to send instead.'),
  error_code: z.enum(allErrorCodes()).describe('Stable code to branch on, one of the error-code registry (core/domain/error-codes.ts): the document\'s `x-error-codes` gives each code\'s status, meaning and fields.'),
  violations: z.array(z.looseObject({ field: z.string().optional(), message: z.string().optional() })).optional().describe('One entry per offending field.'),
  retry_after_seconds: z.number().optional().describe('On 429: when to try again (also the Retry-After header).'),
});

/** A success body: `{success: true, …fields}`; unknown fields may be added (spec, Versioning). */
export const ok = <S extends z.core.$ZodLooseShape>(shape: S) => z.looseObject({ success: z.literal(true), ...shape });

/** Just `{success: true, message}`. */
export const OkMessage = ok({ message: z.string() });

export const Platform = z.enum(PLATFORMS).describe('A network, in lower case.');

/** A profile username, in a path, query or body. */
export const ProfileUsername = z.string().min(1).max(128).describe('The profile (end user) username.');

/** The spec's social-account object, as profiles show it (core/domain/connected-account.ts). */
export const SocialAccount = z.object({
  username: z.string().describe('The account id on the network.'),
  handle: z.string(),
  display_name: z.string(),
  social_images: z.string().describe('Avatar URL.'),
  reauth_required: z.boolean().describe('true: the token expired; the account must be reconnected.'),
  capabilities: z.array(z.string()).optional(),
});

/** core/usecases/profiles.ts ProfileView. */
export const Profile = z.object({
  username: z.string(),
  created_at: z.string().describe('ISO-8601 (RFC 1123 on creation).'),
  social_accounts: z.record(z.string(), z.union([SocialAccount, z.literal('')])).describe('Connected accounts by platform.'),
  ui_labels: z.record(z.string(), z.string()).optional(),
});

/**
 * A `{platform}` path parameter: reddit answers 503 first, a name that is no network 400
 * `platform_not_supported`; `also` adds the operation's own rule for a known network.
 */
export const PlatformParam = (also?: (platform: PlatformId) => void) => ruledBy((value) => {
  refuseUnavailablePlatforms(value);
  if (typeof value !== 'string' || !isPlatform(value)) throw invalidInput(`Unknown platform "${String(value)}".`, undefined, 'platform_not_supported');
  also?.(value);
  return value;
}, Platform);

const isHttpUrl = (value: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

/** An http(s) URL (or '' with `orEmpty`: none), refused as `<name> must be an http(s) URL.` */
export const httpUrl = (name: string, opts: { orEmpty?: boolean } = {}) => z.string({ error: `${name} must be an http(s) URL.` })
  .refine((v) => (opts.orEmpty && v === '') || isHttpUrl(v), { error: `${name} must be an http(s) URL.` });

/**
 * A number of a list's query (page, limit, count) that falls back instead of refusing: text that is
 * no number gives `fallback`, out-of-range values are clamped; a value that is not text is refused.
 */
export const clampedNumber = (fallback: number, min: number, max = Infinity) => ruledBy(
  (v) => (v === undefined || typeof v === 'string' || typeof v === 'number' ? Math.min(max, Math.max(min, Number(v ?? fallback) || fallback)) : v),
  z.number(),
);
