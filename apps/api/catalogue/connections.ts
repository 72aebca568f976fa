import { z } from 'zod';
import { invalidInput } from '../../../core/domain/errors';
import {
  connectLanguage, CONNECT_LANGUAGES, optionalBoolean, optionalText, optionalUrl, parseUiLabels, parseWeekStartDay, platformList, WEEK_DAYS,
} from '../../../core/domain/connect-link';
import { assertProfileUsername, PROFILE_USERNAME_PATTERN } from '../../../core/domain/profile';
import { operation, refusedAs, ruledBy } from './types';
import { httpUrl, ok, OkMessage, Platform, PlatformParam, ProfileUsername, SocialAccount } from './common';
import { networkCredentialFields } from './settings';
import { requireConnectToken } from '../../../core/usecases/connect-links';

/** Connecting networks to profiles: OAuth, connect links (hosted page), disconnecting. */

const PlatformParams = z.object({ platform: PlatformParam() });

export const startOAuth = operation({
  id: 'startOAuth', method: 'post', path: '/svc/oauth/{platform}/start', tags: ['connections'],
  summary: 'Start connecting an account by OAuth',
  description: 'Returns the network\'s authorize URL for a profile. Send the end user\'s browser there; after consent the network calls back Herald, which connects the account and redirects to `redirect_url` with `connect_status` (success, cancelled, error) and `error_code`. For your own end users prefer a connect link (generateConnectLink). Errors: 400 `platform_not_supported` (not an OAuth network), 404 `PROFILE_NOT_FOUND`, 503 `reddit_unavailable`.',
  auth: 'apiKey',
  params: PlatformParams,
  body: z.looseObject({
    profile_username: ruledBy((value, fields) => value ?? fields.username,
      z.string({ error: 'profile_username is required: the profile to connect the account to' }).min(1).describe('The profile to connect the account to (also `username`).')),
    redirect_url: refusedAs('invalid_request', httpUrl('redirect_url', { orEmpty: true }).optional().describe('Where the browser goes after the callback.')),
  }),
  responses: { 200: { description: 'The authorize URL and its one-time state.', schema: ok({ platform: z.string(), authorize_url: z.url(), state: z.string(), expires_at: z.string() }) } },
  errors: { 400: 'Unknown or non-OAuth network, or profile_username missing.', 404: 'PROFILE_NOT_FOUND.', 503: 'reddit_unavailable.' },
});

export const completeOAuth = operation({
  id: 'completeOAuth', method: 'get', path: '/svc/oauth/{platform}/callback', tags: ['connections'],
  summary: 'OAuth callback (browser)',
  description: 'Where the network sends the end user\'s browser back. No API key: the one-time `state` is the credential. Redirects (302) to the redirect_url of the start with `connect_status`, `platform` and `error_code`, or shows a short HTML page when there is none. Not for agents.',
  auth: 'none',
  params: PlatformParams,
  query: z.object({
    state: z.string().optional().describe('The one-time state of startOAuth.'),
    code: z.string().optional().describe('The authorization code.'),
    error: z.string().optional().describe('The network\'s error (the user cancelled, …).'),
    error_description: z.string().optional(),
  }),
  responses: {
    200: { description: 'Connected (no redirect_url): a short HTML page.', contentType: 'text/html' },
    302: { description: 'Back to redirect_url with connect_status, platform and error_code.', headers: { Location: 'redirect_url with connect_status, platform and error_code.' } },
  },
  errors: { 400: 'The connection failed (HTML page, without redirect_url) or the platform is unknown.', 503: 'reddit_unavailable.' },
  mcp: { exclude: true },
});

export const disconnectAccount = operation({
  id: 'disconnectAccount', method: 'delete', path: '/svc/users/{username}/social-accounts/{platform}', tags: ['connections'],
  summary: 'Disconnect an account',
  description: 'Disconnects a profile\'s account on one network: its credentials are deleted and `social_account_disconnected` is sent to webhooks. Errors: 404 `PROFILE_NOT_FOUND` / `ACCOUNT_NOT_CONNECTED`, 400 `platform_not_supported`.',
  auth: 'apiKey',
  params: z.object({ username: ProfileUsername, platform: PlatformParam() }),
  responses: { 200: { description: 'Disconnected.', schema: ok({ message: z.string(), profile_username: z.string(), platform: z.string(), status: z.literal('disconnected') }) } },
  errors: { 400: 'platform_not_supported.', 404: 'PROFILE_NOT_FOUND or ACCOUNT_NOT_CONNECTED.', 503: 'reddit_unavailable.' },
  mcp: { destructive: true },
});

