import { resolveSettings, type SettingsSchema } from '../../core/domain/settings';
import { mediaLimitViolations } from '../../core/domain/media-limits';
import type { MediaRef } from '../../core/domain/media';

const schema: SettingsSchema = {
  fields: [
    { name: 'privacy_level', type: 'string', endpoints: ['video', 'photo'], oneOf: ['PUBLIC', 'SELF_ONLY'] },
    { name: 'post_mode', aliases: ['upload_to_draft_mode'], type: 'string', endpoints: ['video'], default: 'DIRECT_POST' },
    { name: 'disable_comment', type: 'boolean', endpoints: ['video', 'photo'], default: false },
    { name: 'music_volume', type: 'integer', endpoints: ['video'], min: 0, max: 100 },
    { name: 'tags', type: 'string_list', endpoints: ['video'], maxLength: 3 },
    { name: 'alt_text', type: 'string_list', endpoints: ['photo'], separator: '||' },
    { name: 'targeting', type: 'json', endpoints: ['photo'] },
    { name: 'cover_url', type: 'url', endpoints: ['video'] },
    { name: 'location_id', type: 'string', endpoints: ['video'] },
    { name: 'location_name', type: 'string', endpoints: ['video'] },
  ],
  check(values) {
    return values.location_id && !values.location_name ? [{ field: 'location_name', message: 'location_name is required whenever location_id is sent' }] : [];
  },
};

describe('settings resolution', () => {
  it('converts form text to types, folds aliases, applies defaults and reports what it used', () => {
    const r = resolveSettings('net', schema, {
      privacy_level: 'SELF_ONLY', upload_to_draft_mode: 'MEDIA_UPLOAD', disable_comment: 'true', music_volume: '40',
      tags: 'a, b', cover_url: 'https://cdn.example/c.jpg', unrelated: 'x',
    }, { endpoint: 'video', mediaCount: 1 });
    expect(r.violations).toEqual([]);
    expect(r.values).toEqual({
      privacy_level: 'SELF_ONLY', post_mode: 'MEDIA_UPLOAD', disable_comment: true, music_volume: 40, tags: ['a', 'b'], cover_url: 'https://cdn.example/c.jpg',
    });
    expect(r.consumed.sort()).toEqual(['cover_url', 'disable_comment', 'music_volume', 'privacy_level', 'tags', 'upload_to_draft_mode']);
  });

  it('names every offending field', () => {
    const r = resolveSettings('net', schema, {
      privacy_level: 'FRIENDS', disable_comment: 'maybe', music_volume: '101', tags: ['a', 'b', 'c', 'd'], cover_url: 'ftp://x', location_id: '9',
    }, { endpoint: 'video', mediaCount: 1 });
    expect(r.violations.map((v) => v.field)).toEqual(['privacy_level', 'disable_comment', 'music_volume', 'tags', 'cover_url']);
    expect(r.violations[0].message).toBe('privacy_level must be one of PUBLIC, SELF_ONLY');
    expect(r.violations[2].message).toBe('music_volume must be at most 100');
  });

  it('runs cross-field rules once the fields are valid', () => {
    const r = resolveSettings('net', schema, { location_id: '9' }, { endpoint: 'video', mediaCount: 1 });
    expect(r.violations).toEqual([{ field: 'location_name', message: 'location_name is required whenever location_id is sent' }]);
  });

  it('warns about a field of another endpoint instead of using it, and parses lists and JSON', () => {
    const r = resolveSettings('net', schema, { music_volume: '10', alt_text: 'one||two', targeting: '{"geo":"FR"}' }, { endpoint: 'photo', mediaCount: 2 });
    expect(r.warnings).toEqual(['music_volume is not used by net on this endpoint and was ignored.']);
    expect(r.values).toMatchObject({ alt_text: ['one', 'two'], targeting: { geo: 'FR' }, disable_comment: false });
    expect(r.values).not.toHaveProperty('music_volume');
  });
});

describe('media limits', () => {
  const video = (over: Partial<MediaRef['info']> = {}, size = 1000): MediaRef => ({
    id: 'v', kind: 'video', contentType: 'video/mp4', size,
    info: { durationSeconds: 30, width: 720, height: 1280, frameRate: 30, videoCodec: 'h264', audioCodec: 'aac', container: 'mov,mp4,m4a,3gp,3g2,mj2', ...over },
  });
  const photo = (w: number, h: number, size = 1000, contentType = 'image/jpeg'): MediaRef => ({
    id: 'p', kind: 'image', contentType, size, info: { durationSeconds: null, width: w, height: h, frameRate: null, videoCodec: 'mjpeg', audioCodec: null, container: 'jpeg_pipe' },
  });

  it('names platform, limit and value for each video rule', () => {
    const limits = { video: { maxBytes: 500, maxSeconds: 10, minSeconds: 3, minShortSidePx: 1080, minFps: 23, maxFps: 60, containers: ['matroska,webm'] } };
    const types = mediaLimitViolations({ id: 'tiktok', limits }, 'video', [video({ frameRate: 120 })]).map((v) => [v.type, v.limit, v.actual]);
    expect(types).toEqual([
      ['video_too_large', 500, 1000], ['video_too_long', 10, 30], ['video_format', 'matroska,webm', 'mov,mp4,m4a,3gp,3g2,mj2'],
      ['video_resolution', 1080, 720], ['video_frame_rate', 60, 120],
    ]);
    expect(mediaLimitViolations({ id: 'tiktok', limits }, 'video', [video({ durationSeconds: 2, frameRate: 30, width: 1080, height: 1920, container: 'matroska,webm' }, 100)]).map((v) => v.type))
      .toEqual(['video_too_short']);
  });

  it('checks photo count, size, type and aspect ratio', () => {
    const limits = { photo: { maxCount: 2, maxBytes: 500, contentTypes: ['image/jpeg'], minAspectRatio: 0.8, maxAspectRatio: 1.91 } };
    const v = mediaLimitViolations({ id: 'instagram', limits }, 'photo', [photo(1080, 1350, 100), photo(1080, 1920, 900, 'image/png'), photo(2000, 1000, 100)]);
    expect(v.map((x) => x.type)).toEqual(['too_many_photos', 'photo_too_large', 'photo_format', 'photo_aspect_ratio', 'photo_aspect_ratio']);
    expect(v[0].message).toBe('instagram: 3 photos sent; at most 2.');
  });
});
