/**
 * Videos through the video service (docs.bsky.app/docs/tutorials/video): getServiceAuth →
 * uploadVideo → getJobStatus, polled with wait steps, then the post with the processed blob.
 */
import type { MediaRef, PublishContext, PublishStep } from '../../../core/ports/platform';
import { collectAll, isObject, str, type Json } from '../kit/http';
import type { BlueskyClient } from './client';
import { VIDEO_TYPES, type PostPlan } from './plan';
import type { BlueskyRecords } from './records';
import type { Session, StrongRef } from './session';

const SERVICE_TOKEN_LIFETIME_S = 30 * 60;

/** The state between two polls of a video job (plain JSON, kept by the workflow). */
export interface VideoState { phase: 'video_processing'; jobId: string; quote: StrongRef | null; startedAt: string }

export interface BlueskyVideoOptions {
  videoBase: string;
  /** The video service's DID, the audience of its service-auth tokens. */
  videoServiceDid: string;
  videoPollMs: number;
  /** A video still processing after this long fails as transient. */
  videoMaxProcessingMs: number;
}

export interface BlueskyVideo {
  start(ctx: PublishContext, session: Session, plan: PostPlan, quote: StrongRef | undefined): Promise<PublishStep>;
  resume(ctx: PublishContext, session: Session, plan: PostPlan, state: VideoState): Promise<PublishStep>;
}

export const aspectRatio = (ref: MediaRef) =>
  (ref.info?.width && ref.info?.height ? { aspectRatio: { width: ref.info.width, height: ref.info.height } } : {});

const jobStatusOf = (body: Json): Json => (isObject(body.jobStatus) ? body.jobStatus : body);

export function createBlueskyVideo(client: BlueskyClient, records: BlueskyRecords, opts: BlueskyVideoOptions): BlueskyVideo {
  const { videoBase, videoServiceDid } = opts;

  async function serviceToken(session: Session, aud: string, lxm: string, signal?: AbortSignal): Promise<string> {
    const exp = String(Math.floor(client.now().getTime() / 1000) + SERVICE_TOKEN_LIFETIME_S);
    const { status, body } = await client.xrpc(session.service, 'com.atproto.server.getServiceAuth', {
      method: 'GET', query: { aud, lxm, exp }, token: session.accessJwt, signal,
    });
    const token = str(body.token);
    if (!token) throw client.failure({ kind: 'malformed', status, what: 'a service token' });
    return token;
  }

  const videoEmbed = (plan: PostPlan, blob: Json): Json =>
    ({ $type: 'app.bsky.embed.video', video: blob, ...(plan.alts[0] ? { alt: plan.alts[0] } : {}), ...aspectRatio(plan.video!) });

  /** Finishes the post once the job completed; otherwise asks to be resumed later. */
  async function poll(ctx: PublishContext, session: Session, plan: PostPlan, state: VideoState, job: Json): Promise<PublishStep> {
    if (job.state === 'JOB_STATE_COMPLETED' && isObject(job.blob)) {
      return { kind: 'done', outcome: await records.createPosts(session, plan, [videoEmbed(plan, job.blob)], state.quote ?? undefined, ctx.signal) };
    }
    if (job.state === 'JOB_STATE_FAILED') {
      throw client.failure({ kind: 'video_job', error: str(job.error), failureCode: str(job.failureCode), message: str(job.message) });
    }
    const waitedMs = client.now().getTime() - Date.parse(state.startedAt);
    if (waitedMs > opts.videoMaxProcessingMs) throw client.failure({ kind: 'video_stalled', jobId: state.jobId, waitedMs });
    return { kind: 'wait', afterMs: opts.videoPollMs, state: { ...state } };
  }

  /**
   * Email and daily quota are checked first so nothing large is sent in vain, then the bytes with
   * a service token for the PDS (the service stores the processed blob there on the user's behalf).
   */
  async function start(ctx: PublishContext, session: Session, plan: PostPlan, quote: StrongRef | undefined): Promise<PublishStep> {
    const video = plan.video!;
    if (ctx.credentials.email_confirmed !== 'true') {
      // Stored at connect time; the email may have been confirmed since, so ask before refusing.
      const { body } = await client.xrpc(session.service, 'com.atproto.server.getSession', { method: 'GET', token: session.accessJwt, signal: ctx.signal });
      if (body.emailConfirmed !== true) {
        throw client.failure({ kind: 'video_job', error: 'unconfirmed_email', message: 'the account email is not verified' });
      }
    }
    const limitsToken = await serviceToken(session, videoServiceDid, 'app.bsky.video.getUploadLimits', ctx.signal);
    const { body: limits } = await client.xrpc(videoBase, 'app.bsky.video.getUploadLimits', { method: 'GET', token: limitsToken, signal: ctx.signal });
    const videosLeft = typeof limits.remainingDailyVideos === 'number' ? limits.remainingDailyVideos : Infinity;
    const bytesLeft = typeof limits.remainingDailyBytes === 'number' ? limits.remainingDailyBytes : Infinity;
    if (limits.canUpload !== true || videosLeft < 1 || bytesLeft < video.size) {
      throw client.failure({ kind: 'upload_limits', limits, videoBytes: video.size });
    }

    const pdsDid = `did:web:${encodeURIComponent(new URL(session.service).host)}`;
    const uploadToken = await serviceToken(session, pdsDid, 'com.atproto.repo.uploadBlob', ctx.signal);
    const data = await collectAll(ctx.media.read(video.id));
    const name = `${video.id.slice(0, 16)}.${VIDEO_TYPES[video.contentType]}`;
    const { status, body } = await client.xrpc(videoBase, 'app.bsky.video.uploadVideo', {
      method: 'POST', query: { did: session.did, name }, token: uploadToken, signal: ctx.signal,
      bytes: { data, contentType: video.contentType },
      // The same bytes sent again (a retried step) answer already_exists with the earlier job.
      accept: (_status, b) => isObject(b) && jobStatusOf(b).error === 'already_exists' && !!str(jobStatusOf(b).jobId),
    });
    const job = jobStatusOf(body);
    const jobId = str(job.jobId);
    if (job.error && job.error !== 'already_exists') {
      throw client.failure({ kind: 'video_job', error: str(job.error), failureCode: str(job.failureCode), message: str(job.message) }, client.uploadTimeoutMs);
    }
    if (!jobId) throw client.failure({ kind: 'malformed', status, what: 'a video job id' }, client.uploadTimeoutMs);
    const state: VideoState = { phase: 'video_processing', jobId, quote: quote ?? null, startedAt: client.now().toISOString() };
    return poll(ctx, session, plan, state, job);
  }

  async function resume(ctx: PublishContext, session: Session, plan: PostPlan, state: VideoState): Promise<PublishStep> {
    const { body } = await client.xrpc(videoBase, 'app.bsky.video.getJobStatus', { method: 'GET', query: { jobId: state.jobId }, signal: ctx.signal });
    return poll(ctx, session, plan, state, jobStatusOf(body));
  }

  return { start, resume };
}
