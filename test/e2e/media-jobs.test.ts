import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { eventually, freePort, onFreshSocketIfClosed } from '../support/stack';
import { media, useHerald } from '../support/e2e';

jest.setTimeout(600_000);

/**
 * Media-processing jobs on the real stack: API and worker daemons (the media worker inside the
 * worker daemon, on its own task queue), Temporal, FerretDB and real ffmpeg. Inputs are made with
 * ffmpeg's lavfi sources: a few seconds, low resolution. Long-running jobs read their input with
 * `-re` (at its own frame rate), so a job lasts as long as its input whatever the machine's speed,
 * and the tests wait on states, never on timings.
 */
describe('media-processing jobs', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'herald-e2e-media-'));
  const mediaDir = path.join(dir, 'media');
  const scratch = path.join(dir, 'scratch');
  const canary = path.join(dir, 'canary');
  const out = path.join(dir, 'out');
  for (const d of [mediaDir, scratch, canary, out]) mkdirSync(d, { recursive: true });
  const clip = media.clip({ seconds: 3, size: '320x240', rate: 25, preset: 'ultrafast' });
  const black = media.clip({ seconds: 2, size: '320x240', rate: 10, color: 'black', audio: false, preset: 'ultrafast' });
  const logo = media.image({ color: 'red', size: '64x64', format: 'png' });
  const long = media.clip({ seconds: 40, size: '160x120', rate: 10, audio: false, preset: 'ultrafast' });
  // 32 minutes at one frame a second, 16x16: over the free plan's 30 minutes, a few kilobytes.
  const huge = media.clip({ seconds: 1920, size: '16x16', rate: 1, color: 'black', audio: false, preset: 'ultrafast' });
  /** What the loopback file server serves, by name (the URL inputs). */
  const served: Record<string, string> = { 'clip.mp4': clip, 'black.mp4': black, 'logo.png': logo };
  let files: Server;
  let filesBase: string;

  beforeAll(async () => {
    files = createServer((req, res) => {
      const name = path.basename(req.url ?? '');
      const file = served[name];
      if (!file || !existsSync(file)) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': name.endsWith('.png') ? 'image/png' : 'video/mp4' }).end(readFileSync(file));
    });
    const filesPort = await freePort();
    await new Promise<void>((resolve) => files.listen(filesPort, '127.0.0.1', resolve));
    filesBase = `http://127.0.0.1:${filesPort}`;
  });
  const herald = useHerald({
    env: () => ({
      HERALD_MEDIA_DIR: mediaDir,
      HERALD_MEDIA_SCRATCH_DIR: scratch,
      HERALD_MEDIA_FETCH_ALLOW: new URL(filesBase).host,
      HERALD_MEDIA_JOB_HEARTBEAT_TIMEOUT_MS: '5000',
      HERALD_MEDIA_JOB_HEARTBEAT_EVERY_MS: '1000',
      HERALD_MEDIA_JOB_PROGRESS_WRITE_MS: '500',
    }),
    account: { email: 'media@herald.dev', plan: 'business' },
  });
  const { api, stack } = herald;

  afterAll(async () => {
    await new Promise((resolve) => files?.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  async function postForm(fields: Record<string, string>, inputs: Record<string, string>, apiKey = herald.key) {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    for (const [k, p] of Object.entries(inputs)) form.append(k, new Blob([readFileSync(p)]), path.basename(p));
    const res = await onFreshSocketIfClosed(() => fetch(`${stack.apiUrl}/api/herald/ffmpeg/jobs/upload`, { method: 'POST', headers: { Authorization: `Apikey ${apiKey}` }, body: form }));
    return { status: res.status, body: await res.json() as any };
  }
  const postJson = (body: unknown) => onFreshSocketIfClosed(() => api.post('/api/herald/ffmpeg/jobs/upload', body));
  const job = (id: string) => api.get(`/api/herald/ffmpeg/jobs/${id}`);
  const ended = (id: string, timeoutMs = 180_000) => eventually(() => job(id), (r) => ['FINISHED', 'ERROR'].includes(r.body.status), timeoutMs, 500);

  async function download(id: string, name: string, headers: Record<string, string> = {}) {
    const res = await fetch(`${stack.apiUrl}/api/herald/ffmpeg/jobs/${id}/download`, { headers: { Authorization: `Apikey ${herald.key}`, ...headers } });
    const bytes = Buffer.from(await res.arrayBuffer());
    const file = path.join(out, name);
    writeFileSync(file, bytes);
    return { res, bytes, file };
  }

  function probe(file: string) {
    return JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_type,codec_name,width,height:format=format_name,duration', '-of', 'json', file]).toString()) as {
      streams: Array<{ codec_type: string; codec_name: string; width?: number; height?: number }>; format: { format_name: string; duration?: string };
    };
  }
  const video = (p: ReturnType<typeof probe>) => p.streams.find((s) => s.codec_type === 'video');

  /** RGB of one pixel of an image or a video's first frame. */
  function pixel(file: string, x: number, y: number): number[] {
    return [...media.pixels(file, { crop: `2:2:${x}:${y}` })].slice(0, 3);
  }

  const finished = async (submitted: { status: number; body: any }) => {
    expect(submitted).toMatchObject({ status: 202, body: { success: true, status: 'PENDING', job_id: expect.any(String) } });
    const done = await ended(submitted.body.job_id);
    expect(done.body).toMatchObject({ status: 'FINISHED', progress_percent: 100 });
    return done.body;
  };

  it('transcodes a multipart upload and serves the bytes with type, attachment name and ranges', async () => {
    const view = await finished(await postForm({
      full_command: 'ffmpeg -i {input} -vf scale=160:-2 -c:v libx264 -preset ultrafast -c:a aac {output}', output_extension: 'mp4',
    }, { file: clip }));
    expect(view).toMatchObject({ duration_seconds: 3, output_extension: 'mp4', started_at: expect.any(String), finished_at: expect.any(String) });

    const { res, bytes, file } = await download(view.job_id, 'transcode.mp4');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('video/mp4');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="output.mp4"');
    const p = probe(file);
    expect(p.format.format_name).toContain('mp4');
    expect(video(p)).toMatchObject({ codec_name: 'h264', width: 160, height: 120 });
    expect(p.streams.some((s) => s.codec_type === 'audio' && s.codec_name === 'aac')).toBe(true);

    const part = await download(view.job_id, 'part.bin', { Range: 'bytes=10-109' });
    expect(part.res.status).toBe(206);
    expect(part.res.headers.get('content-range')).toBe(`bytes 10-109/${bytes.length}`);
    expect(part.bytes.equals(bytes.subarray(10, 110))).toBe(true);
    const tail = await download(view.job_id, 'tail.bin', { Range: 'bytes=-50' });
    expect(tail.bytes.equals(bytes.subarray(bytes.length - 50))).toBe(true);
    expect((await download(view.job_id, 'bad.bin', { Range: `bytes=${bytes.length + 10}-` })).res.status).toBe(416);

    const listed = await api.get('/api/herald/ffmpeg/jobs');
    expect(listed.body.jobs.map((j: any) => j.job_id)).toContain(view.job_id);
    expect(listed.body.jobs.find((j: any) => j.job_id === view.job_id).download_url).toMatch(new RegExp(`/api/herald/ffmpeg/jobs/${view.job_id}/download\\?exp=\\d+&sig=`));
  });

  it("serves a finished job's download_url without the API key, and refuses it forged or altered", async () => {
    const view = await finished(await postForm({ full_command: 'ffmpeg -i {input} -c copy {output}', output_extension: 'mp4' }, { file: clip }));
    const { bytes } = await download(view.job_id, 'by-key.mp4');
    const link = new URL(view.download_url);
    expect(link.pathname).toBe(`/api/herald/ffmpeg/jobs/${view.job_id}/download`);
    expect(Number(link.searchParams.get('exp')) * 1000).toBeLessThanOrEqual(Date.parse(view.expires_at));
    // As a browser would: no Authorization header, the link alone.
    const at = (search: string, p = link.pathname, headers: Record<string, string> = {}) => fetch(`${stack.apiUrl}${p}${search}`, { headers });
    const plain = await at(link.search);
    expect([plain.status, plain.headers.get('content-disposition'), plain.headers.get('content-type')]).toEqual([200, 'attachment; filename="output.mp4"', 'video/mp4']);
    expect(Buffer.from(await plain.arrayBuffer()).equals(bytes)).toBe(true);
    const part = await at(link.search, link.pathname, { Range: 'bytes=10-109' });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(10, 110))).toBe(true);

    const exp = link.searchParams.get('exp')!;
    const sig = link.searchParams.get('sig')!;
    const refused = async (res: Response) => ({ status: res.status, body: await res.json() });
    const invalid = { status: 403, body: { success: false, error_code: 'media_url_invalid' } };
    expect(await refused(await at(`?exp=${exp}&sig=${sig.slice(0, -2)}${sig.endsWith('AA') ? 'BB' : 'AA'}`))).toMatchObject(invalid);
    expect(await refused(await at(`?exp=${Number(exp) + 3600}&sig=${sig}`))).toMatchObject(invalid);
    expect(await refused(await at(`?exp=${Math.floor(Date.now() / 1000) - 60}&sig=${sig}`))).toMatchObject(invalid);
    expect(await refused(await at(`?exp=${exp}`, link.pathname))).toMatchObject({ status: 401 });
    expect(await refused(await at(`?exp=${exp}&sig=${sig}`, '/api/herald/ffmpeg/jobs/mj_another/download'))).toMatchObject(invalid);
  });

  it('overlays {input1} on {input}', async () => {
    const view = await finished(await postForm({
      full_command: 'ffmpeg -i {input} -i {input1} -filter_complex "[0:v][1:v]overlay=10:10" -c:v libx264 -preset ultrafast -an {output}', output_extension: 'mp4',
    }, { file: black, file1: logo }));
    const { file } = await download(view.job_id, 'overlay.mp4');
    expect(video(probe(file))).toMatchObject({ width: 320, height: 240 });
    const [r, g, b] = pixel(file, 40, 40);
    expect(r).toBeGreaterThan(180);
    expect(g! + b!).toBeLessThan(120);
    const [r2] = pixel(file, 200, 200);
    expect(r2).toBeLessThan(60);
  });

  it('draws multi-line text from the two-character \\n of a JSON template (URL input)', async () => {
    const bright = (file: string) => {
      const gray = media.pixels(file, { format: 'gray' });
      const rows = new Set<number>();
      for (let i = 0; i < gray.length; i += 1) if (gray[i]! > 200) rows.add(Math.floor(i / 320));
      return rows.size ? Math.max(...rows) - Math.min(...rows) + 1 : 0;
    };
    const drawn = async (text: string) => {
      const view = await finished(await postJson({
        input_url: `${filesBase}/black.mp4`,
        full_command: `ffmpeg -i {input}\n-vf "drawtext=text='${text}':fontsize=24:fontcolor=white:x=10:y=10"\n-frames:v 1 {output}`,
        output_extension: 'png',
      }));
      const { res, file } = await download(view.job_id, `${view.job_id}.png`);
      expect(res.headers.get('content-type')).toBe('image/png');
      return bright(file);
    };
    const one = await drawn('Line one');
    const two = await drawn('Line one\\nLine two');
    expect(one).toBeGreaterThan(10);
    expect(two).toBeGreaterThan(one * 1.6);
  });

  it('extracts the audio to mp3', async () => {
    const view = await finished(await postForm({ full_command: 'ffmpeg -i {input} -vn -c:a libmp3lame -q:a 6 {output}', output_extension: 'mp3' }, { file: clip }));
    const { res, file } = await download(view.job_id, 'audio.mp3');
    expect(res.headers.get('content-type')).toBe('audio/mpeg');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="output.mp3"');
    const p = probe(file);
    expect(p.streams).toEqual([expect.objectContaining({ codec_type: 'audio', codec_name: 'mp3' })]);
    expect(Number(p.format.duration)).toBeGreaterThan(2.5);
  });

  it.each([
    ['h264_social', 'h264'],
    ['hevc_social', 'hevc'],
    ['copy_mux', 'h264'],
  ])('preset %s', async (preset, codec) => {
    const view = await finished(await postJson({ input_url: `${filesBase}/clip.mp4`, preset }));
    expect(view.output_extension).toBe('mp4');
    const { file } = await download(view.job_id, `${preset}.mp4`);
    const p = probe(file);
    expect(video(p)).toMatchObject({ codec_name: codec, width: 320, height: 240 });
    expect(p.streams.some((s) => s.codec_type === 'audio')).toBe(true);
  });

  it('ffmpeg_args with output_filename (the commercial API\'s field)', async () => {
    const view = await finished(await postJson({ files: [`${filesBase}/clip.mp4`], ffmpeg_args: '-vf scale=96:-2 -c:v libx264 -preset ultrafast -an', output_filename: 'small.webm.mp4' }));
    expect(view.output_extension).toBe('mp4');
    expect(video(probe((await download(view.job_id, 'args.mp4')).file))).toMatchObject({ width: 96, height: 72 });
  });

  it('refuses unsafe templates with 400 before anything is stored or run, and nothing is written outside the scratch directory', async () => {
    const storedBefore = readdirSync(mediaDir);
    const target = path.join(canary, 'pwned.mp4');
    const templates = [
      `ffmpeg -i {input} ${target}`,
      `ffmpeg -i {input} -c copy {output}; touch ${target}`,
      `ffmpeg -i {input} -f mp4 {output} | tee ${target}`,
      `ffmpeg -i {input} {output} && cp {output} ${target}`,
      'ffmpeg -i {input} -metadata title=$(id) {output}',
      'ffmpeg -i {input} -metadata title=`id` {output}',
      `rm -rf ${canary}`,
      `ffmpeg -i {input} -vf movie=${clip} {output}`,
      `ffmpeg -i {input} -filter_complex "[0:a]anull,amovie=${clip}" {output}`,
      `ffmpeg -i {input} -vf subtitles=subs.srt {output}`,
      `ffmpeg -i concat:${clip}|${clip} {output}`,
      `ffmpeg -i {input} -i file:${clip} -filter_complex overlay {output}`,
      `ffmpeg -i {input} -i ${filesBase}/logo.png -filter_complex overlay {output}`,
      'ffmpeg -i {input} -f mp4 pipe:1',
      `ffmpeg -i {input} -pass 1 -passlogfile ${path.join(canary, 'log')} {output}`,
      'ffmpeg -report -i {input} {output}',
      `ffmpeg -dump_attachment:t ${path.join(canary, 'a.ttf')} -i {input} {output}`,
      `ffmpeg -i {input} -vf drawtext=textfile=${path.join(canary, 'x')}:text=x {output}`,
      'ffmpeg -f concat -i {input} {output}',
      // The security review's bypasses through ffmpeg's own unescaping (issue 26)
      String.raw`ffmpeg -i {input} -filter_complex "mo\vie=\/etc/passwd:f=tty,scale=8:8" {output}`,
      String.raw`ffmpeg -i {input} -vf "drawtext=text\file=\/etc/passwd" {output}`,
      String.raw`ffmpeg -i {input} -vf "se\ndcmd=f=\/etc/passwd,null" {output}`,
      String.raw`ffmpeg -i {input} -filter_complex "mo\vie=htt\p\\\:\/\/127.0.0.1\\\:9464\/metrics" {output}`,
      `ffmpeg -i {input} -c:v libx264 -x264-params stats=${path.join(canary, 'stats')}:pass=1 {output}`,
    ];
    for (const full_command of templates) {
      const res = await postForm({ full_command, output_extension: 'mp4' }, { file: clip });
      expect({ full_command, status: res.status, code: res.body.error_code }).toEqual({ full_command, status: 400, code: 'unsafe_command' });
      expect(res.body.message).toMatch(/^Unsafe media command: /);
    }
    expect(readdirSync(canary)).toEqual([]);
    expect(readdirSync(mediaDir).filter((f) => f !== 'tmp')).toEqual(storedBefore.filter((f) => f !== 'tmp'));
    expect(readdirSync(scratch)).toEqual([]);
  });

  it('answers 400 for missing fields, 404 for an unknown job, 409 for a download before FINISHED', async () => {
    expect(await postJson({ input_url: `${filesBase}/clip.mp4`, output_extension: 'mp4' })).toMatchObject({ status: 400, body: { success: false, error_code: 'invalid_request' } });
    expect(await postJson({ input_url: `${filesBase}/clip.mp4`, full_command: 'ffmpeg -i {input} {output}', output_extension: 'exe' })).toMatchObject({ status: 400, body: { error_code: 'invalid_request' } });
    expect(await postJson({ input_url: 'http://169.254.169.254/latest/meta-data', full_command: 'ffmpeg -i {input} {output}', output_extension: 'mp4' })).toMatchObject({ status: 400, body: { error_code: 'media_url_forbidden' } });
    expect(await job('mj_unknown')).toMatchObject({ status: 404, body: { success: false } });
    expect((await download('mj_unknown', 'x')).res.status).toBe(404);
  });

  it('refuses with 429 and the consumption record past the plan\'s monthly minutes', async () => {
    const freeKey = await stack.newApiKey('media-free@herald.dev', 'free');
    const res = await postForm({ full_command: 'ffmpeg -i {input} -c copy {output}', output_extension: 'mp4' }, { file: huge }, freeKey);
    expect(res).toMatchObject({
      status: 429,
      body: {
        success: false, error_code: 'media_quota_exceeded',
        consumption: { used_minutes: 0, remaining_minutes: 30, quota_minutes: 30, plan: 'free', total_requests: 0 },
        quota_info: { plan: 'free', quota_minutes: 30, reset_day: 1 },
      },
    });
    const small = await postForm({ full_command: 'ffmpeg -i {input} -c copy {output}', output_extension: 'mp4' }, { file: clip }, freeKey);
    expect(small.status).toBe(202);
    const consumption = await herald.client(freeKey).get('/api/herald/ffmpeg/consumption');
    expect(consumption.body).toMatchObject({ success: true, consumption: { used_minutes: 0.05, total_requests: 1 }, history: [{ duration_seconds: 3, type: 'ffmpeg_job' }] });
    // The operator CLI shows the same minutes, per job.
    const cli = await stack.cli('media', 'minutes', '--email', 'media-free@herald.dev', '--json');
    expect(cli.code).toBe(0);
    expect(JSON.parse(cli.stdout)).toMatchObject({
      consumption: { used_minutes: 0.05, quota_minutes: 30, total_requests: 1, plan: 'free' },
      history: [{ job_id: small.body.job_id, duration_seconds: 3 }],
    });
    expect((await stack.cli('media', 'minutes', '--email', 'media-free@herald.dev')).stdout).toContain('0.05 of 30 minutes used');
  });

  it('finishes a job whose worker was killed (-9) mid-run: the run restarts on the restarted worker', async () => {
    const submitted = await postForm({ full_command: 'ffmpeg -re -i {input} -c:v libx264 -preset ultrafast {output}', output_extension: 'mp4' }, { file: long });
    expect(submitted.status).toBe(202);
    const id = submitted.body.job_id;
    await eventually(() => job(id), (r) => r.body.status === 'PROCESSING' && r.body.processed_seconds > 2, 120_000, 300);
    expect((await download(id, 'early.bin')).res.status).toBe(409);
    expect((await job(id)).body.download_url).toBeNull();
    await stack.killWorker('SIGKILL');
    await stack.startWorker();
    const done = await ended(id, 300_000);
    expect(done.body).toMatchObject({ status: 'FINISHED' });
    const p = probe((await download(id, 'resumed.mp4')).file);
    expect(Number(p.format.duration)).toBeGreaterThan(39);
  });

  it('cancels a running job: the process is killed and only the processed time is charged', async () => {
    const before = (await api.get('/api/herald/ffmpeg/consumption')).body.consumption.used_minutes;
    const submitted = await postForm({ full_command: 'ffmpeg -re -i {input} -c:v libx264 -preset ultrafast {output}', output_extension: 'mp4' }, { file: long });
    const id = submitted.body.job_id;
    await eventually(() => job(id), (r) => r.body.status === 'PROCESSING' && r.body.processed_seconds > 1, 120_000, 300);
    const cancel = await api.delete(`/api/herald/ffmpeg/jobs/${id}`);
    expect(cancel).toMatchObject({ status: 202, body: { success: true, cancel_requested: true } });
    const done = await ended(id, 120_000);
    expect(done.body).toMatchObject({ status: 'ERROR', cancelled: true });
    expect(done.body.billed_minutes).toBeLessThan(40 / 60);
    const after = (await api.get('/api/herald/ffmpeg/consumption')).body.consumption.used_minutes;
    expect(after - before).toBeCloseTo(done.body.billed_minutes, 1);
    expect((await download(id, 'cancelled.bin')).res.status).toBe(409);
    expect((await api.delete(`/api/herald/ffmpeg/jobs/${id}`))).toMatchObject({ status: 409, body: { error_code: 'job_not_cancellable' } });
    // Its scratch directory is gone: ffmpeg was stopped, not left running.
    await eventually(async () => readdirSync(scratch).filter((d) => d.startsWith(id)), (left) => left.length === 0, 60_000);
  });

  it('lists the jobs and the month\'s minutes by page and by cursor (every job once, newest first)', async () => {
    const all = await api.get('/api/herald/ffmpeg/jobs?limit=100');
    expect(all.body).toMatchObject({ success: true, page: 1, limit: 100, has_more: false, next_cursor: null });
    const ids = all.body.jobs.map((j: any) => j.job_id);
    expect(all.body.total).toBe(ids.length);
    expect(ids.length).toBeGreaterThan(2);
    const walked: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await api.get(`/api/herald/ffmpeg/jobs?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(page.status).toBe(200);
      walked.push(...page.body.jobs.map((j: any) => j.job_id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(walked).toEqual(ids);
    const second = await api.get('/api/herald/ffmpeg/jobs?limit=2&page=2');
    expect(second.body.jobs.map((j: any) => j.job_id)).toEqual(ids.slice(2, 4));

    const consumption = await api.get('/api/herald/ffmpeg/consumption');
    const history = consumption.body.history.map((h: any) => h.job_id);
    expect(consumption.body).toMatchObject({ has_more: false, next_cursor: null, consumption: { total_requests: history.length } });
    const one = await api.get('/api/herald/ffmpeg/consumption?limit=1');
    expect(one.body).toMatchObject({ history: [{ job_id: history[0] }], has_more: true, consumption: { total_requests: history.length } });
    const next = await api.get(`/api/herald/ffmpeg/consumption?limit=1&cursor=${encodeURIComponent(one.body.next_cursor)}`);
    expect(next.body.history.map((h: any) => h.job_id)).toEqual([history[1]]);

    expect(await api.get('/api/herald/ffmpeg/jobs?cursor=not-a-cursor')).toMatchObject({ status: 400, body: { success: false, error_code: 'invalid_cursor' } });
    expect(await api.get(`/api/herald/ffmpeg/jobs?cursor=${encodeURIComponent(one.body.next_cursor)}`)).toMatchObject({ status: 400, body: { error_code: 'invalid_cursor' } });
  });
});