const credentials = networkCredentialFields();
const CREDENTIALS_PROFILE = 'profile_username is required: the profile to connect this account to.';
export const connectWithCredentials = operation({
  id: 'connectWithCredentials', method: 'post', path: '/svc/users/{platform}/credentials', tags: ['connections'],
  summary: 'Connect an account with credentials',
  description: `Connects a network that takes credentials instead of OAuth (${credentials.networks.join(', ')}) to a profile, e.g. discord \`webhook_url\`, telegram \`bot_token\` + \`chat_id\`. The credentials are checked against the network, then stored encrypted. Errors: 400 \`platform_not_supported\` or a missing/refused field (named), 404 \`PROFILE_NOT_FOUND\`, 503 \`reddit_unavailable\`.`,
  auth: 'apiKey',
  params: z.object({
    platform: PlatformParam((platform) => {
      if (!credentials.networks.includes(platform)) throw invalidInput(`${platform} is not connected with credentials.`, undefined, 'platform_not_supported');
    }),
  }),
  body: z.looseObject({
    profile_username: refusedAs('invalid_request', z.string({ error: CREDENTIALS_PROFILE }).min(1, { error: CREDENTIALS_PROFILE }).describe('The profile to connect the account to.')),
    ...credentials.shape,
  }),
  responses: { 200: { description: 'Connected.', schema: OkMessage } },
  errors: { 400: 'Unknown platform (`platform_not_supported`), missing or refused credentials.', 404: 'PROFILE_NOT_FOUND.', 503: 'reddit_unavailable.' },
});

export const generateConnectLink = operation({
  id: 'generateConnectLink', method: 'post', path: '/svc/users/generate-jwt', tags: ['connections'],
  summary: 'Generate a connect link',
  description: 'A single-use URL (valid 48 hours) of the hosted connect page where the end user of a profile connects their accounts. Send it to the end user. Replace `/connect` by `/connect/calendar` to open the calendar. Errors: 400 invalid username or ui_labels, 403 `PROFILE_BLOCKED`, 404 `PROFILE_NOT_FOUND`.',
  auth: 'apiKey',
  body: z.looseObject({
    // In the order the core checks them (core/domain/connect-link.ts); platforms the page cannot connect are the core's (its registry).
    username: ruledBy((v) => { assertProfileUsername(v); return v; }, z.string().regex(PROFILE_USERNAME_PATTERN).describe('The profile.')),
    ui_labels: ruledBy(parseUiLabels, z.record(z.string(), z.string()).nullable().optional().describe('Connect-page text by key (at most 100; keys ^[a-zA-Z0-9_.]+$; at most 300 characters each); null or {} clears.')),
    platforms: ruledBy(platformList, z.union([z.array(Platform), z.string().describe('A comma list.')]).optional().describe('Networks offered (default: all connectable).')),
    language: ruledBy(connectLanguage, z.enum(CONNECT_LANGUAGES).optional()),
    show_calendar: ruledBy((_, all) => optionalBoolean(all, 'show_calendar', true), z.boolean().optional().describe('Default true.')),
    readonly_calendar: ruledBy((_, all) => optionalBoolean(all, 'readonly_calendar', false), z.boolean().optional().describe('Default false.')),
    redirect_url: ruledBy((_, all) => optionalUrl(all, 'redirect_url'), z.url().optional().describe('Where the user goes after linking.')),
    logo_image: ruledBy((_, all) => optionalUrl(all, 'logo_image'), z.url().optional()),
    redirect_button_text: ruledBy((_, all) => optionalText(all, 'redirect_button_text', 100), z.string().optional().describe('At most 100 characters.')),
    connect_title: ruledBy((_, all) => optionalText(all, 'connect_title', 200), z.string().optional().describe('At most 200 characters.')),
    connect_description: ruledBy((_, all) => optionalText(all, 'connect_description', 1000), z.string().optional().describe('At most 1000 characters.')),
  }),
  responses: { 200: { description: 'The link.', schema: ok({ access_url: z.url(), duration: z.string().describe('48h') }) } },
  errors: { 400: 'Invalid username or ui_labels.', 403: 'PROFILE_BLOCKED.', 404: 'PROFILE_NOT_FOUND.' },
});

