/**
 * What Nostr accepts from Herald's clients: the note fields (media URLs with imeta tags, hashtags,
 * a content warning, long-form article fields) and the fields of `POST /users/nostr/credentials`
 * (a private key and the relays to publish to).
 *
 * nostr_title is not a setting: the engine folds it into post.title, the note's text.
 */
import type { SettingsSchema, SettingViolation } from '../../../core/domain/settings';
import { credentialField } from '../kit/credentials';
import { isPublicHost } from '../kit/public-host';
import { nip19 } from 'nostr-tools';

export const MAX_RELAYS = 20;

export const nostrSettings: SettingsSchema = {
  fields: [
    { name: 'nostr_media_urls', type: 'string_list', endpoints: ['text'], maxLength: 20, description: 'https URLs of images or videos to attach (each gets an imeta tag, NIP-92).' },
    { name: 'nostr_alt_text', type: 'string_list', endpoints: ['text'], separator: '||', maxLength: 20, description: 'Alt text per media URL, in order (JSON array or ||-separated).' },
    { name: 'nostr_hashtags', type: 'string_list', endpoints: ['text'], maxLength: 30, description: 'Hashtags (t tags), without #.' },
    { name: 'nostr_content_warning', type: 'string', endpoints: ['text'], maxLength: 200, description: 'A content warning (NIP-36) with its reason.' },
    { name: 'nostr_long_form', type: 'boolean', endpoints: ['text'], default: false, description: 'Publish as a long-form article (kind 30023, NIP-23); texts over 5,000 characters always are.' },
    { name: 'nostr_article_title', type: 'string', endpoints: ['text'], maxLength: 300, description: 'The article\'s title (long form); default: the first line of the text.' },
    { name: 'nostr_summary', type: 'string', endpoints: ['text'], maxLength: 1000, description: 'The article\'s summary (long form).' },
  ],
  check(values) {
    const violations: SettingViolation[] = [];
    const urls = Array.isArray(values.nostr_media_urls) ? values.nostr_media_urls as string[] : [];
    for (const u of urls) {
      let ok = false;
      try { ok = new URL(u).protocol === 'https:'; } catch { ok = false; }
      if (!ok) { violations.push({ field: 'nostr_media_urls', message: `nostr_media_urls takes https URLs; "${u}" is not one` }); break; }
    }
    if (Array.isArray(values.nostr_hashtags) && (values.nostr_hashtags as string[]).some((t) => /[\s#]/.test(t))) {
      violations.push({ field: 'nostr_hashtags', message: 'nostr_hashtags are words without # or spaces' });
    }
    return violations;
  },
};

/** The 32-byte secret key of an nsec or 64-hex private key; undefined when it is neither. */
export function secretKeyOf(raw: string): Uint8Array | undefined {
  const value = raw.trim();
  if (/^[0-9a-f]{64}$/i.test(value)) return Uint8Array.from(Buffer.from(value, 'hex'));
  if (!value.startsWith('nsec1')) return undefined;
  try {
    const decoded = nip19.decode(value);
    return decoded.type === 'nsec' ? decoded.data : undefined;
  } catch {
    return undefined;
  }
}

/** A relay URL: wss (ws only where configured: local relays, the sandbox), no credentials. */
export function relayUrl(raw: string, allowInsecure: boolean): string | undefined {
  try {
    const url = new URL(raw.trim());
    if (url.username || url.password || url.hash) return undefined;
    if (url.protocol !== 'wss:' && !(allowInsecure && url.protocol === 'ws:')) return undefined;
    // Local and private addresses only where insecure relays are allowed (local relays, the sandbox).
    if (!allowInsecure && !isPublicHost(url)) return undefined;
    return url.toString().replace(/\/$/, url.pathname === '/' ? '' : '/');
  } catch {
    return undefined;
  }
}

export const nostrCredentialFields: SettingsSchema = {
  fields: [
    credentialField({
      name: 'private_key', type: 'string', required: true, aliases: ['nsec'],
      description: 'The account\'s private key: nsec1… or 64 hex characters. It signs every note; it is stored encrypted and never shown again.',
    }),
    credentialField({
      name: 'relays', type: 'string_list', required: true, maxLength: MAX_RELAYS,
      description: `The relays to publish to (up to ${MAX_RELAYS}): wss:// URLs, as a list or comma-separated, such as wss://relay.damus.io,wss://nos.lol.`,
    }),
    credentialField({ name: 'name', type: 'string', description: 'The display name of the connection; default: the profile\'s name.' }),
  ],
  check(values) {
    const violations: SettingViolation[] = [];
    if (typeof values.private_key === 'string' && !secretKeyOf(values.private_key)) {
      violations.push({ field: 'private_key', message: 'private_key must be an nsec1… key or 64 hex characters' });
    }
    if (Array.isArray(values.relays) && !values.relays.length) violations.push({ field: 'relays', message: 'relays needs at least one relay URL' });
    return violations;
  },
};
