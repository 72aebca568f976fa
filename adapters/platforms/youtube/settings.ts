/** The per-post fields of YouTube (spec "YouTube fields") and the checks intake runs on them. */
import type { MediaRef } from '../../../core/domain/media';
import type { SettingField, SettingsSchema, SettingViolation } from '../../../core/domain/settings';

export const TITLE_MAX_CHARS = 100;
export const DESCRIPTION_MAX_BYTES = 5000;
const TAGS_MAX_CHARS = 500;
export const THUMBNAIL_MAX_BYTES = 2 * 1024 * 1024;

const V = ['video'] as const;
const LANGUAGE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;
export const SUBTITLE_EXTENSIONS = ['srt', 'vtt', 'sbv', 'sub', 'ass', 'ssa', 'ttml', 'dfxp'];
export const THUMBNAIL_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/bmp'];
/** The indexed subtitle forms cannot be declared open-ended: slots 0..9 are generated next to the unindexed one. */
export const YOUTUBE_SUBTITLE_SLOTS: readonly string[] = ['', ...Array.from({ length: 10 }, (_, n) => `_${n}`)];

const subtitleFields: SettingField[] = YOUTUBE_SUBTITLE_SLOTS.flatMap((slot) => [
  { name: `youtube_subtitle_file${slot}`, type: 'file', endpoints: V, description: `Caption file (${SUBTITLE_EXTENSIONS.join(', ').toUpperCase()}).` },
  { name: `youtube_subtitle_language${slot}`, type: 'string', endpoints: V, description: 'BCP-47 language of the caption file; required with it.' },
  { name: `youtube_subtitle_name${slot}`, type: 'string', endpoints: V, maxLength: 150, description: 'Track name; defaults to the language code.' },
] satisfies SettingField[]);

const bool = (name: string, dflt: boolean, aliases: string[] = []): SettingField =>
  ({ name, aliases: [`youtube_${name}`, ...aliases], type: 'boolean', endpoints: V, default: dflt });

const fields: SettingField[] = [
  { name: 'youtube_title', type: 'string', endpoints: V, maxLength: TITLE_MAX_CHARS, description: 'Overrides title.' },
  { name: 'youtube_description', aliases: ['description'], type: 'string', endpoints: V, maxLength: DESCRIPTION_MAX_BYTES, description: 'Defaults to the title; at most 5000 bytes.' },
  { name: 'tags', aliases: ['youtube_tags'], type: 'string_list', endpoints: V },
  { name: 'categoryId', aliases: ['youtube_categoryId', 'category_id'], type: 'string', endpoints: V, default: '22' },
  { name: 'privacyStatus', aliases: ['youtube_privacyStatus', 'privacy_status'], type: 'string', endpoints: V, oneOf: ['public', 'unlisted', 'private'], default: 'public' },
  { name: 'publishAt', aliases: ['youtube_publishAt', 'publish_at'], type: 'string', endpoints: V, description: 'ISO-8601 time a private video turns public.' },
  bool('embeddable', true),
  { name: 'license', aliases: ['youtube_license'], type: 'string', endpoints: V, oneOf: ['youtube', 'creativeCommon'], default: 'youtube' },
  bool('publicStatsViewable', true),
  { name: 'thumbnail', aliases: ['youtube_thumbnail'], type: 'file', endpoints: V, description: 'JPG, PNG, GIF or BMP, at most 2 MB; wins over thumbnail_url.' },
  { name: 'thumbnail_url', aliases: ['youtube_thumbnail_url'], type: 'url', endpoints: V },
  bool('selfDeclaredMadeForKids', false, ['made_for_kids']),
  // The cross-platform is_ai_generated feeds it; the platform's own name wins when both are sent.
  bool('containsSyntheticMedia', false, ['is_ai_generated']),
  { name: 'defaultLanguage', aliases: ['youtube_defaultLanguage'], type: 'string', endpoints: V },
  { name: 'defaultAudioLanguage', aliases: ['youtube_defaultAudioLanguage'], type: 'string', endpoints: V },
  // In the spec's list, but refused by the check below: the Data API cannot set them.
  { name: 'allowedCountries', aliases: ['youtube_allowedCountries'], type: 'string_list', endpoints: V },
  { name: 'blockedCountries', aliases: ['youtube_blockedCountries'], type: 'string_list', endpoints: V },
  bool('hasPaidProductPlacement', false),
  { name: 'recordingDate', aliases: ['youtube_recordingDate'], type: 'string', endpoints: V, description: 'ISO-8601 date.' },
  // Not in the spec's field list: the videos.insert parameter, for channels that upload in bulk.
  bool('notifySubscribers', true),
  { name: 'youtube_playlist_id', type: 'string_list', endpoints: V, description: 'One playlist id or a comma-separated list; best effort.' },
  ...subtitleFields,
];

