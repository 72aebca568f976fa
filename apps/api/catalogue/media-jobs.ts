import { z } from 'zod';
import { invalidInput } from '../../../core/domain/errors';
import { isMediaPreset, MEDIA_PRESETS, type MediaPreset } from '../../../core/domain/ffmpeg-command';
import { OUTPUT_TYPES } from '../../../core/domain/media-job';
import { CONSUMPTION_HISTORY_LIMIT } from '../../../core/usecases/media-jobs';
import { single } from '../input';
import { operation, ruledBy } from './types';
import { clampedNumber, ok } from './common';

/** A text field of a media job: absent, null or '' is none. */
export const text = (fields: Record<string, unknown>, name: string): string | undefined => {
  const v = single(fields[name]);
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') throw invalidInput(`${name} must be text.`, { violations: [{ field: name, message: 'must be text' }] });
  return v;
};

const URLS = 'files must be an array of URLs (input_url one URL).';

/** `publish` in JSON, or as JSON text in a form field. */
export function publishOf(fields: Record<string, unknown>): Record<string, unknown> | undefined {
  let value = fields.publish;
  if (value === undefined || value === null || value === '' || value === false || value === 'false') return undefined;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      throw invalidInput('publish must be an object of upload fields ({"user": …, "platform[]": […], "title": …}), as JSON text in a form.', { violations: [{ field: 'publish', message: 'not JSON' }] });
    }
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw invalidInput('publish must be an object of upload fields: user, platform[], title and the networks\' fields.', { violations: [{ field: 'publish', message: 'not an object' }] });
  const publish = value as Record<string, unknown>;
  if (!publish.user && !publish.profile_username) throw invalidInput('publish.user is required: the profile to post as.', { violations: [{ field: 'publish.user', message: 'required' }] });
  if (!publish['platform[]'] && !publish.platform && !publish.platforms) throw invalidInput('publish["platform[]"] is required: the networks to post to.', { violations: [{ field: 'publish.platform[]', message: 'required' }] });
  return publish;
}

/** Media-processing (ffmpeg) jobs, metered by monthly minutes. */

