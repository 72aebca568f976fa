import { z } from 'zod';
import { allErrorCodes } from '../../../core/domain/error-codes';
import { PLATFORMS } from '../../../core/domain/platforms';

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
