import { Readable } from 'node:stream';
import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import type { Context } from 'koa';
import { conflict, HeraldError, invalidInput, notFound } from '../../../core/domain/errors';
import { isMediaPreset, MEDIA_PRESETS, parseCommandTemplate, presetTemplate, type MediaPreset } from '../../../core/domain/ffmpeg-command';
import { isOutputExtension, OUTPUT_TYPES, type MediaJob, type MediaJobInput } from '../../../core/domain/media-job';
import type { StoredMedia } from '../../../core/ports/media';
import {
  cancelMediaJob, getMediaJob, listMediaJobs, mediaConsumption, mediaJobView, submitMediaJob, type MediaJobDeps,
} from '../../../core/usecases/media-jobs';
import { removeTempFiles, storeUpload, type UploadedFile } from '../media-intake';
import { bodyFields, single } from '../input';
import type { ApiDeps, AppState } from '../deps';
import { koaPath, mount } from '../catalogue/mount';
import * as ops from '../catalogue/media-jobs';
import { publishOf, text } from '../catalogue/media-jobs';

/** What the media-job routes need beyond the API's own dependencies. */
export interface MediaJobApi extends MediaJobDeps {
  /** Downloads an input URL into the media store with the uploads' SSRF rules. */
  fetchInput(url: string, field: string): Promise<StoredMedia & { filename: string }>;
}

const printable = (s: string | null | undefined): string | undefined => s?.replace(/\p{Cc}/gu, '') || undefined;

function filesOf(ctx: RouterContext<AppState>): Record<string, UploadedFile> {
  const raw = (ctx.request as unknown as { files?: Record<string, UploadedFile | UploadedFile[]> }).files ?? {};
  return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v[v.length - 1]! : v]));
}

/** `output_extension`, else the extension of `output_filename`, else the preset's. */
function outputExtensionOf(fields: Record<string, unknown>, preset: MediaPreset | undefined): string {
  const filename = text(fields, 'output_filename');
  const raw = text(fields, 'output_extension') ?? (filename?.includes('.') ? filename.split('.').pop() : undefined) ?? (preset ? MEDIA_PRESETS[preset].extension : undefined);
  if (!raw) throw invalidInput('output_extension is required (mp4, mov, webm, gif, jpg, png, mp3, wav, …), or output_filename such as clip.mp4.', { violations: [{ field: 'output_extension', message: 'required' }] });
  const ext = raw.replace(/^\./, '').toLowerCase();
  if (!isOutputExtension(ext)) {
    throw invalidInput(`output_extension "${raw}" is not one Herald writes; use one of ${Object.keys(OUTPUT_TYPES).join(', ')}.`, { violations: [{ field: 'output_extension', message: 'unsupported' }] });
  }
  return ext;
}

/** Input file fields of a multipart request, in input order: `file` ({input}), then `file1`, `file2`, … */
function multipartInputs(files: Record<string, UploadedFile>): Array<{ field: string; file: UploadedFile }> {
  const inputs: Array<{ field: string; file: UploadedFile }> = [];
  const first = files.file ?? files.file0;
  if (first) inputs.push({ field: files.file ? 'file' : 'file0', file: first });
  for (let n = 1; files[`file${n}`]; n += 1) inputs.push({ field: `file${n}`, file: files[`file${n}`]! });
  const unknown = Object.keys(files).filter((k) => !inputs.some((i) => i.field === k));
  if (unknown.length) throw invalidInput(`Unexpected file field ${unknown.join(', ')}: inputs are file, file1, file2, … in order.`, { violations: unknown.map((f) => ({ field: f, message: 'not an input field' })) });
  return inputs;
}

/** URL inputs of a JSON request: `input_url` ({input}) or `files` (array of URLs, in input order). */
function urlInputs(fields: Record<string, unknown>): string[] {
  const one = fields.input_url;
  const many = fields.files;
  if (one !== undefined && many !== undefined) throw invalidInput('Send input_url (one input) or files (several), not both.', { violations: [{ field: 'files', message: 'not with input_url' }] });
  const urls = one !== undefined ? [one] : many === undefined ? [] : Array.isArray(many) ? many : [many];
  if (urls.some((u) => typeof u !== 'string' || !u)) throw invalidInput('files must be an array of URLs (input_url one URL).', { violations: [{ field: 'files', message: 'URLs' }] });
  return urls as string[];
}