const MediaJob = z.looseObject({
  job_id: z.string(),
  status: z.enum(['PENDING', 'PROCESSING', 'FINISHED', 'ERROR']),
  download_url: z.string().nullable().describe('FINISHED: the output by a signed link that needs no API key (a browser can open it) and stops working after HERALD_MEDIA_URL_TTL_SECONDS or when the output expires, whichever comes first; each read of the job gives a fresh one. null before, and once the output has expired.'),
  duration_seconds: z.number().nullable(),
  output_extension: z.string(),
  progress_percent: z.number(),
  processed_seconds: z.number(),
  billed_minutes: z.number(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  output_size: z.number().optional(),
  expires_at: z.string().optional(),
  expired: z.boolean().optional(),
  error: z.string().optional(),
  cancelled: z.boolean().optional(),
  publish: z.object({ request_id: z.string().nullable(), error: z.string().optional() }).optional(),
  run_timings: z.object({
    scheduled_at: z.string().nullable(),
    started_at: z.string().nullable(),
    ffmpeg_started_at: z.string().nullable(),
    ffmpeg_ended_at: z.string().nullable(),
    output_stored_at: z.string().nullable(),
  }).optional().describe('Once ended: where the time of the run that ended the job went (the worker\'s clock).'),
});
const JobParams = z.object({ job_id: z.string().describe('The job_id of submitMediaJob.') });
const EXTENSIONS = Object.keys(OUTPUT_TYPES).join(', ');

export const submitMediaJob = operation({
  id: 'submitMediaJob', method: 'post', path: '/svc/ffmpeg/jobs/upload', tags: ['media jobs'],
  summary: 'Submit a media job',
  description: `Runs an ffmpeg command on one or more inputs (files, or URLs in JSON) and keeps the output for download; optionally publishes it (\`publish\`: upload fields). The command starts with \`ffmpeg\` and uses \`{input}\` (\`{input1}\`, …) and \`{output}\`; \`;\`, \`|\`, \`&\`, \`$\`, backticks are refused, and every option, filter and filter option must be on the media-job allow-list, checked as ffmpeg unescapes it (at most 4,096 characters). Or a preset (${Object.keys(MEDIA_PRESETS).join(', ')}) with optional ffmpeg_args (one input). Answers 202; poll getMediaJob. Errors: 400 \`unsafe_command\` or an invalid field (named), 429 \`media_quota_exceeded\`.`,
  auth: 'apiKey',
  bodyTypes: ['multipart', 'json'],
  body: z.looseObject({
    // Inputs (file parts, input_url, files) and how the fields combine are the route's; the command's safety is the core's.
    full_command: ruledBy((_, all) => text(all, 'full_command'), z.string().optional().describe('ffmpeg … {input} … {output}.')),
    preset: ruledBy((_, all) => {
      const preset = text(all, 'preset');
      if (preset !== undefined && !isMediaPreset(preset)) {
        throw invalidInput(`preset "${preset}" is unknown; use one of ${Object.keys(MEDIA_PRESETS).join(', ')}.`, { violations: [{ field: 'preset', message: 'unknown' }] });
      }
      return preset;
    }, z.enum(Object.keys(MEDIA_PRESETS) as [MediaPreset, ...MediaPreset[]]).optional()),
    ffmpeg_args: ruledBy((_, all) => text(all, 'ffmpeg_args'), z.string().optional().describe('Extra arguments for a preset (single input).')),
    output_extension: ruledBy((_, all) => text(all, 'output_extension'), z.string().optional().describe(`${EXTENSIONS}; or output_filename such as clip.mp4.`)),
    output_filename: ruledBy((_, all) => text(all, 'output_filename'), z.string().optional()),
    input_url: ruledBy((v) => {
      if (v !== undefined && (typeof v !== 'string' || !v)) throw invalidInput(URLS, { violations: [{ field: 'files', message: 'URLs' }] });
      return v;
    }, z.string().optional().describe('JSON: one input by URL.')),
    files: ruledBy((v) => {
      const urls = v === undefined ? [] : Array.isArray(v) ? v : [v];
      if (urls.some((u) => typeof u !== 'string' || !u)) throw invalidInput(URLS, { violations: [{ field: 'files', message: 'URLs' }] });
      return v === undefined ? undefined : urls;
    }, z.array(z.string()).optional().describe('JSON: inputs by URL, in order.')),
    publish: ruledBy((_, all) => publishOf(all), z.record(z.string(), z.any()).optional().describe('Upload fields (user, platform[], title, …) to publish the output with; JSON text in a form.')),
  }),
  files: {
    file: { description: 'The input ({input}; also file0).', required: false },
    file1: { description: 'Further inputs file1, file2, … ({input1}, {input2}, …).', multiple: true },
  },
  responses: { 202: { description: 'Accepted.', schema: ok({ job_id: z.string(), status: z.literal('PENDING') }) } },
  errors: { 400: 'Missing input, unsafe or invalid command, unknown preset or extension (named).', 413: 'An input file is too large.', 429: 'Monthly media minutes used up.' },
  mcp: { files: { file: ['url', 'base64'] } },
});

export const listMediaJobs = operation({
  id: 'listMediaJobs', method: 'get', path: '/svc/ffmpeg/jobs', tags: ['media jobs'],
  summary: 'List media jobs',
  description: 'The account\'s media jobs, newest first (created_at, then job_id), with status and progress; use getMediaJob for one job. Page by `page` or, to walk every job, by `cursor` = the previous page\'s `next_cursor` (null on the last page): both cost the same on any page, and a cursor walk returns every job once even while new ones are submitted. Errors: 400 `invalid_cursor`.',
  auth: 'apiKey',
  query: z.object({
    page: clampedNumber(1, 1).describe('From 1; invalid values fall back to 1. Ignored with cursor.'),
    limit: clampedNumber(20, 1, 100).describe('1-100 (clamped), default 20.'),
    cursor: z.string().optional().describe('Cursor form: the next_cursor of the previous page (page is then ignored).'),
  }),
  responses: {
    200: {
      description: 'One page of jobs.',
      schema: ok({
        jobs: z.array(MediaJob), page: z.number(), limit: z.number(),
        total: z.number().describe('Jobs of the account.'), has_more: z.boolean(),
        next_cursor: z.string().nullable().describe('The cursor of the next page; null on the last page.'),
      }),
    },
  },
  errors: { 400: 'invalid_cursor: the cursor is not a next_cursor of this list.' },
});

export const getMediaConsumption = operation({
  id: 'getMediaConsumption', method: 'get', path: '/svc/ffmpeg/consumption', tags: ['media jobs'],
  summary: 'Media minutes used',
  description: 'Media-processing minutes used and left this month (the quota resets on the 1st, 00:00 UTC) and the month\'s jobs in `history`, newest first: the newest `limit` (default 100) of them; `consumption.total_requests` counts them all. The older ones by `cursor` = the previous answer\'s `next_cursor` (null when `history` holds the rest of the month); a cursor is valid within the month it was issued in. Errors: 400 `invalid_cursor`.',
  auth: 'apiKey',
  query: z.object({
    limit: ruledBy((v) => (v === undefined || typeof v === 'string' ? Number(v ?? CONSUMPTION_HISTORY_LIMIT) || CONSUMPTION_HISTORY_LIMIT : v), z.number().describe('History entries per answer, 1-1000 (clamped), default 100.')),
    cursor: z.string().optional().describe('The next_cursor of the previous answer: the month\'s next, older history entries.'),
  }),
  responses: {
    200: {
      description: 'The consumption record.',
      schema: ok({
        consumption: z.looseObject({
          used_minutes: z.number(), remaining_minutes: z.number(), quota_minutes: z.number(), usage_percentage: z.number(), total_requests: z.number(),
          current_month: z.string(), plan: z.string(),
        }),
        history: z.array(z.looseObject({ job_id: z.string(), duration_seconds: z.number(), duration_minutes: z.number(), timestamp: z.string(), month: z.string() })),
        quota_info: z.looseObject({}),
        has_more: z.boolean().describe('Older entries of the month follow (next_cursor).'),
        next_cursor: z.string().nullable().describe('The cursor of the month\'s older history entries; null when history holds the rest.'),
      }),
    },
  },
  errors: { 400: 'invalid_cursor: not a next_cursor of this month\'s history.' },
});

export const getMediaJob = operation({
  id: 'getMediaJob', method: 'get', path: '/svc/ffmpeg/jobs/{job_id}', tags: ['media jobs'],
  summary: 'Status of a media job',
  description: 'Status (PENDING, PROCESSING, FINISHED, ERROR), progress and billed minutes of a media job. When FINISHED, download it with downloadMediaJobOutput, or without the API key at `download_url` (signed, expiring). Errors: 404 `JOB_NOT_FOUND`.',
  auth: 'apiKey',
  params: JobParams,
  responses: { 200: { description: 'The job.', schema: ok(MediaJob.shape) } },
  errors: { 404: 'JOB_NOT_FOUND.' },
});

export const cancelMediaJob = operation({
  id: 'cancelMediaJob', method: 'delete', path: '/svc/ffmpeg/jobs/{job_id}', tags: ['media jobs'],
  summary: 'Cancel a media job',
  description: 'Cancels a job that has not ended; the unprocessed time is given back. Answers 202; the job ends as ERROR with cancelled: true. Errors: 404 `JOB_NOT_FOUND`, 409 `job_not_cancellable` once it ended.',
  auth: 'apiKey',
  params: JobParams,
  responses: { 202: { description: 'Cancelling.', schema: ok({ ...MediaJob.shape, cancel_requested: z.literal(true), message: z.string() }) } },
  errors: { 404: 'JOB_NOT_FOUND.', 409: 'job_not_cancellable: the job has ended.' },
});

export const downloadMediaJobOutput = operation({
  id: 'downloadMediaJobOutput', method: 'get', path: '/svc/ffmpeg/jobs/{job_id}/download', tags: ['media jobs'],
  summary: 'Download the output of a media job',
  description: 'The output file of a FINISHED job (Content-Disposition attachment output.<ext>); `Range` requests are answered 206. The job\'s `download_url` is this path with `exp` and `sig` in place of the API key: a forged, altered or expired link answers 403 `media_url_invalid`. Errors: 409 `job_not_finished`, 404 `output_expired`, 416 unsatisfiable range.',
  auth: 'apiKey',
  params: JobParams,
  responses: {
    200: { description: 'The file.', contentType: 'application/octet-stream', headers: { 'Content-Disposition': 'attachment; filename="output.<ext>"', 'Accept-Ranges': 'bytes' } },
    206: { description: 'The requested range.', contentType: 'application/octet-stream', headers: { 'Content-Range': 'bytes <start>-<end>/<size>' } },
  },
  errors: { 403: 'media_url_invalid: a download_url forged, altered or expired.', 404: 'JOB_NOT_FOUND, or output_expired.', 409: 'job_not_finished.', 416: 'range_not_satisfiable.' },
  mcp: { binaryResponse: true },
});

export const mediaJobOperations = [submitMediaJob, listMediaJobs, getMediaConsumption, getMediaJob, cancelMediaJob, downloadMediaJobOutput];
