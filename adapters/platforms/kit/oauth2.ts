/**
 * The OAuth 2 authorization-code flow as networks implement it (RFC 6749, PKCE RFC 7636): the
 * authorize URL, the code exchange and the refresh with rotation. Nothing here gives an answer a
 * meaning: a token endpoint that refuses goes to the adapter's failure-mapping function (`fail`).
 */
import { exchangeJson, formPost, isObject, num, str, type HttpExchange, type Json, type Now } from './http';

export interface OAuth2ClientOptions {
  clientId: string;
  clientSecret: string;
  /** The consent page, e.g. https://accounts.google.com/o/oauth2/v2/auth. */
  authorizeUrl: string;
  tokenUrl: string;
  scopes: readonly string[];
  /** How scopes are joined in the authorize URL (space by default; TikTok uses commas). */
  scopeSeparator?: string;
  /** How the client authenticates at the token endpoint: form fields (default) or HTTP Basic. */
  clientAuth?: 'body' | 'basic';
  /** Name of the client id parameter (TikTok calls it client_key). Default client_id. */
  clientIdParam?: string;
  /** Extra authorize URL parameters (access_type=offline, prompt=consent, …). */
  authorizeParams?: Record<string, string>;
  fetch: typeof fetch;
  timeoutMs: number;
  now: Now;
  /** Gives a failed token answer its meaning (the adapter's one failure-mapping function). */
  fail: (outcome: HttpExchange | { kind: 'malformed'; status: number; what: string }) => Error;
}

/** A token endpoint's answer, as networks send it. */
export interface TokenAnswer extends Json {
  access_token: string;
}

export interface OAuth2Client {
  authorizeUrl(input: { state: string; redirectUri: string; codeChallenge?: string }): string;
  /** POSTs `fields` (plus client authentication) to the token endpoint; any non-2xx or a body without access_token goes to `fail`. */
  token(fields: Record<string, string>): Promise<TokenAnswer>;
  exchangeCode(input: { code: string; redirectUri: string; codeVerifier?: string }): Promise<TokenAnswer>;
  refresh(refreshToken: string): Promise<TokenAnswer>;
  /** ISO time `seconds` from now (expires_in → expires_at), undefined when the answer has none. */
  expiresAt(seconds: unknown): string | undefined;
}

export function createOAuth2Client(opts: OAuth2ClientOptions): OAuth2Client {
  const idParam = opts.clientIdParam ?? 'client_id';
  const basic = `Basic ${Buffer.from(`${opts.clientId}:${opts.clientSecret}`).toString('base64')}`;

  async function token(fields: Record<string, string>): Promise<TokenAnswer> {
    const auth = opts.clientAuth === 'basic'
      ? formPost(fields, { authorization: basic })
      : formPost({ ...fields, [idParam]: opts.clientId, client_secret: opts.clientSecret });
    const outcome = await exchangeJson(opts.tokenUrl, auth, { fetch: opts.fetch, timeoutMs: opts.timeoutMs });
    if (outcome.kind === 'no_response' || outcome.status < 200 || outcome.status >= 300) throw opts.fail(outcome);
    if (!isObject(outcome.body) || typeof outcome.body.access_token !== 'string') {
      throw opts.fail({ kind: 'malformed', status: outcome.status, what: 'an access token' });
    }
    return outcome.body as TokenAnswer;
  }

  return {
    authorizeUrl({ state, redirectUri, codeChallenge }) {
      const params = new URLSearchParams({
        [idParam]: opts.clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: opts.scopes.join(opts.scopeSeparator ?? ' '),
        state,
        ...opts.authorizeParams,
      });
      if (codeChallenge) {
        params.set('code_challenge', codeChallenge);
        params.set('code_challenge_method', 'S256');
      }
      return `${opts.authorizeUrl}?${params.toString()}`;
    },
    token,
    exchangeCode: ({ code, redirectUri, codeVerifier }) => token({
      grant_type: 'authorization_code', code, redirect_uri: redirectUri, ...(codeVerifier ? { code_verifier: codeVerifier } : {}),
    }),
    refresh: (refreshToken) => token({ grant_type: 'refresh_token', refresh_token: refreshToken }),
    expiresAt(seconds) {
      const s = num(seconds);
      return s !== undefined && s > 0 ? new Date(opts.now().getTime() + s * 1000).toISOString() : undefined;
    },
  };
}

/**
 * Credentials after a refresh: the new access token, the new refresh token when the network
 * rotated it (TikTok, X, Pinterest), else the old one, and the new expiry.
 */
export function rotated(previous: Record<string, string>, answer: TokenAnswer, expiresAt: string | undefined): Record<string, string> {
  const next: Record<string, string> = { ...previous, access_token: answer.access_token };
  const refreshToken = str(answer.refresh_token);
  if (refreshToken) next.refresh_token = refreshToken;
  if (expiresAt) next.expires_at = expiresAt;
  return next;
}
