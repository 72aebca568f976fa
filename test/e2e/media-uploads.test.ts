import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { apiClient } from '../support/stack';
import { media, useHerald } from '../support/e2e';

jest.setTimeout(300_000);

/**
 * Staged media uploads against the real daemons: declare, PUT to Herald's signed URL (whole, or
 * in Content-Range chunks resumed after a dropped connection), complete, post to the Bluesky
 * simulator with `video=media-upload:<id>`; every refusal is a JSON 4xx with its error_code.
 */
describe('staged media uploads', () => {
  // A low threshold, so a few-hundred-KB clip is resumable.
  const herald = useHerald({ sandbox: true, env: { HERALD_MEDIA_UPLOAD_RESUMABLE_BYTES: '65536' }, account: { email: 'media-uploads@herald.dev' }, profiles: ['uma'] });
  const { api } = herald;
  const clip = media.clip({ seconds: 3, audio: false, preset: 'ultrafast' });
  const bytes = () => readFileSync(clip);
  const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

  beforeAll(async () => {
    await herald.connect('bluesky', { profile: 'uma' });
    await herald.connect('linkedin', { profile: 'uma' });
  });
  /** Declares, PUTs and completes a file; answers the upload id. */
  async function staged(data: Buffer, declared: { filename: string; content_type: string; media_type: string }): Promise<string> {
    const made = await api.post('/api/herald/media-uploads', { ...declared, content_length: data.length });
    expect(made.status).toBe(201);
    expect((await put(made.body.upload_url, data)).status).toBe(200);
    expect((await api.post(`/api/herald/media-uploads/${made.body.upload_id}/complete`, {})).body).toMatchObject({ state: 'completed', sha256: sha256(data) });
    return made.body.upload_id as string;
  }

  const declare = (over: Record<string, unknown> = {}) => api.post('/api/herald/media-uploads', {
    filename: 'clip.mp4', content_type: 'video/mp4', content_length: bytes().length, media_type: 'video', ...over,
  });
  async function put(url: string, body: Buffer, headers: Record<string, string> = {}) {
    const res = await fetch(url, { method: 'PUT', body, headers: { 'Content-Type': 'application/octet-stream', ...headers } });
    return { status: res.status, type: res.headers.get('content-type'), body: await res.json() as any };
  }
  /** Sends the first `n` bytes of a PUT announcing `length`, then drops the connection. */
  function putAndDrop(url: string, data: Buffer, n: number, headers: Record<string, string>): Promise<void> {
    return new Promise((resolve) => {
      const req = http.request(url, { method: 'PUT', headers: { 'Content-Length': String(data.length), ...headers } });
      req.on('error', () => resolve());
      req.write(data.subarray(0, n), () => setTimeout(() => { req.destroy(); resolve(); }, 500));
    });
  }

  it('stages a file, completes it and publishes it to Bluesky by its upload id', async () => {
    const file = bytes();
    const made = await declare({ source: 'e2e' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ success: true, state: 'created', received_bytes: 0, upload_method: 'PUT', resumable: true });
    expect(made.body.upload_url).toMatch(new RegExp(`/api/herald/media-uploads/${made.body.upload_id}/bytes\\?exp=\\d+&sig=`));

    expect(await put(made.body.upload_url, file)).toMatchObject({ status: 200, body: { received_bytes: file.length, complete: true } });
    const done = await api.post(`/api/herald/media-uploads/${made.body.upload_id}/complete`, {});
    expect(done).toMatchObject({ status: 200, body: { state: 'completed', sha256: sha256(file), sniffed_type: 'video/mp4', content_length: file.length } });
    const read = await api.get(`/api/herald/media-uploads/${made.body.upload_id}?include_url=true`);
    expect(read.body).toMatchObject({ state: 'completed', received_bytes: file.length, sha256: sha256(file) });
    const stored = await fetch(read.body.url);
    expect(Buffer.from(await stored.arrayBuffer()).equals(file)).toBe(true);
    expect((await api.get(`/api/herald/media-uploads/${made.body.upload_id}`)).body.url).toBeUndefined();

    // A second PUT after completion is refused.
    expect(await put(made.body.upload_url, file)).toMatchObject({ status: 409, body: { success: false, error_code: 'upload_already_completed' } });

    const posted = await herald.postForm('/api/upload', { user: 'uma', 'platform[]': ['bluesky'], title: 'Staged', video: `media-upload:${made.body.upload_id}`, async_upload: true });
    expect(posted.status).toBe(202);
    const finished = await herald.waitForCompletion(posted.body.request_id);
    expect(finished.body.results.bluesky).toMatchObject({ success: true });
    expect((await api.get(`/api/herald/media-uploads/${made.body.upload_id}`)).body).toMatchObject({ state: 'used', used_by: posted.body.request_id });
    // Used bytes stay when the upload is deleted: the post names them.
    expect(await api.delete(`/api/herald/media-uploads/${made.body.upload_id}`)).toMatchObject({ status: 200, body: { deleted: true, media_kept: true } });
    expect(await api.get(`/api/herald/media-uploads/${made.body.upload_id}`)).toMatchObject({ status: 404, body: { error_code: 'media_upload_not_found' } });
  });

  it('takes staged photos on /upload_photos and a staged document on /upload_document, each where its media type goes', async () => {
    const photo = readFileSync(media.image({ size: '640x640' }));
    const photoId = await staged(photo, { filename: 'p.jpg', content_type: 'image/jpeg', media_type: 'image' });
    const photos = await herald.postForm('/api/upload_photos', { user: 'uma', 'platform[]': ['bluesky'], title: 'Staged photo', 'photos[]': [`media-upload:${photoId}`], async_upload: true });
    expect(photos.status).toBe(202);
    expect((await herald.waitForCompletion(photos.body.request_id)).body.results.bluesky).toMatchObject({ success: true });

    const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
    const docId = await staged(pdf, { filename: 'report.pdf', content_type: 'application/pdf', media_type: 'document' });
    // A document is not a video: the video field refuses it, naming the field.
    const wrongField = await herald.postForm('/api/upload', { user: 'uma', 'platform[]': ['bluesky'], title: 'x', video: `media-upload:${docId}` });
    expect(wrongField).toMatchObject({ status: 400, body: { error_code: 'media_upload_unusable', violations: [{ field: 'video' }] } });
    const doc = await herald.postForm('/api/upload_document', { user: 'uma', title: 'Staged report', document: `media-upload:${docId}`, async_upload: true });
    expect(doc.status).toBe(202);
    const done = await herald.waitForCompletion(doc.body.request_id);
    expect(done.body).toMatchObject({ media_type: 'document', results: { linkedin: { success: true, document: expect.stringMatching(/^urn:li:document:/) } } });
    expect(herald.sandbox.simulators.linkedin.documents()).toEqual(expect.arrayContaining([expect.objectContaining({ urn: done.body.results.linkedin.document, contentType: 'application/pdf' })]));
  });

  it('resumes a PUT dropped at 90 % from the offset it asks for, and the digest is the file\'s', async () => {
    const file = bytes();
    expect(file.length).toBeGreaterThan(65536);
    const made = await declare();
    const url: string = made.body.upload_url;
    const cut = Math.floor(file.length * 0.9);
    await putAndDrop(url, file, cut, { 'Content-Range': `bytes 0-${file.length - 1}/${file.length}` });

    let sent: Awaited<ReturnType<typeof put>> | undefined;
    let offset = 0;
    // The server finishes the dropped PUT on its own time: until it has, the upload is busy or still growing.
    for (let attempt = 0; attempt < 40 && sent?.status !== 200; attempt += 1) {
      const head = await fetch(url, { method: 'HEAD' });
      offset = Number(head.headers.get('upload-offset'));
      sent = await put(url, file.subarray(offset), { 'Content-Range': `bytes ${offset}-${file.length - 1}/${file.length}` });
      if (sent.status !== 200) {
        expect(sent).toMatchObject({ status: 409, body: { error_code: expect.stringMatching(/^upload_(in_progress|offset_mismatch)$/) } });
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThanOrEqual(cut);
    expect(sent).toMatchObject({ status: 200, body: { received_bytes: file.length, complete: true } });
    const status = await fetch(url);
    expect(await status.json()).toMatchObject({ received_bytes: file.length, content_length: file.length });
    const done = await api.post(`/api/herald/media-uploads/${made.body.upload_id}/complete`, {});
    expect(done).toMatchObject({ status: 200, body: { state: 'completed', sha256: sha256(file) } });
  });

  it('answers every bad input with a JSON 4xx and its error_code, and stores nothing', async () => {
    const file = bytes();
    const expectRefusal = (res: { status: number; body: any; type?: string | null }, status: number, code: string) => {
      expect({ status: res.status, code: res.body.error_code, success: res.body.success }).toEqual({ status, code, success: false });
      if (res.type !== undefined) expect(res.type).toMatch(/application\/json/);
    };
    // Declarations.
    expectRefusal(await declare({ content_length: -1 }), 400, 'invalid_request');
    expectRefusal(await declare({ content_length: 20 * 1024 ** 4 }), 400, 'media_too_large');
    expectRefusal(await declare({ content_type: 'image/png' }), 400, 'media_type_unsupported');
    expectRefusal(await declare({ media_type: 'audio' }), 400, 'invalid_request');
    expectRefusal(await declare({ filename: 'a/../b.mp4' }), 400, 'invalid_request');

    const made = await declare();
    const url = new URL(made.body.upload_url);
    const id = made.body.upload_id;
    // Completing before the bytes are there.
    expectRefusal(await api.post(`/api/herald/media-uploads/${id}/complete`, {}), 409, 'upload_incomplete');
    // Too many and too few bytes.
    expectRefusal(await put(url.href, Buffer.concat([file, Buffer.alloc(1000)])), 400, 'upload_length_mismatch');
    expectRefusal(await put(url.href, file.subarray(0, 1000)), 400, 'upload_length_mismatch');
    // A chunk that does not start at the received offset.
    expectRefusal(await put(url.href, file.subarray(100, 200), { 'Content-Range': `bytes 100-199/${file.length}` }), 409, 'upload_offset_mismatch');
    // Bytes of another type than declared.
    const png = await api.post('/api/herald/media-uploads', { filename: 'p.png', content_type: 'image/png', content_length: file.length, media_type: 'image' });
    expectRefusal(await put(png.body.upload_url, file), 400, 'media_type_mismatch');
    expect((await api.get(`/api/herald/media-uploads/${png.body.upload_id}`)).body).toMatchObject({ received_bytes: 0 });
    // A forged signature, a moved expiry, another upload's id.
    const forged = new URL(url.href);
    forged.searchParams.set('sig', `${url.searchParams.get('sig')!.slice(0, -2)}AA`);
    expectRefusal(await put(forged.href, file), 403, 'upload_url_invalid');
    const later = new URL(url.href);
    later.searchParams.set('exp', String(Number(url.searchParams.get('exp')) + 3600));
    expectRefusal(await put(later.href, file), 403, 'upload_url_invalid');
    const moved = new URL(url.href.replace(id, png.body.upload_id));
    expectRefusal(await put(moved.href, file), 403, 'upload_url_invalid');
    expect((await api.get(`/api/herald/media-uploads/${id}`)).body).toMatchObject({ received_bytes: 0 });
    // An unknown id, and another account's id, read as unknown.
    expectRefusal(await api.get('/api/herald/media-uploads/mu_nosuchupload'), 404, 'media_upload_not_found');
    const otherKey = await herald.stack.newApiKey('media-uploads-other@herald.dev');
    const other = apiClient(herald.apiUrl, otherKey);
    expectRefusal(await other.get(`/api/herald/media-uploads/${id}`), 404, 'media_upload_not_found');
    expectRefusal(await other.post(`/api/herald/media-uploads/${id}/complete`, {}), 404, 'media_upload_not_found');
    expectRefusal(await other.delete(`/api/herald/media-uploads/${id}`), 404, 'media_upload_not_found');
    // A post naming an upload that is not completed, or another account's.
    const early = await herald.postForm('/api/upload', { user: 'uma', 'platform[]': ['bluesky'], title: 'x', video: `media-upload:${id}` });
    expectRefusal(early, 400, 'media_upload_unusable');
    // Deleting removes it.
    expect(await api.delete(`/api/herald/media-uploads/${id}`)).toMatchObject({ status: 200, body: { deleted: true, media_kept: false } });
    expectRefusal(await put(url.href, file), 404, 'media_upload_not_found');
  });

  it('refuses an expired upload URL', async () => {
    // A second API whose uploads expire after a second: the URL it signs works on every API of the same secret.
    const shortLived = await herald.startApi({ HERALD_MEDIA_UPLOAD_TTL_MS: '1000' });
    const made = await apiClient(shortLived.apiUrl, herald.key).post('/api/herald/media-uploads', { filename: 'clip.mp4', content_type: 'video/mp4', content_length: 10, media_type: 'video' });
    expect(made.status).toBe(201);
    await new Promise((r) => setTimeout(r, 1500));
    const res = await put(made.body.upload_url, Buffer.alloc(10));
    expect(res).toMatchObject({ status: 403, body: { success: false, error_code: 'upload_url_expired' } });
    expect((await api.get(`/api/herald/media-uploads/${made.body.upload_id}`)).body).toMatchObject({ state: 'expired' });
  });
});
