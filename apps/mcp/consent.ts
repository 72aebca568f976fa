import { createHmac, timingSafeEqual } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { AuthorizationParams } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import { HeraldError } from '../../core/domain/errors';
import { authenticate, type AuthenticateDeps } from '../../core/usecases/authenticate';
import { issueAuthorizationCode, parseAgentScopes, type AgentOAuthDeps } from '../../core/usecases/agent-oauth';
import { html, layout, PAGE_SECURITY_HEADERS } from '../web/html';
import type { ConsentRenderer } from './oauth-provider';

/**
 * The authorization page: the operator signs in with an API key of the operator account (the way
 * operators authenticate everywhere in Herald; the key is checked by the same use case and
 * auth-failure guard as the API's) and allows or denies the client. The pending authorization
 * request travels in the form, signed and expiring, so nothing is stored before consent.
 */
export const CONSENT_PATH = '/oauth/consent';
const REQUEST_TTL_MS = 10 * 60_000;

const SCOPE_TEXT: Record<string, string> = {
  herald: 'Everything your API key can do: publish, schedule, manage profiles, connections, comments, media jobs and notifications.',
  'herald:read': 'Read only: profiles, uploads, history, analytics and settings; nothing can be changed.',
};

interface PendingAuthorization {
  client_id: string;
  client_name: string;
  redirect_uri: string;
  code_challenge: string;
  scopes: string[];
  state?: string;
  resource?: string;
  exp: number;
}

function sign(key: string, pending: PendingAuthorization): string {
  const payload = Buffer.from(JSON.stringify(pending)).toString('base64url');
  return `${payload}.${createHmac('sha256', key).update(payload).digest('base64url')}`;
}

function verify(key: string, token: unknown, now: number): PendingAuthorization | null {
  if (typeof token !== 'string') return null;
  const [payload, mac] = token.split('.');
  if (!payload || !mac) return null;
  const expected = Buffer.from(createHmac('sha256', key).update(payload).digest('base64url'));
  const given = Buffer.from(mac);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const pending = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as PendingAuthorization;
  return pending.exp > now ? pending : null;
}

function page(res: Response, status: number, pending: PendingAuthorization, signed: string, error?: string): void {
  const redirectHost = (() => { try { return new URL(pending.redirect_uri).host || pending.redirect_uri; } catch { return pending.redirect_uri; } })();
  const body = html`
    <h1>Allow ${pending.client_name} to use Herald?</h1>
    <p><strong>${pending.client_name}</strong> (an agent or app, redirecting to <code>${redirectHost}</code>) asks to act for your Herald operator account:</p>
    <ul>${pending.scopes.map((s) => html`<li><code>${s}</code>: ${SCOPE_TEXT[s] ?? s}</li>`)}</ul>
    ${error ? html`<p role="alert" data-notice="error">${error}</p>` : ''}
    <form method="post" action="${CONSENT_PATH}">
      <input type="hidden" name="request" value="${signed}">
      <label for="api_key">Sign in with an API key of your operator account</label>
      <input id="api_key" name="api_key" type="password" autocomplete="off" required placeholder="hk_…">
      <p>The app gets its own tokens, not your key; they stop working when you revoke the key. The key is not stored.</p>
      <button type="submit" name="decision" value="allow">Allow</button>
      <button type="submit" name="decision" value="deny" formnovalidate>Deny</button>
    </form>`;
  res.status(status).set(PAGE_SECURITY_HEADERS).type('html').send(layout({ lang: 'en', title: `Allow ${pending.client_name}?`, body }));
}

function redirectBack(res: Response, pending: PendingAuthorization, params: Record<string, string>): void {
  const target = new URL(pending.redirect_uri);
  for (const [k, v] of Object.entries(params)) target.searchParams.set(k, v);
  if (pending.state !== undefined) target.searchParams.set('state', pending.state);
  res.set('Cache-Control', 'no-store').redirect(302, target.href);
}

export function consentRenderer(key: string, now: () => number = Date.now): ConsentRenderer {
  return {
    render(res, { client, params, scopes }: { client: OAuthClientInformationFull; params: AuthorizationParams; scopes: string[] }) {
      const pending: PendingAuthorization = {
        client_id: client.client_id,
        client_name: client.client_name || client.client_id,
        redirect_uri: params.redirectUri,
        code_challenge: params.codeChallenge,
        scopes,
        ...(params.state !== undefined ? { state: params.state } : {}),
        ...(params.resource ? { resource: params.resource.href } : {}),
        exp: now() + REQUEST_TTL_MS,
      };
      page(res, 200, pending, sign(key, pending));
    },
  };
}

/** POST /oauth/consent: sign-in and decision. */
export function consentRoutes(deps: { oauth: AgentOAuthDeps; auth: AuthenticateDeps; key: string; now?: () => number }): Router {
  const router = express.Router();
  router.post(CONSENT_PATH, express.urlencoded({ extended: false, limit: '16kb' }), async (req: Request, res: Response) => {
    const form = (req.body ?? {}) as Record<string, unknown>;
    const pending = verify(deps.key, form.request, (deps.now ?? Date.now)());
    if (!pending) {
      res.status(400).set(PAGE_SECURITY_HEADERS).type('html')
        .send(layout({ lang: 'en', title: 'Authorization expired', body: html`<h1>This authorization request expired or is invalid</h1><p>Start again from the app that sent you here.</p>` }));
      return;
    }
    if (form.decision !== 'allow') {
      redirectBack(res, pending, { error: 'access_denied', error_description: 'The operator denied the request.' });
      return;
    }
    const signed = String(form.request);
    let caller;
    try {
      caller = await authenticate(deps.auth, { authorization: `Apikey ${String(form.api_key ?? '').trim()}`, address: req.ip ?? 'unknown' });
    } catch (err) {
      if (err instanceof HeraldError && (err.kind === 'unauthenticated' || err.kind === 'too_many_requests')) {
        page(res, err.kind === 'unauthenticated' ? 401 : 429, pending, signed, err.kind === 'unauthenticated' ? 'That API key is not valid: check it and try again.' : err.message);
        return;
      }
      throw err;
    }
    const code = await issueAuthorizationCode(deps.oauth, {
      clientId: pending.client_id, accountId: caller.account.id, keyHash: caller.key.hash,
      scope: parseAgentScopes(pending.scopes), codeChallenge: pending.code_challenge, redirectUri: pending.redirect_uri,
      resource: pending.resource ?? null,
    });
    redirectBack(res, pending, { code });
  });
  return router;
}