export function mediaJobRoutes(router: Router<AppState>, deps: ApiDeps & { mediaJobs: MediaJobApi }, ns: string): void {
  const jobs = deps.mediaJobs;

  mount(router, ops.submitMediaJob, ns, async (ctx) => {
    try {
      await submit(ctx);
    } finally {
      await removeTempFiles(ctx);
    }
  });

  async function submit(ctx: RouterContext<AppState>): Promise<void> {
    const fields = bodyFields(ctx);
    const files = filesOf(ctx);
    const fileInputs = multipartInputs(files);
    const urls = urlInputs(fields);
    if (fileInputs.length && urls.length) throw invalidInput('Send the inputs as files or as URLs, not both.', { violations: [{ field: 'files', message: 'not with file' }] });
    const count = fileInputs.length + urls.length;
    if (!count) throw invalidInput('An input is required: the file field (multipart), or input_url / files (URLs).', { violations: [{ field: 'file', message: 'required' }] });

    const fullCommand = text(fields, 'full_command');
    const presetRaw = text(fields, 'preset');
    const ffmpegArgs = text(fields, 'ffmpeg_args');
    if (presetRaw !== undefined && !isMediaPreset(presetRaw)) {
      throw invalidInput(`preset "${presetRaw}" is unknown; use one of ${Object.keys(MEDIA_PRESETS).join(', ')}.`, { violations: [{ field: 'preset', message: 'unknown' }] });
    }
    const preset = presetRaw as MediaPreset | undefined;
    if (fullCommand !== undefined && (preset || ffmpegArgs !== undefined)) {
      throw invalidInput('Send full_command, or preset and/or ffmpeg_args, not both.', { violations: [{ field: 'full_command', message: 'not with preset or ffmpeg_args' }] });
    }
    if (fullCommand === undefined && !preset && ffmpegArgs === undefined) {
      throw invalidInput('full_command is required (or preset: h264_social, hevc_social, copy_mux, and/or ffmpeg_args).', { violations: [{ field: 'full_command', message: 'required' }] });
    }
    if (fullCommand === undefined && count > 1) {
      throw invalidInput('preset and ffmpeg_args take a single input; use full_command with {input1}, … for several.', { violations: [{ field: 'ffmpeg_args', message: 'single input only' }] });
    }
    // Everything about the command is checked before any byte is stored.
    const command = parseCommandTemplate(fullCommand ?? presetTemplate(preset, ffmpegArgs), count);
    const outputExtension = outputExtensionOf(fields, preset);
    const publish = publishOf(fields);

    const inputs: MediaJobInput[] = [];
    for (const { file } of fileInputs) {
      const stored = await storeUpload(deps.mediaStore, file, printable(file.mimetype) ?? 'application/octet-stream');
      const filename = printable(file.originalFilename);
      inputs.push({ id: stored.id, size: stored.size, contentType: stored.contentType, ...(filename ? { filename } : {}) });
    }
    for (const [n, url] of urls.entries()) {
      const stored = await jobs.fetchInput(url, urls.length === 1 && fields.input_url !== undefined ? 'input_url' : `files[${n}]`);
      inputs.push({ id: stored.id, size: stored.size, contentType: stored.contentType, filename: stored.filename });
    }
    const job = await submitMediaJob(jobs, ctx.state.caller.account, { command, inputs, outputExtension, ...(publish ? { publish } : {}) });
    ctx.status = 202;
    ctx.body = { success: true, job_id: job.id, status: job.status };
  }

  mount(router, ops.listMediaJobs, ns, async (ctx, { query: q }) => {
    const { limit, page } = q;
    ctx.body = { success: true, ...(await listMediaJobs(jobs, ctx.state.caller.account, { limit, page, ...(q.cursor ? { cursor: q.cursor } : {}) })) };
  });

  mount(router, ops.getMediaConsumption, ns, async (ctx, { query: q }) => {
    ctx.body = { success: true, ...(await mediaConsumption(jobs, ctx.state.caller.account, { limit: q.limit, ...(q.cursor ? { cursor: q.cursor } : {}) })) };
  });

  mount(router, ops.getMediaJob, ns, async (ctx) => {
    ctx.body = { success: true, ...mediaJobView(jobs, await getMediaJob(jobs, ctx.state.caller.account, ctx.params.job_id!)) };
  });

  mount(router, ops.cancelMediaJob, ns, async (ctx) => {
    const job = await cancelMediaJob(jobs, ctx.state.caller.account, ctx.params.job_id!);
    ctx.status = 202;
    ctx.body = { success: true, ...mediaJobView(jobs, job), cancel_requested: true, message: `Cancelling: poll GET /api/${ns}/ffmpeg/jobs/${job.id} until it is ERROR with cancelled: true.` };
  });

  mount(router, ops.downloadMediaJobOutput, ns, async (ctx) => {
    await sendOutput(ctx, deps.mediaStore, await getMediaJob(jobs, ctx.state.caller.account, ctx.params.job_id!));
  });
}

