/**
 * Self-hosted networks (Mastodon, listmonk) are called at an instance URL each connection brings.
 * Such a URL must not turn Herald into a proxy into private networks: it must be https and resolve
 * to public addresses only, unless the deployment allows private instances (the sandbox's loopback
 * simulators, an instance on the operator's own network).
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { HeraldError } from '../../../core/domain/errors';
import type { SettingsSchema } from '../../../core/domain/settings';
import { isReservedAddress } from '../../net/reserved-addresses';
import { invalidCredential } from './credentials';
import { trimBase } from './http';

/** The instance's base URL (origin and path, without trailing slashes), or the invalid_input refusal naming `field`. */
export async function instanceBase(raw: string, opts: { allowPrivate: boolean; schema: SettingsSchema; field: string }): Promise<string> {
  const url = new URL(raw);
  const refuse = (message: string): HeraldError => invalidCredential(opts.schema, opts.field, message);
  if (url.protocol !== 'https:' && !(opts.allowPrivate && url.protocol === 'http:')) throw refuse(`${opts.field} must be an https URL`);
  if (!opts.allowPrivate) {
    const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true }).catch(() => []);
    if (!addresses.length) throw refuse(`${opts.field}: ${host} does not resolve`);
    if (addresses.some((a) => isReservedAddress(a.address))) throw refuse(`${opts.field} points to a private or reserved address`);
  }
  return trimBase(`${url.origin}${url.pathname}`);
}
