/** Pinterest's per-Pin fields and the cross-field rules intake and publisher both check. */
import type { MediaKind } from '../../../core/domain/platforms';
import type { SettingsSchema, SettingViolation } from '../../../core/domain/settings';

export const PINTEREST_AI_DISCLOSURES = ['AI_MODIFIED', 'SYNTHETIC_PERFORMER'] as const;
export const TITLE_MAX = 100;
export const DESCRIPTION_MAX = 800;
export const ALT_TEXT_MAX = 500;
const LINK_MAX = 2048;
export const CAROUSEL_MIN = 2;
export const CAROUSEL_MAX = 5;
const COVER_CONTENT_TYPES = ['image/jpeg', 'image/png'] as const;

const BOTH: readonly MediaKind[] = ['video', 'photo'];
const PHOTO: readonly MediaKind[] = ['photo'];
const VIDEO: readonly MediaKind[] = ['video'];

export const isHttpUrl = (s: string) => {
  try {
    const url = new URL(s);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
};
const isBase64 = (s: string) => s.length > 0 && s.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(s);
const present = (v: unknown) => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0);
const CAROUSEL_LISTS = ['pinterest_carousel_titles', 'pinterest_carousel_descriptions', 'pinterest_carousel_links'] as const;
const COVER_SOURCES = ['pinterest_cover_image_url', 'pinterest_cover_image_data', 'pinterest_cover_image_key_frame_time'] as const;

/**
 * Cross-field rules, shared by the edge (through the schema) and by the publisher, which checks
 * them again before sending anything since it can be called without the edge.
 */
export function checkPinterestSettings(values: Record<string, unknown>, ctx: { endpoint: MediaKind; mediaCount: number }): SettingViolation[] {
  const violations: SettingViolation[] = [];
  const boardId = values.pinterest_board_id;
  if (!present(boardId)) {
    violations.push({ field: 'pinterest_board_id', message: 'pinterest_board_id is required when platform includes pinterest (GET /svc/pinterest/boards lists the ids).' });
  } else if (typeof boardId !== 'string' || !/^\d+$/.test(boardId)) {
    violations.push({ field: 'pinterest_board_id', message: 'pinterest_board_id must be a numeric Pinterest board id.' });
  }
  const sectionId = values.pinterest_board_section_id;
  if (present(sectionId) && (typeof sectionId !== 'string' || !/^\d+$/.test(sectionId))) {
    violations.push({ field: 'pinterest_board_section_id', message: 'pinterest_board_section_id must be a numeric Pinterest board section id.' });
  }
  if (typeof values.pinterest_link === 'string' && values.pinterest_link.length > LINK_MAX) {
    violations.push({ field: 'pinterest_link', message: `pinterest_link is at most ${LINK_MAX} characters.` });
  }

  if (ctx.endpoint === 'photo') {
    const n = ctx.mediaCount;
    if (n > CAROUSEL_MAX) {
      violations.push({ field: 'photos[]', message: `Pinterest takes one photo, or a carousel of ${CAROUSEL_MIN} to ${CAROUSEL_MAX}; this post has ${n}.` });
    }
    const carouselFields = [...CAROUSEL_LISTS, 'pinterest_carousel_index'].filter((f) => present(values[f]));
    if (carouselFields.length && n < CAROUSEL_MIN) {
      for (const field of carouselFields) {
        violations.push({ field, message: `${field} needs a carousel of ${CAROUSEL_MIN} to ${CAROUSEL_MAX} photos; this post has ${n}.` });
      }
    } else {
      for (const field of CAROUSEL_LISTS) {
        const list = values[field];
        if (Array.isArray(list) && list.length > n) {
          violations.push({ field, message: `${field} has ${list.length} items for ${n} photos: at most one per photo.` });
        }
      }
      const index = values.pinterest_carousel_index;
      if (typeof index === 'number' && index >= n) {
        violations.push({ field: 'pinterest_carousel_index', message: `pinterest_carousel_index is 0-based and must be below the number of photos (${n}).` });
      }
    }
    const links = values.pinterest_carousel_links;
    if (Array.isArray(links)) {
      const bad = links.filter((l) => typeof l !== 'string' || !isHttpUrl(l) || l.length > LINK_MAX);
      if (bad.length) violations.push({ field: 'pinterest_carousel_links', message: `pinterest_carousel_links must be http(s) URLs; not: ${bad.join(', ')}.` });
    }
  }

  if (ctx.endpoint === 'video') {
    const sources = COVER_SOURCES.filter((f) => present(values[f]));
    if (sources.length > 1) {
      for (const field of sources) {
        violations.push({ field, message: `${sources.join(', ')} are mutually exclusive: send one cover source.` });
      }
    }
    const hasData = present(values.pinterest_cover_image_data);
    const hasType = present(values.pinterest_cover_image_content_type);
    if (hasData && !hasType) {
      violations.push({ field: 'pinterest_cover_image_content_type', message: 'pinterest_cover_image_content_type is required with pinterest_cover_image_data.' });
    }
    if (hasType && !hasData) {
      violations.push({ field: 'pinterest_cover_image_data', message: 'pinterest_cover_image_data is required with pinterest_cover_image_content_type.' });
    }
    if (hasData && (typeof values.pinterest_cover_image_data !== 'string' || !isBase64(values.pinterest_cover_image_data))) {
      violations.push({ field: 'pinterest_cover_image_data', message: 'pinterest_cover_image_data must be base64 image data.' });
    }
  }
  return violations;
}

