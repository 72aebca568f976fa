import { invalidInput } from './errors';

/** An end-user profile of an operator: its connected accounts hang off it. */
export interface Profile {
  accountId: string;
  username: string;
  createdAt: Date;
  uiLabels: Record<string, string>;
  /** Pinned targets (`facebook_page_id`, `target_linkedin_page_id`, `gbp_location_id`): they win over the request's value. */
  pins?: Record<string, string>;
}

/** The pin endpoints of the spec and the request field each pin fills. */
export const PIN_KINDS = {
  'facebook-page': { field: 'facebook_page_id', input: 'page_id' },
  'linkedin-page': { field: 'target_linkedin_page_id', input: 'page_id' },
  'google-business-location': { field: 'gbp_location_id', input: 'location_id' },
} as const;
export type PinKind = keyof typeof PIN_KINDS;

/** A pinned page or location id. */
export const PIN_VALUE_PATTERN = /^[\w:.-]{1,200}$/;

/** Longest profile username. */
export const PROFILE_USERNAME_MAX = 128;
export const PROFILE_USERNAME_PATTERN = new RegExp(`^[A-Za-z0-9_.@-]{1,${PROFILE_USERNAME_MAX}}$`);
export const USERNAME_REQUIRED = 'username is required: a non-empty string (your own id for this end user).';
export const USERNAME_FORMAT = `username must be 1-${PROFILE_USERNAME_MAX} characters of letters, digits, "_", ".", "@" or "-".`;

/**
 * The fixed `/users/<word>` paths of the spec (and `preferences`, which later issues add): a
 * profile of that name could never be read at `GET /users/{username}`, so none may be created.
 * Paths match case-insensitively, so do these names.
 */
export const RESERVED_PROFILE_USERNAMES: readonly string[] = [
  ...Object.keys(PIN_KINDS), 'generate-jwt', 'validate-jwt', 'notifications', 'webhook-secret', 'profile-webhook', 'preferences',
];

export const isReservedProfileUsername = (username: string): boolean => RESERVED_PROFILE_USERNAMES.includes(username.toLowerCase());

/** Invariant of a profile username: the caller's own id, printable and bounded. */
export function assertProfileUsername(username: unknown): asserts username is string {
  if (typeof username !== 'string' || username.trim() === '') {
    throw invalidInput(USERNAME_REQUIRED);
  }
  if (!PROFILE_USERNAME_PATTERN.test(username)) {
    throw invalidInput(USERNAME_FORMAT);
  }
}

/** A new profile's username: valid, and not one of the fixed paths' words. */
export function assertNewProfileUsername(username: unknown): asserts username is string {
  assertProfileUsername(username);
  if (isReservedProfileUsername(username)) {
    throw invalidInput(`username "${username}" is reserved: GET /users/${username.toLowerCase()} is an endpoint of its own, so this profile could never be read. Choose another username.`,
      { reserved_usernames: RESERVED_PROFILE_USERNAMES }, 'username_reserved');
  }
}
