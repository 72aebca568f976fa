import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sniffContentType } from '../../adapters/media/sniff';
import { createUploadUrlSigner } from '../../adapters/media/signed-urls';
import { createStagedBytes } from '../../adapters/media/staged-bytes';
import { createLocalMediaStore } from '../../adapters/media/local-store';
import { createMemoryMediaUploads } from '../../adapters/memory/media-uploads';
import { sniffMatches } from '../../core/domain/media-upload';
import {
  completeMediaUpload, createMediaUpload, deleteMediaUpload, expireMediaUploads, getMediaUpload, markStagedUsed, mediaUploadOffset,
  receiveMediaUploadBytes, stagedMedia, type MediaUploadDeps,
} from '../../core/usecases/media-uploads';
import { anOperator, T0 } from '../support/mothers';

const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(5000, 7)]);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(100, 1)]);
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
async function* chunks(b: Buffer, size = 1000) {
  for (let i = 0; i < b.length; i += size) yield b.subarray(i, i + size);
}
/** A body whose connection drops after `n` bytes. */
async function* dropsAfter(b: Buffer, n: number) {
  yield b.subarray(0, n);
  throw Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
}

describe('sniffing the bytes of a staged upload', () => {
  it('knows each format Herald takes by its magic numbers', () => {
    const webm = Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84, ...Buffer.from('webm')]);
    const mkv = Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, 0x88, ...Buffer.from('matroska')]);
    const cases: Array<[Buffer, string | undefined]> = [
      [MP4, 'video/mp4'],
      [Buffer.concat([Buffer.from([0, 0, 0, 0x14]), Buffer.from('ftypqt  ')]), 'video/quicktime'],
      [webm, 'video/webm'], [mkv, 'video/x-matroska'],
      [Buffer.from([0xff, 0xd8, 0xff, 0xe0]), 'image/jpeg'], [PNG, 'image/png'],
      [Buffer.from('GIF89a....'), 'image/gif'], [Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 '), 'image/webp'],
      [Buffer.from('%PDF-1.7\n'), 'application/pdf'],
      [Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from('....[Content_Types].xml....word/document.xml')]), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      [Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), 'application/x-ole-storage'],
      [Buffer.from('<html>not media</html>'), undefined], [Buffer.alloc(0), undefined],
    ];
    expect(cases.map(([b]) => sniffContentType(b))).toEqual(cases.map(([, t]) => t));
  });

  it('compares by family where the header cannot tell the variants apart, and nothing else', () => {
    expect(sniffMatches('video/quicktime', 'video/mp4')).toBe(true);
    expect(sniffMatches('application/msword', 'application/x-ole-storage')).toBe(true);
    expect(sniffMatches('application/vnd.openxmlformats-officedocument.presentationml.presentation', 'application/zip')).toBe(true);
    expect(sniffMatches('video/mp4', 'image/png')).toBe(false);
    expect(sniffMatches('image/jpeg', 'image/png')).toBe(false);
    expect(sniffMatches('application/pdf', undefined)).toBe(false);
  });
});

describe('signed upload URLs', () => {
  let now = T0;
  const signer = createUploadUrlSigner({ key: 'k1', publicBaseUrl: 'https://h.example/', namespace: 'herald', clock: { now: () => now } });
  const parts = (url: string) => {
    const u = new URL(url);
    return { id: decodeURIComponent(u.pathname.split('/')[4]!), exp: u.searchParams.get('exp') ?? undefined, sig: u.searchParams.get('sig') ?? undefined };
  };

  it('verifies its own URL until its expiry, and names why not', () => {
    const url = signer.url('mu_1', new Date(T0.getTime() + 60_000));
    expect(url).toMatch(/^https:\/\/h\.example\/api\/herald\/media-uploads\/mu_1\/bytes\?exp=\d+&sig=/);
    const { id, exp, sig } = parts(url);
    expect(signer.verify(id, exp, sig)).toBe('ok');
    now = new Date(T0.getTime() + 60_000);
    expect(signer.verify(id, exp, sig)).toBe('expired');
    now = T0;
  });

  it('refuses a forged signature, a moved expiry, another upload id and another key', () => {
    const { id, exp, sig } = parts(signer.url('mu_1', new Date(T0.getTime() + 60_000)));
    expect(signer.verify(id, exp, `${sig!.slice(0, -2)}xx`)).toBe('forged');
    expect(signer.verify(id, String(Number(exp) + 3600), sig)).toBe('forged');
    expect(signer.verify('mu_2', exp, sig)).toBe('forged');
    expect(signer.verify(id, exp, undefined)).toBe('forged');
    const other = createUploadUrlSigner({ key: 'k2', publicBaseUrl: 'https://h.example', namespace: 'herald', clock: { now: () => now } });
    expect(other.verify(id, exp, sig)).toBe('forged');
  });
});