export const validateConnectToken = operation({
  id: 'validateConnectToken', method: 'get', path: '/svc/users/validate-jwt', tags: ['connections'],
  summary: 'Validate a connect token',
  description: 'Checks the token of a connect URL (`Authorization: Bearer <token>`, not an API key) and returns its profile, or `{isValid: false, reason}` for a used link or a gone/blocked profile. 401 for a missing, unknown or expired token.',
  auth: 'connectToken',
  responses: {
    200: {
      description: 'Valid: the profile. Used link or gone profile: `{isValid: false, reason}`.',
      schema: z.union([
        ok({ profile: z.object({ username: z.string(), social_accounts: z.record(z.string(), SocialAccount), ui_labels: z.record(z.string(), z.string()) }) }),
        z.object({ isValid: z.literal(false), reason: z.enum(['link_already_used', 'profile_not_found', 'profile_blocked']) }),
      ]),
    },
  },
  errors: { 401: 'Missing, unknown (`invalid_token`) or expired (`token_expired`) token.', 429: 'auth_blocked: too many failed attempts from this address.' },
  mcp: { exclude: true },
});

/** The commercial API's clients also send the token in a JSON body, with the API key. */
export const validateConnectTokenPost = operation({
  id: 'validateConnectTokenPost', method: 'post', path: '/svc/users/validate-jwt', tags: ['connections'],
  summary: 'Validate a connect token (POST)',
  description: 'The same check as GET, for a token sent in the JSON body `{jwt}` with the API key in `Authorization` (only this account\'s links are known: another account\'s token is `invalid_token`).',
  auth: 'apiKey',
  body: z.object({
    jwt: ruledBy(requireConnectToken, z.string().describe('The connect token (the `token` of the connect URL).')),
  }),
  responses: validateConnectToken.responses,
  errors: { 400: 'jwt missing or not a string.', 401: 'Unknown (`invalid_token`) or expired (`token_expired`) token.' },
  mcp: { exclude: true },
});

const Preferences = ok({ week_start_day: z.string().describe('First day of the calendar week.') });
export const getPreferences = operation({
  id: 'getPreferences', method: 'get', path: '/svc/users/preferences', tags: ['connections'],
  summary: 'Connect-page preferences',
  description: 'The operator\'s preferences for the hosted pages (calendar week start).',
  auth: 'apiKey',
  responses: { 200: { description: 'Preferences.', schema: Preferences } },
});

export const setPreferences = operation({
  id: 'setPreferences', method: 'post', path: '/svc/users/preferences', tags: ['connections'],
  summary: 'Save connect-page preferences',
  description: 'Sets the operator\'s preferences for the hosted pages. Errors: 400 naming the field.',
  auth: 'apiKey',
  body: z.looseObject({
    week_start_day: ruledBy((v) => {
      if (v === undefined) throw invalidInput('week_start_day is required: a day name (sunday … saturday) or 0-6 with 0 = sunday.', { field: 'week_start_day' });
      return parseWeekStartDay(v);
    }, z.union([z.string(), z.int().min(0).max(6)]).describe(`A day name (${WEEK_DAYS.join(', ')}, or its first three letters) or 0-6 with 0 = sunday.`)),
  }),
  responses: { 200: { description: 'Saved preferences.', schema: Preferences } },
  errors: { 400: 'An invalid value.' },
});

/** The ones registered before the API-key check (their own credential). */
export const openConnectionOperations = [completeOAuth, validateConnectToken];
export const connectLinkOperations = [generateConnectLink, validateConnectTokenPost, getPreferences, setPreferences];
export const connectionOperations = [...openConnectionOperations, connectWithCredentials, ...connectLinkOperations, startOAuth, disconnectAccount];
