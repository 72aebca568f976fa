import { z } from 'zod';
import { PIN_KINDS, PIN_VALUE_PATTERN, PROFILE_USERNAME_MAX, PROFILE_USERNAME_PATTERN, USERNAME_FORMAT, USERNAME_REQUIRED, type PinKind } from '../../../core/domain/profile';
import { operation, refusedAs } from './types';
import { ok, OkMessage, Profile, ProfileUsername } from './common';

/** Profiles (end users), pins and manual credential connections. */

const UsernameBody = z.object({
  username: refusedAs('invalid_request', z.string({ error: USERNAME_REQUIRED }).refine((v) => v.trim() !== '', { error: USERNAME_REQUIRED })
    .regex(PROFILE_USERNAME_PATTERN, { error: USERNAME_FORMAT })
    .describe('Your own id for this end user: 1-128 letters, digits, "_", ".", "@" or "-".')),
});

/** The profile a pin belongs to (the pins' own message when it is missing). */
const PinProfile = refusedAs('invalid_request', z.string({ error: 'profile_username is required.' }).min(1, { error: 'profile_username is required.' }).max(PROFILE_USERNAME_MAX)
  .describe('The profile username.'));

export const createProfile = operation({
  id: 'createProfile',
  method: 'post',
  path: '/svc/users',
  tags: ['profiles'],
  summary: 'Create a profile',
  description: 'Creates a profile (one end user) to connect social accounts to and publish as. Use before generating a connect link for a new end user. Returns the profile with no social accounts. Errors: 400 invalid or reserved username (`username_reserved`), 403 `PROFILE_LIMIT_REACHED` (plan limit), 409 `PROFILE_EXISTS`.',
  auth: 'apiKey',
  body: UsernameBody,
  responses: { 201: { description: 'The new profile.', schema: ok({ profile: Profile }) } },
  errors: { 400: 'Missing, invalid or reserved username.', 403: 'PROFILE_LIMIT_REACHED: the plan allows no more profiles.', 409: 'PROFILE_EXISTS: a profile with this username exists.' },
});

export const listProfiles = operation({
  id: 'listProfiles',
  method: 'get',
  path: '/svc/users',
  tags: ['profiles'],
  summary: 'List profiles',
  description: 'Lists every profile of the operator account with its connected social accounts, the plan and its profile limit. Use to find which networks a profile can publish to (`social_accounts`, `reauth_required`).',
  auth: 'apiKey',
  responses: { 200: { description: 'Profiles, plan and profile limit.', schema: ok({ limit: z.number(), plan: z.string(), profiles: z.array(Profile) }) } },
});

export const getProfile = operation({
  id: 'getProfile',
  method: 'get',
  path: '/svc/users/{username}',
  tags: ['profiles'],
  summary: 'Get one profile',
  description: 'One profile with its connected social accounts. Errors: 404 `PROFILE_NOT_FOUND`.',
  auth: 'apiKey',
  params: z.object({ username: ProfileUsername }),
  responses: { 200: { description: 'The profile.', schema: ok({ profile: Profile }) } },
  errors: { 400: 'The username is not a valid id (`invalid_id`).', 404: 'PROFILE_NOT_FOUND.' },
});

export const deleteProfile = operation({
  id: 'deleteProfile',
  method: 'delete',
  path: '/svc/users',
  tags: ['profiles'],
  summary: 'Delete a profile',
  description: 'Deletes a profile and disconnects its social accounts. Scheduled posts of the profile are not published. Errors: 404 `PROFILE_NOT_FOUND`.',
  auth: 'apiKey',
  body: UsernameBody,
  responses: { 200: { description: 'Deleted.', schema: OkMessage } },
  errors: { 400: 'Missing or invalid username.', 404: 'PROFILE_NOT_FOUND.' },
});

const PinBody = (kind: PinKind) => z.looseObject({
  profile_username: PinProfile,
  [PIN_KINDS[kind].input]: refusedAs('invalid_request', z.string({ error: `${PIN_KINDS[kind].input} is required: the id to pin.` })
    .regex(PIN_VALUE_PATTERN, { error: `${PIN_KINDS[kind].input} is required: the id to pin.` }).describe(`The ${PIN_KINDS[kind].field} to pin.`)),
});

/** GET/POST/DELETE /users/facebook-page, /users/linkedin-page, /users/google-business-location. */
function pinOperations(kind: PinKind, noun: string, Name: string) {
  const Pin = ok({ profile_username: z.string(), [PIN_KINDS[kind].input]: z.string().nullable().describe('The pinned id, null when nothing is pinned.') });
  return [
    operation({
      id: `get${Name}Pin`, method: 'get', path: `/svc/users/${kind}`, tags: ['pins'],
      summary: `Get the pinned ${noun}`,
      description: `The ${noun} pinned to a profile: it wins over \`${PIN_KINDS[kind].field}\` of a publish request. Errors: 404 \`PROFILE_NOT_FOUND\`.`,
      auth: 'apiKey',
      query: z.object({ profile_username: PinProfile }),
      responses: { 200: { description: 'The pin (empty when none).', schema: Pin } },
      errors: { 400: 'profile_username is missing.', 404: 'PROFILE_NOT_FOUND.' },
    }),
    operation({
      id: `set${Name}Pin`, method: 'post', path: `/svc/users/${kind}`, tags: ['pins'],
      summary: `Pin a ${noun}`,
      description: `Pins a ${noun} to a profile; publishing then uses it instead of the request's \`${PIN_KINDS[kind].field}\`. Errors: 400 missing fields, 404 \`PROFILE_NOT_FOUND\`.`,
      auth: 'apiKey',
      body: PinBody(kind),
      responses: { 200: { description: 'The pin.', schema: Pin } },
      errors: { 400: `profile_username or ${PIN_KINDS[kind].input} is missing.`, 404: 'PROFILE_NOT_FOUND.' },
    }),
    operation({
      id: `delete${Name}Pin`, method: 'delete', path: `/svc/users/${kind}`, tags: ['pins'],
      summary: `Remove the pinned ${noun}`,
      description: `Removes the ${noun} pinned to a profile (body or query \`profile_username\`). Errors: 404 \`PROFILE_NOT_FOUND\`.`,
      auth: 'apiKey',
      query: z.object({ profile_username: PinProfile.optional() }),
      body: z.looseObject({ profile_username: PinProfile.optional() }),
      responses: { 200: { description: 'The pin was removed.', schema: Pin } },
      errors: { 400: 'profile_username is missing.', 404: 'PROFILE_NOT_FOUND.' },
    }),
  ] as const;
}

export const facebookPagePin = pinOperations('facebook-page', 'Facebook page', 'FacebookPage');
export const linkedinPagePin = pinOperations('linkedin-page', 'LinkedIn page', 'LinkedinPage');
export const googleBusinessLocationPin = pinOperations('google-business-location', 'Google Business location', 'GoogleBusinessLocation');
export const PIN_OPERATIONS: Record<PinKind, readonly [ReturnType<typeof pinOperations>[0], ReturnType<typeof pinOperations>[1], ReturnType<typeof pinOperations>[2]]> = {
  'facebook-page': facebookPagePin, 'linkedin-page': linkedinPagePin, 'google-business-location': googleBusinessLocationPin,
};

export const profileOperations = [
  createProfile, listProfiles, deleteProfile, ...facebookPagePin, ...linkedinPagePin, ...googleBusinessLocationPin, getProfile,
];
