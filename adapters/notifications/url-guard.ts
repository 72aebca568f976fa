import { invalidInput } from '../../core/domain/errors';
import type { WebhookUrlGuard } from '../../core/ports/notification-channels';
import { DestinationRefused, resolveDestination, type DestinationRules } from '../net/destination';

/**
 * The SSRF rules when an address is saved: http(s) only, no credentials in the URL, and a host
 * that resolves only to public addresses (unless its host and port are allow-listed). Checked
 * again at every delivery (adapters/notifications/http-post.ts), since DNS may answer differently later.
 */
export function createWebhookUrlGuard(rules: DestinationRules): WebhookUrlGuard {
  return {
    async vet(raw, field) {
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        throw invalidInput(`${field}: "${raw.slice(0, 200)}" is not a URL.`, { violations: [{ field, message: 'not a URL' }] }, 'webhook_url_invalid');
      }
      if (url.protocol !== 'https:' && url.protocol !== 'http:') {
        throw invalidInput(`${field} must be an http(s) URL.`, { violations: [{ field, message: 'must be http or https' }] }, 'webhook_url_invalid');
      }
      if (url.username || url.password) throw invalidInput(`${field} must not carry credentials.`, { violations: [{ field, message: 'credentials in URL' }] }, 'webhook_url_invalid');
      try {
        await resolveDestination(url, rules);
      } catch (err) {
        if (!(err instanceof DestinationRefused)) throw err;
        if (err.code === 'ENOTFOUND') throw invalidInput(`${field}: host ${url.hostname} does not resolve.`, { violations: [{ field, message: 'host does not resolve' }] }, 'webhook_url_unresolvable');
        throw invalidInput(`${field}: ${url.origin} points to a loopback, private, link-local or metadata address; use a public address.`,
          { violations: [{ field, message: 'private or reserved address' }] }, 'webhook_url_forbidden');
      }
    },
  };
}
