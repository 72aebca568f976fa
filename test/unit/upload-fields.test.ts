import { COMMON_UPLOAD_FIELD_NAMES, IDENTITY_UPLOAD_FIELDS, UPLOAD_FIELDS } from '../../core/domain/upload-fields';
import { UploadCommonFields } from '../../apps/api/routes/uploads';

describe('the one declaration of the upload endpoints’ common fields', () => {
  it('names every spelling intake treats as common: aliases and per-network overrides', () => {
    for (const name of ['platform[]', 'photos[]', 'first_comment_media[]', 'youtube_title', 'x_first_comment', 'bluesky_title']) {
      expect(COMMON_UPLOAD_FIELD_NAMES.has(name)).toBe(true);
    }
    expect(COMMON_UPLOAD_FIELD_NAMES.has('privacyStatus')).toBe(false);
    expect([...IDENTITY_UPLOAD_FIELDS].sort()).toEqual(['async_upload', 'external_id', 'request_id']);
  });

  it('is what the edge schema checks: every declared text, boolean and platform field', () => {
    const shape = Object.keys((UploadCommonFields as unknown as { shape: Record<string, unknown> }).shape).sort();
    const declared = UPLOAD_FIELDS.filter((f) => ['text', 'boolean', 'platforms'].includes(f.type)).map((f) => f.name).sort();
    expect(shape).toEqual(declared);
    const missing = UploadCommonFields.safeParse({ platform: ['x'] });
    expect(missing.success).toBe(false);
    expect(JSON.stringify(missing.error?.issues)).toContain('user is required');
    expect(UploadCommonFields.safeParse({ user: 'a', platform: ['x'], request_id: 'r'.repeat(256) }).success).toBe(false);
  });
});
