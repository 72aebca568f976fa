import { invalidInput } from '../domain/errors';
import type { OperatorAccount } from '../domain/operator';
import { PIN_KINDS, PIN_VALUE_PATTERN, type PinKind } from '../domain/profile';
import type { Storage } from '../ports/storage';
import { requireProfile } from './profiles';

export interface PinView {
  profile_username: string;
  /** `page_id` or `location_id`, null when nothing is pinned. */
  [field: string]: string | null;
}

/**
 * Pins a page (facebook, linkedin) or location (google business) to a profile: publishing to
 * that network then uses it whatever the request says.
 */
export async function setPin(storage: Pick<Storage, 'profiles'>, account: OperatorAccount, kind: PinKind, input: Record<string, unknown>): Promise<PinView> {
  const { field, input: name } = PIN_KINDS[kind];
  const profileUsername = input.profile_username;
  const value = input[name];
  if (typeof profileUsername !== 'string' || !profileUsername) throw invalidInput('profile_username is required.');
  if (typeof value !== 'string' || !PIN_VALUE_PATTERN.test(value)) throw invalidInput(`${name} is required: the id to pin.`, { violations: [{ field: name, message: 'required' }] });
  await requireProfile(storage, account.id, profileUsername);
  await storage.profiles.setPin(account.id, profileUsername, field, value);
  return { profile_username: profileUsername, [name]: value };
}

export async function getPin(storage: Pick<Storage, 'profiles'>, account: OperatorAccount, kind: PinKind, profileUsername: string): Promise<PinView> {
  const { field, input: name } = PIN_KINDS[kind];
  const profile = await requireProfile(storage, account.id, profileUsername);
  return { profile_username: profileUsername, [name]: profile.pins?.[field] ?? null };
}

export async function deletePin(storage: Pick<Storage, 'profiles'>, account: OperatorAccount, kind: PinKind, profileUsername: string): Promise<PinView> {
  const { field, input: name } = PIN_KINDS[kind];
  await requireProfile(storage, account.id, profileUsername);
  await storage.profiles.setPin(account.id, profileUsername, field, null);
  return { profile_username: profileUsername, [name]: null };
}
