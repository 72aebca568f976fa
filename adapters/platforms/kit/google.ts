/**
 * What Google APIs (YouTube Data API, Google Business Profile) have in common: Google's OAuth 2
 * (developers.google.com/identity/protocols/oauth2/web-server), the granted-scope check, the two
 * error shapes (the token endpoint's `{error, error_description}` and the APIs'
 * `{error:{code, message, errors:[{reason, domain}], status}}`) and the Pacific-midnight quota
 * reset. Nothing here gives an answer a meaning: the adapter's failure mapping does.
 */
import { createOAuth2Client, type OAuth2Client, type OAuth2ClientOptions } from './oauth2';
import { isObject, str, type Json } from './http';

export const GOOGLE_AUTH_BASE = 'https://accounts.google.com';
export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
/** The consent page under an auth base (the simulators serve it on loopback). */
export const googleAuthorizeUrl = (authBase: string): string => `${authBase}/o/oauth2/v2/auth`;

/**
 * Google's OAuth 2 client: offline access and a forced consent so Google hands out a refresh token
 * on every connection (reconnections included), and incremental authorization.
 */
export function createGoogleOAuthClient(opts: Omit<OAuth2ClientOptions, 'authorizeUrl' | 'authorizeParams' | 'clientAuth' | 'scopeSeparator' | 'clientIdParam'> & { authBase: string }): OAuth2Client {
  const { authBase, ...rest } = opts;
  return createOAuth2Client({
    ...rest,
    authorizeUrl: googleAuthorizeUrl(authBase),
    authorizeParams: { access_type: 'offline', prompt: 'consent', include_granted_scopes: 'true' },
  });
}

/**
 * The scopes of `required` a token answer's space-separated `scope` lacks: the consent screen lets
 * the user untick scopes, and the connection then cannot do its work.
 */
export function missingGoogleScopes(granted: unknown, required: readonly string[]): string[] {
  const have = new Set((str(granted) ?? '').split(' ').filter(Boolean));
  return required.filter((s) => !have.has(s));
}

/** The token endpoint's error (`invalid_grant`, …), or undefined when the body is not one. */
export function readGoogleOAuthError(body: unknown): { code: string; description?: string } | undefined {
  if (!isObject(body) || typeof body.error !== 'string') return undefined;
  return { code: body.error, description: str(body.error_description) };
}

/** The parts of a Google API error body the failure mappings classify by. */
export interface GoogleApiError {
  /** `error.errors[0].reason` (quotaExceeded, uploadLimitExceeded, …), else `error.status` (PERMISSION_DENIED, …). */
  reason?: string;
  /** `error.message`, else `HTTP <status>`. */
  message: string;
}

/** Reads `{error:{code, message, errors:[{reason}], status}}`; a body without it gives only the status. */
export function readGoogleApiError(body: unknown, status: number): GoogleApiError {
  const error: Json = isObject(body) && isObject(body.error) ? body.error : {};
  const first = Array.isArray(error.errors) && isObject(error.errors[0]) ? error.errors[0] : {};
  const reason = str(first.reason) ?? str(error.status);
  return { ...(reason ? { reason } : {}), message: str(error.message) ?? `HTTP ${status}` };
}

/** Milliseconds until the next midnight in America/Los_Angeles, when Google API daily quotas reset. */
export function msUntilPacificMidnight(now: Date): number {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/Los_Angeles', hourCycle: 'h23',
    year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
  });
  /** Pacific wall-clock date at `t`, and the zone's offset from UTC then. */
  const wall = (t: number) => {
    const p: Record<string, number> = Object.fromEntries(format.formatToParts(new Date(t)).map((part) => [part.type, Number(part.value)]));
    const wallAsUtc = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
    return { y: p.year!, m: p.month!, d: p.day!, offset: wallAsUtc - Math.floor(t / 1000) * 1000 };
  };
  const t = now.getTime();
  const today = wall(t);
  const midnightAsUtc = Date.UTC(today.y, today.m - 1, today.d + 1);
  // The offset at midnight may differ from now's on a daylight-saving day: take the one at the target.
  const guess = midnightAsUtc - today.offset;
  return midnightAsUtc - wall(guess).offset - t;
}