export const pinterestSettings: SettingsSchema = {
  fields: [
    { name: 'pinterest_description', type: 'string', endpoints: BOTH, maxLength: DESCRIPTION_MAX, description: 'Pin description; defaults to the title.' },
    { name: 'pinterest_board_id', type: 'string', endpoints: BOTH, description: 'Numeric id of the board to pin to (required).' },
    { name: 'pinterest_alt_text', type: 'string', endpoints: BOTH, maxLength: ALT_TEXT_MAX },
    { name: 'pinterest_link', type: 'url', endpoints: BOTH, description: 'Destination link of the Pin.' },
    { name: 'pinterest_board_section_id', type: 'string', endpoints: PHOTO },
    {
      name: 'pinterest_ai_disclosures', aliases: ['pinterest_ai_disclosures[]'], type: 'string_list', endpoints: PHOTO,
      oneOf: PINTEREST_AI_DISCLOSURES, maxLength: PINTEREST_AI_DISCLOSURES.length, description: 'Sent as ai_disclosures.values.',
    },
    // `||` and not `,` between items given as one text: titles and descriptions contain commas.
    { name: 'pinterest_carousel_titles', aliases: ['pinterest_carousel_titles[]'], type: 'string_list', endpoints: PHOTO, maxLength: CAROUSEL_MAX, separator: '||' },
    { name: 'pinterest_carousel_descriptions', aliases: ['pinterest_carousel_descriptions[]'], type: 'string_list', endpoints: PHOTO, maxLength: CAROUSEL_MAX, separator: '||' },
    { name: 'pinterest_carousel_links', aliases: ['pinterest_carousel_links[]'], type: 'string_list', endpoints: PHOTO, maxLength: CAROUSEL_MAX, separator: '||' },
    { name: 'pinterest_carousel_index', type: 'integer', endpoints: PHOTO, min: 0, max: CAROUSEL_MAX - 1, description: 'Carousel item shown first (0-based).' },
    { name: 'pinterest_cover_image_url', type: 'url', endpoints: VIDEO },
    { name: 'pinterest_cover_image_content_type', type: 'string', endpoints: VIDEO, oneOf: COVER_CONTENT_TYPES },
    { name: 'pinterest_cover_image_data', type: 'string', endpoints: VIDEO, description: 'Base64 cover image; needs pinterest_cover_image_content_type.' },
    { name: 'pinterest_cover_image_key_frame_time', type: 'integer', endpoints: VIDEO, min: 0, description: 'Milliseconds into the video; Pinterest takes whole seconds.' },
  ],
  check: checkPinterestSettings,
};

