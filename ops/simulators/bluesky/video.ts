/** The video service's XRPC methods: getUploadLimits, uploadVideo, getJobStatus (jobs finish after `processingMs`). */
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { sendJson, type SimRequest } from '../kit/http';
import type { createBlueskyAuth } from './auth';
import { BLUESKY_SIM_VIDEO_SERVICE_DID, type BlueskyFailureMode } from './failures';
import { DAILY_VIDEO_BYTES, DAILY_VIDEOS, VIDEO_BLOB_MAX_BYTES, type BlueskyState, type Job } from './state';
import { cidOf, invalidRequest, param, XrpcError } from './xrpc';

export function createBlueskyVideo(s: BlueskyState, auth: ReturnType<typeof createBlueskyAuth>) {
  const { seeded, processingMs, blobs, jobs, usage, pdsDid } = s;
  const { authenticateService } = auth;
  let jobSeq = 0;

  const usageOf = (did: string) => usage.get(did) ?? { videos: 0, bytes: 0 };

  function jobView(job: Job) {
    const elapsed = Date.now() - job.createdAt;
    if (job.fails && elapsed >= processingMs) {
      job.state = 'JOB_STATE_FAILED';
      return {
        jobId: job.jobId, did: job.did, state: job.state,
        error: 'Video could not be encoded', failureCode: 'encoding_failure', message: 'The video could not be processed.',
      };
    }
    if (elapsed < processingMs) {
      job.state = 'JOB_STATE_ENCODING';
      return { jobId: job.jobId, did: job.did, state: job.state, progress: Math.min(99, Math.floor((elapsed / processingMs) * 100)) };
    }
    // The service stores the re-encoded MP4 (within the embed's size limit) in the user's repo, as uploadBlob would.
    const size = Math.min(job.size, VIDEO_BLOB_MAX_BYTES);
    if (!job.blobCid) {
      job.blobCid = cidOf(0x55, `processed:${job.hash}`);
      blobs.set(`${job.did} ${job.blobCid}`, { did: job.did, cid: job.blobCid, mimeType: 'video/mp4', size });
    }
    job.state = 'JOB_STATE_COMPLETED';
    return { jobId: job.jobId, did: job.did, state: job.state, progress: 100, blob: { $type: 'blob', ref: { $link: job.blobCid }, mimeType: 'video/mp4', size } };
  }

  function video(nsid: string, req: SimRequest, res: ServerResponse, verdict: BlueskyFailureMode | undefined): void {
    switch (nsid) {
      case 'app.bsky.video.getUploadLimits': {
        const account = authenticateService(req, BLUESKY_SIM_VIDEO_SERVICE_DID, 'app.bsky.video.getUploadLimits');
        const used = usageOf(account.did);
        if (!account.emailConfirmed) {
          return sendJson(res, 200, {
            canUpload: false, remainingDailyVideos: 0, remainingDailyBytes: 0, error: 'unconfirmed_email', message: 'Please confirm your email address to upload videos.',
          });
        }
        if (verdict === 'video_daily_limit') {
          return sendJson(res, 200, { canUpload: false, remainingDailyVideos: 0, remainingDailyBytes: 0, message: 'You have reached your daily limit for video uploads.' });
        }
        const remainingDailyVideos = Math.max(0, DAILY_VIDEOS - used.videos);
        const remainingDailyBytes = Math.max(0, DAILY_VIDEO_BYTES - used.bytes);
        return sendJson(res, 200, { canUpload: remainingDailyVideos > 0 && remainingDailyBytes > 0, remainingDailyVideos, remainingDailyBytes });
      }
      case 'app.bsky.video.uploadVideo': {
        const account = authenticateService(req, pdsDid(), 'com.atproto.repo.uploadBlob');
        if (param(req, 'did') !== account.did) throw invalidRequest('did does not match the service token issuer');
        const name = param(req, 'name');
        if (req.body.kind !== 'binary' || !req.body.data.length) throw invalidRequest('Request body must be the video bytes');
        if (!req.body.contentType.startsWith('video/')) throw invalidRequest(`Unsupported content type ${req.body.contentType || '(none)'}`);
        // The live service wraps this one verdict in jobStatus and answers its other job statuses bare.
        if (!account.emailConfirmed || verdict === 'unconfirmed_email') {
          return sendJson(res, 400, { jobStatus: { did: '', error: 'unconfirmed_email', jobId: '', state: '' } });
        }
        const { data } = req.body;
        const used = usageOf(account.did);
        if (used.videos >= DAILY_VIDEOS || used.bytes + data.length > DAILY_VIDEO_BYTES) {
          const reset = Math.floor(Date.now() / 1000) + 86400;
          throw new XrpcError(429, 'RateLimitExceeded', 'Daily video upload limit reached',
            { 'ratelimit-limit': String(DAILY_VIDEOS), 'ratelimit-remaining': '0', 'ratelimit-reset': String(reset) });
        }
        const hash = createHash('sha256').update(data).digest('hex');
        const existing = [...jobs.values()].find((j) => j.did === account.did && j.hash === hash && !j.fails);
        if (existing) {
          return sendJson(res, 409, { did: account.did, jobId: existing.jobId, state: jobView(existing).state, error: 'already_exists', message: 'Video already processed' });
        }
        const jobId = `${seeded('job').toString('hex').slice(0, 16)}${(++jobSeq).toString(16).padStart(4, '0')}`;
        const job: Job = {
          jobId, did: account.did, name, size: data.length, state: 'JOB_STATE_CREATED', createdAt: Date.now(), hash, fails: verdict === 'video_processing_failed',
        };
        jobs.set(jobId, job);
        usage.set(account.did, { videos: used.videos + 1, bytes: used.bytes + data.length });
        return sendJson(res, 200, { did: account.did, jobId, state: job.state });
      }
      case 'app.bsky.video.getJobStatus': {
        const job = jobs.get(param(req, 'jobId'));
        if (!job) throw new XrpcError(404, 'NotFound', 'Job not found');
        return sendJson(res, 200, { jobStatus: jobView(job) });
      }
      default:
        throw new XrpcError(501, 'MethodNotImplemented', `Method Not Implemented: ${nsid}`);
    }
  }

  return { video };
}
