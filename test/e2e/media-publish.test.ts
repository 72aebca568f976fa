import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eventually, onFreshSocketIfClosed } from '../support/stack';
import { media, useHerald } from '../support/e2e';

jest.setTimeout(300_000);

/**
 * `publish` on a media job: the finished output goes out through the normal upload path (here to
 * the Bluesky simulator) and the job's status links the upload's request_id. A command that ffmpeg
 * refuses ends the job in ERROR with ffmpeg's reason, without the run's paths.
 */
describe('media jobs: publish and failures', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'herald-e2e-media-publish-'));
  const herald = useHerald({ sandbox: true, env: { HERALD_MEDIA_SCRATCH_DIR: path.join(dir, 'scratch') }, account: { email: 'media-publish@herald.dev' }, profiles: ['mia'] });
  const { api, stack } = herald;
  const clip = media.clip({ seconds: 3, audio: false, preset: 'ultrafast' });

  beforeAll(async () => {
    await herald.connect('bluesky', { profile: 'mia' });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function postForm(fields: Record<string, string>, bytes: Buffer = readFileSync(clip)) {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    form.append('file', new Blob([bytes]), 'clip.mp4');
    const res = await onFreshSocketIfClosed(() => fetch(`${stack.apiUrl}/api/herald/ffmpeg/jobs/upload`, { method: 'POST', headers: { Authorization: `Apikey ${herald.key}` }, body: form }));
    return { status: res.status, body: await res.json() as any };
  }
  const ended = (id: string) => eventually(() => api.get(`/api/herald/ffmpeg/jobs/${id}`), (r) => ['FINISHED', 'ERROR'].includes(r.body.status), 180_000, 500);

  it('publishes the finished output through the upload path and links its request_id', async () => {
    const submitted = await postForm({
      preset: 'h264_social',
      publish: JSON.stringify({ user: 'mia', 'platform[]': ['bluesky'], title: 'Made by a media job' }),
    });
    expect(submitted.status).toBe(202);
    const id = submitted.body.job_id;
    const done = await eventually(() => api.get(`/api/herald/ffmpeg/jobs/${id}`), (r) => Boolean(r.body.publish?.request_id || r.body.publish?.error || r.body.status === 'ERROR'), 180_000, 500);
    expect(done.body).toMatchObject({ status: 'FINISHED', publish: { request_id: `ffmpeg-${id}` } });
    const upload = await herald.waitForCompletion(`ffmpeg-${id}`);
    expect(upload.body.results.bluesky).toMatchObject({ success: true });
  });

  it('refuses a publish without its profile, and ends a command ffmpeg rejects in ERROR with a scrubbed reason', async () => {
    expect(await postForm({ preset: 'copy_mux', publish: JSON.stringify({ 'platform[]': ['bluesky'] }) })).toMatchObject({ status: 400, body: { success: false } });
    // A codec off the allow-list is refused at intake; a pixel format is ffmpeg's to know.
    expect(await postForm({ full_command: 'ffmpeg -i {input} -c:v nosuchcodec {output}', output_extension: 'mp4' })).toMatchObject({ status: 400, body: { error_code: 'unsafe_command' } });
    const submitted = await postForm({ full_command: 'ffmpeg -i {input} -c:v libx264 -pix_fmt nosuchpixfmt {output}', output_extension: 'mp4' });
    expect(submitted.status).toBe(202);
    const done = await ended(submitted.body.job_id);
    expect(done.body).toMatchObject({ status: 'ERROR', billed_minutes: 0 });
    expect(done.body.error).toMatch(/nosuchpixfmt/i);
    expect(done.body.error).not.toContain(dir);
    expect(done.body.error).toMatch(/^Unknown pixel format requested: nosuchpixfmt/);
    expect(done.body.error).not.toMatch(/\/(tmp|home|work|var)\//);

    // ffmpeg names the input file in its error: the answer names the placeholder instead. An
    // input of unknown duration reserves 60 s; a run that failed at once is charged nothing.
    const garbage = await postForm({ full_command: 'ffmpeg -i {input} {output}', output_extension: 'mp4' }, Buffer.from('not a video at all\n'.repeat(100)));
    expect(garbage.status).toBe(202);
    const failed = await ended(garbage.body.job_id);
    expect(failed.body).toMatchObject({ status: 'ERROR', duration_seconds: null, billed_minutes: 0 });
    expect(failed.body.error).toMatch(/^\{input0\}: Invalid data/);
  });
});