export const extensionOf = (ref: MediaRef) => /\.([A-Za-z0-9]+)$/.exec(ref.filename ?? '')?.[1]?.toLowerCase();
const isIsoDate = (s: string) => /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(s) && Number.isFinite(Date.parse(s));
export const hasAngleBrackets = (s: string) => /[<>]/.test(s);

/** YouTube counts a tag with a space as if it were quoted, and the commas between tags. */
export function youtubeTagsLength(tags: readonly string[]): number {
  return tags.reduce((sum, tag) => sum + [...tag].length + (tag.includes(' ') ? 2 : 0), 0) + Math.max(0, tags.length - 1);
}

export function checkSettings(values: Record<string, unknown>): SettingViolation[] {
  const out: SettingViolation[] = [];
  const v = (field: string, message: string) => out.push({ field, message });
  const text = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
  const list = (name: string) => (Array.isArray(values[name]) ? (values[name] as string[]) : undefined);

  // videos.insert and videos.update set only snippet, status, recordingDetails, localizations and
  // paidProductPlacementDetails properties: contentDetails.regionRestriction is read-only (and
  // deprecated), and YouTube drops it silently. Refused here, before the 202, instead of a post
  // that claims restrictions it does not have.
  for (const name of ['allowedCountries', 'blockedCountries']) {
    if (list(name)?.length) {
      v(name, `${name} cannot be applied: the YouTube Data API cannot set country restrictions on a video (contentDetails.regionRestriction is read-only); set them in YouTube Studio after the upload.`);
    }
  }
  for (const name of ['defaultLanguage', 'defaultAudioLanguage']) {
    const lang = text(name);
    if (lang !== undefined && !LANGUAGE.test(lang)) v(name, `${name} must be a BCP-47 language code such as en or pt-BR.`);
  }
  const category = text('categoryId');
  if (category !== undefined && !/^\d+$/.test(category)) v('categoryId', 'categoryId must be a numeric YouTube category id such as 22.');
  for (const name of ['publishAt', 'recordingDate']) {
    const date = text(name);
    if (date !== undefined && !isIsoDate(date)) v(name, `${name} must be an ISO-8601 date or date-time.`);
  }
  const publishAt = text('publishAt');
  if (publishAt !== undefined && isIsoDate(publishAt) && Date.parse(publishAt) <= Date.now()) v('publishAt', 'publishAt must be in the future.');
  for (const name of ['youtube_title', 'youtube_description']) {
    const value = text(name);
    if (value !== undefined && hasAngleBrackets(value)) v(name, `${name} cannot contain < or >.`);
  }
  const description = text('youtube_description');
  if (description !== undefined && Buffer.byteLength(description) > DESCRIPTION_MAX_BYTES) {
    v('youtube_description', `youtube_description is at most ${DESCRIPTION_MAX_BYTES} bytes (UTF-8).`);
  }
  const tags = list('tags');
  if (tags?.some(hasAngleBrackets)) v('tags', 'tags cannot contain < or >.');
  if (tags && youtubeTagsLength(tags) > TAGS_MAX_CHARS) v('tags', `tags are at most ${TAGS_MAX_CHARS} characters together (commas count; a tag with a space counts its quotes).`);

  const thumbnail = values.thumbnail as MediaRef | undefined;
  if (thumbnail && !THUMBNAIL_TYPES.includes(thumbnail.contentType)) v('thumbnail', 'thumbnail must be a JPG, PNG, GIF or BMP image.');
  if (thumbnail && thumbnail.size > THUMBNAIL_MAX_BYTES) v('thumbnail', 'thumbnail is at most 2 MB.');

  for (const slot of YOUTUBE_SUBTITLE_SLOTS) {
    const fileName = `youtube_subtitle_file${slot}`;
    const langName = `youtube_subtitle_language${slot}`;
    const file = values[fileName] as MediaRef | undefined;
    const lang = text(langName);
    if (file && lang === undefined) v(langName, `${langName} is required with ${fileName}.`);
    if (!file && (lang !== undefined || text(`youtube_subtitle_name${slot}`) !== undefined)) v(fileName, `${fileName} is missing for ${langName}.`);
    if (lang !== undefined && !LANGUAGE.test(lang)) v(langName, `${langName} must be a BCP-47 language code such as en or pt-BR.`);
    const ext = file ? extensionOf(file) : undefined;
    if (file && ext !== undefined && !SUBTITLE_EXTENSIONS.includes(ext)) {
      v(fileName, `${fileName} must be one of ${SUBTITLE_EXTENSIONS.join(', ').toUpperCase()}; got .${ext}.`);
    }
  }
  return out;
}

export const youtubeSettings: SettingsSchema = { fields, check: (values) => checkSettings(values) };