describe('staged media uploads (use cases on the memory repository and a staging directory)', () => {
  let dir: string;
  let deps: MediaUploadDeps;
  let now: Date;
  const account = anOperator({ id: 'acct-1' });
  const other = anOperator({ id: 'acct-2' });

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'herald-mu-'));
    now = T0;
    const store = createLocalMediaStore(path.join(dir, 'media'));
    const clock = { now: () => now };
    let n = 0;
    deps = {
      mediaUploads: createMemoryMediaUploads(),
      stagedBytes: createStagedBytes({ dir: path.join(store.stagingDir, 'uploads'), store }),
      uploadUrls: createUploadUrlSigner({ key: 'k', publicBaseUrl: 'http://h', namespace: 'herald', clock }),
      mediaUrls: { url: (id) => `http://h/media/${id}?sig=x` },
      mediaStore: store,
      ids: { next: (p) => `${p}_${++n}` },
      clock,
      settings: { ttlMs: 24 * 3600_000, resumableAboveBytes: 1024, maxBytes: 1_000_000 },
    };
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const signed = (url: string) => {
    const u = new URL(url);
    return { id: u.pathname.split('/')[4]!, exp: u.searchParams.get('exp')!, sig: u.searchParams.get('sig')! };
  };
  const create = (over: Record<string, unknown> = {}) => createMediaUpload(deps, account, { filename: 'clip.mp4', content_type: 'video/mp4', content_length: MP4.length, media_type: 'video', ...over } as never);

  it('refuses a declaration it cannot take, naming the field and storing nothing', async () => {
    await expect(create({ content_length: 0 })).rejects.toMatchObject({ errorCode: undefined, details: { violations: [{ field: 'content_length' }] } });
    await expect(create({ content_length: 2_000_000 })).rejects.toMatchObject({ errorCode: 'media_too_large' });
    await expect(create({ content_type: 'image/png' })).rejects.toMatchObject({ errorCode: 'media_type_unsupported' });
    await expect(create({ filename: 'a\u0000b.mp4' })).rejects.toMatchObject({ details: { violations: [{ field: 'filename' }] } });
    await expect(deps.mediaUploads.get('mu_1')).resolves.toBeNull();
  });

  it('stages nothing once the plan\'s monthly uploads are used up', async () => {
    let used = 9;
    deps.storage = { uploads: { countSince: async () => used } } as unknown as MediaUploadDeps['storage'];
    await expect(create()).resolves.toMatchObject({ state: 'created' });
    used = 10;
    await expect(create()).rejects.toMatchObject({ errorCode: 'monthly_quota_exceeded', details: { usage: { used: 10, limit: 10 } } });
    await expect(createMediaUpload(deps, anOperator({ plan: 'basic' }), { filename: 'clip.mp4', content_type: 'video/mp4', content_length: 10, media_type: 'video' })).resolves.toMatchObject({ state: 'created' });
  });

  it('takes a whole PUT, completes it into the media store with the digest computed while writing', async () => {
    const made = await create();
    expect(made).toMatchObject({ state: 'created', resumable: true, received_bytes: 0 });
    const url = signed(made.upload_url);
    expect(await receiveMediaUploadBytes(deps, { ...url, body: chunks(MP4), length: MP4.length })).toMatchObject({ received_bytes: MP4.length, complete: true });
    const done = await completeMediaUpload(deps, account, made.upload_id);
    expect(done).toMatchObject({ state: 'completed', sha256: sha(MP4), media_id: sha(MP4), sniffed_type: 'video/mp4' });
    expect(readFileSync(path.join(dir, 'media', sha(MP4).slice(0, 2), sha(MP4)))).toEqual(MP4);
    await expect(receiveMediaUploadBytes(deps, { ...url, body: chunks(MP4) })).rejects.toMatchObject({ errorCode: 'upload_already_completed' });
    expect(await getMediaUpload(deps, account, made.upload_id, { includeUrl: true })).toMatchObject({ url: `http://h/media/${sha(MP4)}?sig=x` });
    await expect(getMediaUpload(deps, other, made.upload_id)).rejects.toMatchObject({ errorCode: 'media_upload_not_found' });
  });

  it('resumes an interrupted PUT from the bytes on disk, and refuses a chunk at the wrong offset', async () => {
    const made = await create();
    const url = signed(made.upload_url);
    const cut = Math.floor(MP4.length * 0.9);
    await expect(receiveMediaUploadBytes(deps, { ...url, contentRange: `bytes 0-${MP4.length - 1}/${MP4.length}`, body: dropsAfter(MP4, cut) }))
      .rejects.toMatchObject({ errorCode: 'upload_length_mismatch', details: { received_bytes: cut } });
    expect(await mediaUploadOffset(deps, url)).toMatchObject({ received_bytes: cut, state: 'uploading' });
    await expect(receiveMediaUploadBytes(deps, { ...url, contentRange: `bytes 0-${MP4.length - 1}/${MP4.length}`, body: chunks(MP4) }))
      .rejects.toMatchObject({ errorCode: 'upload_offset_mismatch', details: { received_bytes: cut } });
    await expect(completeMediaUpload(deps, account, made.upload_id)).rejects.toMatchObject({ errorCode: 'upload_incomplete' });
    const rest = MP4.subarray(cut);
    expect(await receiveMediaUploadBytes(deps, { ...url, contentRange: `bytes ${cut}-${MP4.length - 1}/${MP4.length}`, body: chunks(rest), length: rest.length }))
      .toMatchObject({ received_bytes: MP4.length, complete: true });
    expect(await completeMediaUpload(deps, account, made.upload_id)).toMatchObject({ sha256: sha(MP4) });
  });

  it('refuses too many bytes, bytes of another type, and forged or expired URLs, keeping none of them', async () => {
    const made = await create();
    const url = signed(made.upload_url);
    await expect(receiveMediaUploadBytes(deps, { ...url, body: chunks(Buffer.concat([MP4, Buffer.alloc(10)])) })).rejects.toMatchObject({ errorCode: 'upload_length_mismatch' });
    expect(await deps.stagedBytes.received(made.upload_id)).toBe(0);
    const fake = Buffer.concat([PNG, Buffer.alloc(MP4.length - PNG.length)]);
    await expect(receiveMediaUploadBytes(deps, { ...url, body: chunks(fake) })).rejects.toMatchObject({ errorCode: 'media_type_mismatch', details: { sniffed_type: 'image/png' } });
    expect(await deps.stagedBytes.received(made.upload_id)).toBe(0);
    await expect(receiveMediaUploadBytes(deps, { ...url, sig: `${url.sig.slice(0, -1)}A`, body: chunks(MP4) })).rejects.toMatchObject({ errorCode: 'upload_url_invalid' });
    now = new Date(T0.getTime() + 25 * 3600_000);
    await expect(receiveMediaUploadBytes(deps, { ...url, body: chunks(MP4) })).rejects.toMatchObject({ errorCode: 'upload_url_expired' });
  });

  it('sends a small upload whole: no Content-Range, and an interrupted PUT keeps nothing', async () => {
    const made = await createMediaUpload(deps, account, { filename: 'p.png', content_type: 'image/png', content_length: PNG.length, media_type: 'image' });
    expect(made.resumable).toBe(false);
    const url = signed(made.upload_url);
    await expect(receiveMediaUploadBytes(deps, { ...url, contentRange: `bytes 0-9/${PNG.length}`, body: chunks(PNG.subarray(0, 10)) })).rejects.toMatchObject({ details: { violations: [{ field: 'Content-Range' }] } });
    await expect(receiveMediaUploadBytes(deps, { ...url, body: dropsAfter(PNG, 50) })).rejects.toMatchObject({ errorCode: 'upload_length_mismatch', details: { received_bytes: 0 } });
    expect(await deps.stagedBytes.received(made.upload_id)).toBe(0);
  });

  it('lends completed uploads to posts of its account and media type; used bytes outlive the expiry', async () => {
    const made = await create();
    await expect(stagedMedia(deps, account, made.upload_id, 'video', ['video'])).rejects.toMatchObject({ errorCode: 'media_upload_unusable' });
    await receiveMediaUploadBytes(deps, { ...signed(made.upload_url), body: chunks(MP4) });
    await completeMediaUpload(deps, account, made.upload_id);
    await expect(stagedMedia(deps, other, made.upload_id, 'video', ['video'])).rejects.toMatchObject({ errorCode: 'media_upload_not_found' });
    await expect(stagedMedia(deps, account, made.upload_id, 'document', ['document'])).rejects.toMatchObject({ errorCode: 'media_upload_unusable' });
    expect(await stagedMedia(deps, account, made.upload_id, 'video', ['video'])).toEqual({ id: sha(MP4), kind: 'video', contentType: 'video/mp4', size: MP4.length, filename: 'clip.mp4' });
    await markStagedUsed(deps, account, [made.upload_id], 'req-1');

    const unused = await createMediaUpload(deps, account, { filename: 'p.png', content_type: 'image/png', content_length: PNG.length, media_type: 'image' });
    await receiveMediaUploadBytes(deps, { ...signed(unused.upload_url), body: chunks(PNG) });
    await completeMediaUpload(deps, account, unused.upload_id);

    now = new Date(T0.getTime() + 26 * 3600_000);
    expect(await expireMediaUploads(deps)).toBe(2);
    const store = createLocalMediaStore(path.join(dir, 'media'));
    expect(await store.stat(sha(MP4))).toMatchObject({ size: MP4.length });
    expect(await store.stat(sha(PNG))).toBeNull();
  });

  it('deletes an upload with its bytes, and answers another account as if unknown', async () => {
    const made = await create();
    const url = signed(made.upload_url);
    await receiveMediaUploadBytes(deps, { ...url, contentRange: `bytes 0-1999/${MP4.length}`, body: chunks(MP4.subarray(0, 2000)) });
    await expect(deleteMediaUpload(deps, other, made.upload_id)).rejects.toMatchObject({ errorCode: 'media_upload_not_found' });
    expect(await deleteMediaUpload(deps, account, made.upload_id)).toEqual({ upload_id: made.upload_id, deleted: true, media_kept: false });
    expect(await deps.stagedBytes.received(made.upload_id)).toBe(0);
    await expect(getMediaUpload(deps, account, made.upload_id)).rejects.toMatchObject({ errorCode: 'media_upload_not_found' });
  });
});