/**
 * The download route by a job's signed `download_url` (`exp`, `sig`) instead of the API key:
 * registered before authentication; a request without `sig` goes on to the authenticated route.
 */
export function mediaJobOutputLinkRoute(open: Router, deps: Pick<ApiDeps, 'mediaStore'> & { mediaJobs: MediaJobApi }, ns: string): void {
  const links = deps.mediaJobs.outputLinks;
  if (!links) return;
  open.get(koaPath(ops.downloadMediaJobOutput, ns), async (ctx, next) => {
    const sig = single(ctx.query.sig);
    if (sig === undefined) return next();
    const exp = single(ctx.query.exp);
    const id = ctx.params.job_id!;
    if (!links.verify(id, typeof exp === 'string' ? exp : undefined, typeof sig === 'string' ? sig : undefined)) {
      throw new HeraldError('forbidden', 'This download link is invalid or expired: read the job again (GET …/ffmpeg/jobs/{job_id}) for a fresh download_url.', 'media_url_invalid');
    }
    const job = await deps.mediaJobs.mediaJobs.get(id);
    if (!job) throw notFound(`No media job ${id}.`, 'JOB_NOT_FOUND');
    await sendOutput(ctx, deps.mediaStore, job);
  });
}

/** A FINISHED job's output: the whole file, or the `Range` asked for (206). */
async function sendOutput(ctx: Context, store: ApiDeps['mediaStore'], job: MediaJob): Promise<void> {
  if (job.status !== 'FINISHED' || !job.output) {
    throw conflict(`Media job ${job.id} is ${job.status}; the download is available when it is FINISHED.`, 'job_not_finished', { status: job.status });
  }
  const stored = job.expired ? null : await store.stat(job.output.id);
  if (!stored) throw notFound(`The output of media job ${job.id} has expired.`, 'output_expired');
  const size = stored.size;
  ctx.set('Accept-Ranges', 'bytes');
  ctx.set('Content-Disposition', `attachment; filename="output.${job.outputExtension}"`);
  ctx.type = OUTPUT_TYPES[job.outputExtension]?.contentType ?? job.output.contentType;
  const range = ctx.get('Range');
  if (range) {
    const match = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
    let start = match?.[1] ? Number(match[1]) : NaN;
    let end = match?.[2] ? Number(match[2]) : NaN;
    if (match && !match[1] && match[2]) { start = Math.max(0, size - Number(match[2])); end = size - 1; }
    if (match && match[1] && !match[2]) end = size - 1;
    end = Math.min(end, size - 1);
    if (!match || !Number.isFinite(start) || !Number.isFinite(end) || start > end || start >= size) {
      ctx.status = 416;
      ctx.set('Content-Range', `bytes */${size}`);
      ctx.body = { success: false, message: `Range "${range}" is not satisfiable: the output has ${size} bytes.`, error_code: 'range_not_satisfiable' };
      return;
    }
    ctx.status = 206;
    ctx.set('Content-Range', `bytes ${start}-${end}/${size}`);
    ctx.set('Content-Length', String(end - start + 1));
    ctx.body = Readable.from(store.read(job.output.id, { start, end: end + 1 }));
    return;
  }
  ctx.set('Content-Length', String(size));
  ctx.body = Readable.from(store.read(job.output.id));
}
