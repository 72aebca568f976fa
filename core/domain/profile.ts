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

const USERNAME = /^[A-Za-z0-9_.@-]{1,128}$/;

/** Invariant of a profile username: the caller's own id, printable and bounded. */
export function assertProfileUsername(username: unknown): asserts username is string {
  if (typeof username !== 'string' || username.trim() === '') {
    throw invalidInput('username is required: a non-empty string (your own id for this end user).');
  }
  if (!USERNAME.test(username)) {
    throw invalidInput('username must be 1-128 characters of letters, digits, "_", ".", "@" or "-".');
  }
}
