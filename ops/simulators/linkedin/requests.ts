/** What every simulated REST call checks first: the LinkedIn-Version, a JSON body, who may act as whom. */
import type { ServerResponse } from 'node:http';
import type { SimRequest } from '../kit/http';
import { badRequest } from './answers';
import { POSTING_ROLES, type LinkedInState, type TokenRecord } from './state';
import { isObj } from './text';

export function versionProblem(raw: string | undefined): { code: string; message: string } | undefined {
  if (!raw) return { code: 'VERSION_MISSING', message: 'A version must be present. Please specify a version by adding the LinkedIn-Version header.' };
  const m = /^(\d{4})(\d{2})(?:\.\d{2})?$/.exec(raw);
  const now = new Date();
  const current = now.getUTCFullYear() * 12 + now.getUTCMonth();
  const month = m ? Number(m[1]) * 12 + Number(m[2]) - 1 : NaN;
  // A monthly version is served for a year; future months do not exist yet.
  if (!m || Number(m[2]) < 1 || Number(m[2]) > 12 || month > current || month <= current - 12) {
    return { code: 'NONEXISTENT_VERSION', message: `Requested version ${raw} is not active` };
  }
  return undefined;
}

/** May this token write as `urn` (the member itself, or a page the member has a posting role on)? */
export function mayActAs(s: LinkedInState, token: TokenRecord, urn: unknown): boolean {
  if (typeof urn !== 'string') return false;
  if (urn === `urn:li:person:${token.sub}`) return token.scope.includes('w_member_social');
  const org = /^urn:li:organization:(\d+)$/.exec(urn)?.[1];
  const page = org ? s.accounts.get(token.sub)?.pages.find((p) => p.id === org) : undefined;
  return Boolean(page && POSTING_ROLES.includes(page.role) && token.scope.includes('w_organization_social'));
}

export function jsonBody(req: SimRequest, res: ServerResponse): Record<string, unknown> | undefined {
  if (req.body.kind === 'json' && isObj(req.body.value)) return req.body.value;
  badRequest(res, req.body.kind === 'invalid' ? 'Malformed JSON body' : 'The request body must be a JSON object');
  return undefined;
}
