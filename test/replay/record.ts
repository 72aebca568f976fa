/**
 * Records the replay tier's histories: every workflow run for real on the Temporal dev server, by
 * an in-process worker on its own task queue with the real activities over in-memory storage and
 * fake networks (test/support/fake-platform), so each scenario is driven exactly and in seconds.
 * Each history is written to test/replay/histories/<label>/<scenario>.json (label: the current
 * commit, or --label). Run by hand after a workflow change, never in CI:
 *
 *     npx tsc -p tsconfig.json && node dist/test/replay/record.js [--label <name>] [scenario ...]
 *
 * Histories recorded by older code stay committed as long as runs of that code can be in flight
 * (a scheduled post can wait a year): the replay test replays them all against today's bundle.
 */
import { NETWORK_IMPRESSIONS } from '../../adapters/platforms';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { HeraldError, PlatformError, type PlatformFailure } from '../../core/domain/errors';
import type { Platform } from '../../core/domain/platforms';
import type { UploadRequest } from '../../core/domain/upload';
import type { ConnectedAccount } from '../../core/domain/connected-account';
import type { MediaRef } from '../../core/domain/media';
import type { PlatformAdapter } from '../../core/ports/platform';
import { DEFAULT_UPLOAD_TIMING } from '../../core/ports/upload-runner';
import { workflowIds } from '../../core/ports/workflow-names';
import { createMemoryStorage } from '../../adapters/memory/storage';
import { createMemoryNotifier } from '../../adapters/memory/notifications/notifier';
import { createAesSecretBox, systemClock } from '../../adapters/crypto/node-crypto';
import { createPlatformRegistry } from '../../adapters/platforms/registry';
import { createTemporalUploadRunner } from '../../adapters/temporal/upload-runner';
import { createTemporalAccountPauses } from '../../adapters/temporal/account-pauses';
import { createTemporalCheckpointProbes } from '../../adapters/temporal/checkpoint-probes';
import { createUploadActivities } from '../../workflows/activities/upload';
import { createAccountPauseActivities } from '../../workflows/activities/account-pause';
import { createCheckpointProbeActivities } from '../../workflows/activities/checkpoint-probe';
import { createConnectionRefreshActivities } from '../../workflows/activities/connection-refresh';
import { createTemporalConnectionRefreshes } from '../../adapters/temporal/connection-refreshes';
import { fakeTextPlatform } from '../support/fake-platform';
import { noMedia } from '../support/media-access';
import { aConnectedAccount, anOperator, anUpload, aProfile, sealedCredentialsOf } from '../support/mothers';
import { historyToJSON } from './history-json';
import { createMemoryNotificationStorage } from '../../adapters/memory/notifications';
import { webhookCrypto } from '../../adapters/notifications/signature';
import { createTemporalNotificationChannelQueue } from '../../adapters/temporal/notification-channels';
import { createNotificationActivities } from '../../workflows/activities/notifications';
import type { NotificationSenders, SendOutcome } from '../../core/ports/notification-channels';
import { anUploadCompletedEvent } from '../support/mothers';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Readable } from 'node:stream';
import { createLocalMediaStore } from '../../adapters/media/local-store';
import { createFfmpegProcessor } from '../../adapters/media/ffmpeg-processor';
import { createFfprobe } from '../../adapters/media/ffprobe';
import { createMemoryMediaJobs } from '../../adapters/memory/media-jobs';
import { createMemoryMediaUsage } from '../../adapters/memory/media-usage';
import { createTemporalMediaJobRunner } from '../../adapters/temporal/media-jobs';
import { createMediaJobActivities } from '../../workflows/activities/media-job';
import { parseCommandTemplate } from '../../core/domain/ffmpeg-command';
import { submitMediaJob } from '../../core/usecases/media-jobs';
import { sha256KeyHasher } from '../../adapters/crypto/node-crypto';
import { fakeAnalytics } from '../support/fake-analytics';
import { createMemoryAnalyticsSnapshots, createMemoryPostMetricsCaptures } from '../../adapters/memory/analytics-history';
import { createAnalyticsSnapshotActivities } from '../../workflows/activities/analytics-snapshots';
import { createTemporalAnalyticsSnapshots } from '../../adapters/temporal/analytics-snapshots';
import { SEALED_FIELDS } from '../../core/domain/sealed-fields';

const BUILT = path.resolve(__dirname, '../..');
/** The worktree (this file runs from dist/). */
const ROOT = path.basename(BUILT) === 'dist' ? path.dirname(BUILT) : BUILT;
const HISTORIES = path.join(ROOT, 'test/replay/histories');
const ACCOUNT = 'acct-replay';
const PROFILE = 'replay';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const inMs = (ms: number) => new Date(Date.now() + ms);

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not seen in ${timeoutMs} ms`);
    await sleep(200);
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const labelAt = args.indexOf('--label');
  const label = labelAt >= 0 ? args.splice(labelAt, 2)[1]! : execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT }).toString().trim();
  const only = new Set(args);

  const address = process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233';
  const namespace = process.env.TEMPORAL_NAMESPACE ?? 'default';
  const taskQueue = `herald-replay-record-${randomBytes(4).toString('hex')}`;
  const connection = await Connection.connect({ address });
  const client = new Client({ connection, namespace, identity: 'herald-replay-recorder' });

  // The networks: one fake per scenario, so each one's failures and waits are its own.
  const fakes = {
    discord: fakeTextPlatform('discord'),
    x: fakeTextPlatform('x'),
    telegram: fakeTextPlatform('telegram'),
    threads: fakeTextPlatform('threads'),
    linkedin: fakeTextPlatform('linkedin', { endpoints: ['text', 'photo'] }),
    facebook: fakeTextPlatform('facebook'),
    instagram: fakeTextPlatform('instagram'),
    youtube: fakeTextPlatform('youtube'),
    pinterest: fakeTextPlatform('pinterest'),
    mastodon: fakeTextPlatform('mastodon'),
    tiktok: fakeTextPlatform('tiktok'),
  };
  // Refresh-ahead: tokens living 3 s, renewed twice, then the refresh token is refused.
  let tiktokRefreshes = 0;
  const tiktok: PlatformAdapter = {
    ...fakes.tiktok.adapter,
    refresher: {
      async refresh(credentials) {
        tiktokRefreshes += 1;
        if (tiktokRefreshes > 2) throw new PlatformError('tiktok', { kind: 'auth_expired', reason: 'invalid_grant' }, 'refresh token revoked');
        return { ...credentials, access_token: `at-${tiktokRefreshes}`, expires_at: inMs(3000).toISOString() };
      },
    },
  };
  let probes = 0;
  const instagram: PlatformAdapter = {
    ...fakes.instagram.adapter,
    probe: {
      async probe() {
        probes += 1;
        if (probes === 1) throw new PlatformError('instagram', { kind: 'checkpoint' }, 'still checkpointed');
      },
    },
  };
  // Restriction verdicts end a fixed time after the network gives them, however long the run took to get there.
  const verdicts = new Map<Platform, Array<() => { failure: PlatformFailure; message: string }>>();
  const verdictAtCallTime = (adapter: PlatformAdapter): PlatformAdapter => ({
    ...adapter,
    publisher: {
      ...adapter.publisher!,
      async publish(ctx, post) {
        const next = verdicts.get(adapter.descriptor.id)?.shift();
        if (next) {
          const { failure, message } = next();
          throw new PlatformError(adapter.descriptor.id, failure, message);
        }
        return adapter.publisher!.publish(ctx, post);
      },
    },
  });
  const restricted = (platform: Platform, afterMs: number, message: string, extra: Partial<PlatformFailure> = {}) =>
    verdicts.set(platform, [...(verdicts.get(platform) ?? []), () => ({ failure: { kind: 'restricted', reason: 'rate_limited', until: inMs(afterMs), ...extra } as PlatformFailure, message })]);
  const platforms = createPlatformRegistry([
    ...Object.values(fakes).map((f) => f.adapter).filter((a) => !['instagram', 'tiktok'].includes(a.descriptor.id)).map(verdictAtCallTime), instagram, tiktok,
  ]);

  const storage = createMemoryStorage();
  // A storage failure after the network answered: the call inside the workflow task fails as a whole.
  const failResultOf = new Set<string>();
  const recordResult = storage.uploads.recordResult.bind(storage.uploads);
  storage.uploads.recordResult = async (accountId, requestId, ...rest) => {
    if (failResultOf.delete(requestId)) throw new Error('storage unavailable (recorder-injected)');
    return recordResult(accountId, requestId, ...rest);
  };
  const secrets = createAesSecretBox(randomBytes(32).toString('base64'));
  const pauses = createTemporalAccountPauses(client, { taskQueue });
  const checkpointProbes = createTemporalCheckpointProbes(client, { taskQueue, intervalMs: 1000 });
  const refreshes = createTemporalConnectionRefreshes(client, { taskQueue, timing: { marginMs: 2000, minPeriodMs: 500, retryMs: 500, blockedAfterMs: 2000 } });
  const timing = { ...DEFAULT_UPLOAD_TIMING, transientBackoffMs: 500 };
  const runner = createTemporalUploadRunner(client, { taskQueue, timing });
  const mediaFetcher = {
    async fetch(url: string, field: string): Promise<MediaRef> {
      if (url.includes('missing')) throw new HeraldError('invalid_input', `${field}: ${url} answered 404.`, 'media_fetch_failed');
      return { id: `media-${randomBytes(4).toString('hex')}`, kind: 'image', contentType: 'image/jpeg', size: 2048, info: { durationSeconds: null, width: 1080, height: 1080, frameRate: null, videoCodec: null, audioCodec: null, container: null } };
    },
    async vet() {},
  };

  // Notifications: a webhook receiver scripted per attempt (true = 2xx), a breaker of 2 failures and 3 s.
  const notifyStorage = createMemoryNotificationStorage();
  const receiverAnswers: boolean[] = [];
  const answer = (to: string): SendOutcome => {
    // The scripted answers are the breaker scenario's; other receivers accept.
    const ok = to.includes('/moved') ? true : receiverAnswers.shift() ?? true;
    return { ok, target: to, statusCode: ok ? 200 : 500, latencyMs: 1, error: ok ? null : 'HTTP 500', response: ok ? 'ok' : 'down' };
  };
  const senders: NotificationSenders = {
    webhook: async (req) => answer(req.url), telegramConfigured: true, telegram: async (chat) => answer(chat), slack: async (url) => answer(url),
  };
  const notificationDeps = {
    storage, notifications: notifyStorage, senders, guard: { vet: async () => {} }, crypto: webhookCrypto, secrets,
    ids: { next: (prefix?: string) => `${prefix ?? 'id'}_${randomBytes(6).toString('hex')}` }, clock: systemClock, retentionMs: 3600_000,
  };
  const channels = createTemporalNotificationChannelQueue(client, { taskQueue, timing: { failureThreshold: 2, pauseMs: 3000, receiverTimeoutMs: 5000, heartbeatTimeoutMs: 5000, idleMs: 1000 } });

  // Media jobs: real ffmpeg over a scratch media store, on the recorder's media task queue (its own
  // worker and bundle, as the `media` pool runs them); outputs expire 2 s after the job ends.
  const mediaQueue = `${taskQueue}-media`;
  const mediaRoot = mkdtempSync(path.join(tmpdir(), 'herald-replay-media-'));
  const mediaStore = createLocalMediaStore(path.join(mediaRoot, 'store'));
  const mediaJobs = createMemoryMediaJobs();
  const mediaUsage = createMemoryMediaUsage();
  const processor = createFfmpegProcessor({ store: mediaStore, pathOf: mediaStore.pathOf, scratchRoot: path.join(mediaRoot, 'scratch') });
  const mediaRunner = createTemporalMediaJobRunner(client, { taskQueue: mediaQueue, timing: { timeLimitMs: 120_000, heartbeatTimeoutMs: 10_000, outputTtlMs: 2000, maxAttempts: 3 } });
  const mediaIds = { next: (prefix = 'id') => `${prefix}_${randomBytes(6).toString('hex')}` };
  const testClip = (): Buffer => {
    const file = path.join(mediaRoot, `clip-${randomBytes(4).toString('hex')}.mp4`);
    execFileSync('ffmpeg', [
      '-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=25:duration=2', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=2',
      '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', '-movflags', '+faststart', file,
    ]);
    return readFileSync(file);
  };
  const mediaJob = async (template: string, outputExtension: string) => {
    const clip = await mediaStore.put(Readable.from([testClip()]), { contentType: 'video/mp4' });
    const job = await submitMediaJob({ mediaJobs, mediaUsage, processor, runner: mediaRunner, ids: mediaIds, clock: systemClock },
      (await storage.operators.findById(ACCOUNT))!, { command: parseCommandTemplate(template, 1), inputs: [{ id: clip.id, size: clip.size, contentType: 'video/mp4' }], outputExtension });
    return { job, handle: client.workflow.getHandle(workflowIds.mediaJob(job.id)) };
  };
  /** Runs one job to its end and checks how it ended (the workflow's result and the job's status). */
  const mediaJobEnding = async (name: string, template: string, expected: 'finished' | 'error') => {
    const { job, handle } = await mediaJob(template, 'mp4');
    const outcome: unknown = await handle.result();
    const done = await mediaJobs.find(job.accountId, job.id);
    if (outcome !== expected || done?.status !== (expected === 'finished' ? 'FINISHED' : 'ERROR')) throw new Error(`${name}: the job ended ${String(outcome)} / ${done?.status}`);
    return { [name]: handle.workflowId };
  };

  await storage.operators.insert(anOperator({ id: ACCOUNT, plan: 'business', email: 'replay@herald.dev' }));
  await storage.profiles.insert(aProfile({ accountId: ACCOUNT, username: PROFILE }));
  const connections = {} as Record<keyof typeof fakes, ConnectedAccount>;
  for (const platform of Object.keys(fakes) as Array<keyof typeof fakes>) {
    connections[platform] = await storage.connectedAccounts.upsert(aConnectedAccount({
      id: `conn-replay-${platform}`, accountId: ACCOUNT, profileUsername: PROFILE, platform,
      sealedCredentials: sealedCredentialsOf(secrets, { accountId: ACCOUNT, profileUsername: PROFILE, platform }, { secret: 'good' }),
    }));
  }

  // Analytics snapshots: instagram and x measure their accounts (fake capability), a page of one connection per activity.
  const snapshots = createMemoryAnalyticsSnapshots(NETWORK_IMPRESSIONS);
  const snapshotDeps = {
    storage, secrets, clock: systemClock, snapshots, captures: createMemoryPostMetricsCaptures(), retentionMs: 3600_000,
    platforms: createPlatformRegistry([fakeAnalytics('instagram').on(fakes.instagram.adapter), fakeAnalytics('x').on(fakes.x.adapter)]),
  };
  const snapshotSchedule = createTemporalAnalyticsSnapshots(client, { taskQueue });

  const upload = (platform: Platform, over: Partial<UploadRequest> = {}): UploadRequest => {
    const title = `replay ${platform} ${new Date().toISOString()}`;
    return anUpload({
      accountId: ACCOUNT, profileUsername: PROFILE, content: { title },
      targets: [{ platform, connectedAccountId: connections[platform as keyof typeof fakes].id, title, settings: {} }],
      createdAt: new Date(), updatedAt: new Date(), ...over,
    });
  };
  const started = async (u: UploadRequest): Promise<WorkflowHandle> => {
    await storage.uploads.insert(u);
    await runner.start(u);
    return client.workflow.getHandle(workflowIds.upload(u.accountId, u.requestId));
  };
  const timerStarted = (handle: WorkflowHandle) => until(`a timer of ${handle.workflowId}`, async () =>
    ((await handle.fetchHistory()).events ?? []).some((e) => e.timerStartedEventAttributes) ? true : undefined);
  const resultOf = async (u: UploadRequest) => (await storage.uploads.find(u.accountId, u.requestId))!;

  /** Each scenario runs its workflows to the end and returns the workflow ids to record, by name. */
  const scenarios: Record<string, () => Promise<Record<string, string>>> = {
    async 'upload-immediate'() {
      const u = upload('discord', { async: false });
      const handle = await started(u);
      await handle.result();
      return { 'upload-immediate': handle.workflowId };
    },

    async 'upload-scheduled-rescheduled'() {
      // Scheduled an hour ahead, then edited to a few seconds ahead: the reschedule signal moves the timer.
      const u = upload('discord', { status: 'scheduled', jobId: 'job-replay-scheduled', scheduledFor: inMs(3600_000), timezone: 'UTC' });
      const handle = await started(u);
      await timerStarted(handle);
      const moved = { ...u, scheduledFor: inMs(3000) };
      await storage.uploads.updateScheduled(u.accountId, u.requestId, { scheduledFor: moved.scheduledFor, timezone: 'UTC', content: u.content, targets: u.targets, fields: {} }, new Date());
      await runner.reschedule(moved);
      await handle.result();
      return { 'upload-scheduled-rescheduled': handle.workflowId };
    },

    async 'upload-queued-capped-cancelled'() {
      // A queued post due in a few seconds on an account at its daily cap (threads: 50): moved to
      // the next day when due, then cancelled while it waits again.
      for (let i = 0; i < 50; i += 1) {
        await storage.uploads.insert(upload('threads', { status: 'completed', createdAt: inMs(-3600_000 + i * 1000) }));
      }
      const slot = inMs(3000);
      const u = upload('threads', { status: 'scheduled', jobId: 'job-replay-queued', scheduledFor: slot, queueSlot: slot, timezone: 'UTC' });
      const handle = await started(u);
      await until('the capped post to move', async () => ((await resultOf(u)).scheduledFor!.getTime() > slot.getTime() ? true : undefined));
      await storage.uploads.cancelScheduled(u.accountId, u.requestId, new Date());
      await runner.cancel(u);
      await handle.result();
      return { 'upload-queued-capped-cancelled': handle.workflowId };
    },

    async 'upload-multi-step'() {
      // The network answers `wait` twice (processing), then publishes.
      fakes.telegram.setProcessingSteps(2);
      const handle = await started(upload('telegram'));
      await handle.result();
      return { 'upload-multi-step': handle.workflowId };
    },

    async 'upload-inline-call-fails'() {
      // A text post's first call runs inside the workflow task; it fails after the network answered
      // (storing the result failed), so the regular activity runs it again and warns it was sent again.
      const u = upload('telegram');
      failResultOf.add(u.requestId);
      const handle = await started(u);
      await handle.result();
      const result = (await resultOf(u)).results.telegram;
      if (!result?.success || !result.warnings.some((w) => w.includes('interrupted'))) {
        throw new Error(`the fallback did not publish with the interruption warning: ${JSON.stringify(result)}`);
      }
      return { 'upload-inline-call-fails': handle.workflowId };
    },

    async 'upload-two-targets'() {
      // Two targets: each target's first call inline, then the regular finish (the single-target step does not apply).
      const base = upload('discord');
      const second = upload('telegram');
      const handle = await started({ ...base, targets: [...base.targets, ...second.targets] });
      await handle.result();
      return { 'upload-two-targets': handle.workflowId };
    },

    async 'upload-retry-rounds'() {
      // A rate limit (network's delay), then a transient failure (backoff), then the post.
      fakes.x.failNext({ kind: 'rate_limited', retryAfterMs: 1000 });
      fakes.x.failNext({ kind: 'transient' });
      const handle = await started(upload('x'));
      await handle.result();
      return { 'upload-retry-rounds': handle.workflowId };
    },

    async 'upload-url-media'() {
      // Asynchronous requests with URL media: fetched first, then published; a missing file ends the post unpublished.
      const media = (url: string): MediaRef[] => [{ id: '', kind: 'image', contentType: '', size: 0, source: { url, field: 'photos[]' } }];
      const fetched = await started(upload('linkedin', { mediaType: 'photo', content: { title: 'url media', media: media('https://media.example/ok.jpg') } }));
      const missing = await started(upload('linkedin', { mediaType: 'photo', content: { title: 'url media', media: media('https://media.example/missing.jpg') } }));
      await Promise.all([fetched.result(), missing.result()]);
      return { 'upload-url-media': fetched.workflowId, 'upload-url-media-missing': missing.workflowId };
    },

    async 'upload-retry-after-pause'() {
      // youtube_channel_daily_limit ("paused 2 hours, then retried"), here a few seconds: the post
      // waits for the pause to end and goes out; a second verdict on the retry fails it for good.
      const dailyLimit = { reason: 'daily_upload_limit', code: 'youtube_channel_daily_limit', retryAfterPause: true };
      restricted('youtube', 4000, 'YouTube: the channel reached its daily upload limit.', dailyLimit);
      const u = upload('youtube');
      restricted('pinterest', 4000, 'over the limit', dailyLimit);
      restricted('pinterest', 4000, 'still over the limit', dailyLimit);
      const twice = upload('pinterest');
      const [retried, failed] = await Promise.all([started(u), started(twice)]);
      await Promise.all([retried.result(), failed.result()]);
      const published = (await resultOf(u)).results.youtube;
      if (!published?.success) throw new Error(`the post was not published after the pause: ${JSON.stringify(published)}`);
      const refused = (await resultOf(twice)).results.pinterest;
      if (refused?.error_code !== 'youtube_channel_daily_limit') throw new Error(`a second verdict did not fail the post: ${JSON.stringify(refused)}`);
      // The pauses these verdicts started end too, so no run is left behind on the server.
      await Promise.all([connections.youtube, connections.pinterest].map((c) => client.workflow.getHandle(workflowIds.accountPause(c.id)).result()));
      return { 'upload-retry-after-pause': retried.workflowId, 'upload-retry-after-pause-second-verdict': failed.workflowId };
    },

    async 'account-pause-moved'() {
      // A restriction verdict starts the pause; a second verdict moves its end; the pause lifts.
      restricted('facebook', 8000, 'facebook: too many calls');
      const handle = await started(upload('facebook'));
      await handle.result();
      const pause = client.workflow.getHandle(workflowIds.accountPause(connections.facebook.id));
      await timerStarted(pause);
      const later = { reason: 'rate_limited', until: inMs(10_000) };
      await storage.connectedAccounts.setRestriction(connections.facebook.id, later, new Date());
      await pauses.paused(connections.facebook, later);
      await pause.result();
      return { 'upload-restricted': handle.workflowId, 'account-pause-moved': pause.workflowId };
    },

    async 'webhook-channel-breaker'() {
      // Two failures open the breaker, the third delivery is skipped; after the pause one success
      // closes it; idle, the run ends.
      await notifyStorage.settings.save({
        accountId: ACCOUNT, channels: { webhook: true, telegram: false, slack: false }, webhookUrl: 'https://receiver.example.test/hook', telegramChatId: null,
        sealedSlackWebhookUrl: null, sealedWebhookSecret: secrets.seal('whsec_replay', SEALED_FIELDS.webhookSecret(ACCOUNT)), webhookEvents: null, updatedAt: new Date(),
      });
      const channel = `${ACCOUNT}:webhook`;
      receiverAnswers.push(false, false, true);
      for (let i = 0; i < 4; i += 1) await notifyStorage.outbox.emit(anUploadCompletedEvent({ account_id: ACCOUNT, title: `event ${i}` }), `replay-event-${i}`);
      const delivery = (i: number) => ({ deliveryId: webhookCrypto.deliveryId(`replay-event-${i}`, channel), eventKey: `replay-event-${i}` });
      await channels.enqueue(channel, [delivery(0), delivery(1)]);
      await channels.enqueue(channel, [delivery(2)]);
      // A delivery handed twice is dropped.
      await channels.enqueue(channel, [delivery(0)]);
      await until('the breaker half-open after its pause', async () => ((await channels.breaker!(channel))?.state === 'half_open' ? true : undefined));
      await channels.enqueue(channel, [delivery(3)]);
      const handle = client.workflow.getHandle(workflowIds.notificationChannel(channel));
      await handle.result();
      const outcomes = (await notifyStorage.deliveries.list({ accountId: ACCOUNT, page: 1, limit: 50 })).items.filter((r) => r.channel === 'webhook').map((r) => r.outcome).reverse();
      if (outcomes.join() !== 'failed,failed,skipped,delivered') throw new Error(`unexpected delivery outcomes ${outcomes.join()}`);
      return { 'webhook-channel-breaker': handle.workflowId };
    },

    async 'checkpoint-probe'() {
      // A checkpoint verdict flags the account; the probe finds it once more, then cleared.
      fakes.instagram.failNext({ kind: 'checkpoint' }, 'instagram: checkpoint required');
      const handle = await started(upload('instagram'));
      await handle.result();
      const probe = client.workflow.getHandle(workflowIds.checkpointProbe(connections.instagram.id));
      const outcome: unknown = await probe.result();
      if (outcome !== 'cleared') throw new Error(`checkpoint probe ended ${String(outcome)}`);
      return { 'checkpoint-probe': probe.workflowId };
    },

    async 'account-pause-ended'() {
      // A restriction verdict starts a long pause; a reconnect (signal pauseEnded) ends it at once.
      restricted('mastodon', 600_000, 'mastodon: too many calls');
      const handle = await started(upload('mastodon'));
      await handle.result();
      const pause = client.workflow.getHandle(workflowIds.accountPause(connections.mastodon.id));
      await timerStarted(pause);
      await pauses.ended!(connections.mastodon.id);
      await pause.result();
      return { 'account-pause-ended': pause.workflowId };
    },

    async 'analytics-snapshots'() {
      // Two rounds 2 s apart, each sweeping two networks a connection per page, then expiry; new
      // settings by signal in between (signal-with-start on a running schedule); then terminated.
      const settings = { periodMs: 2000, offsetMs: 0, pageSize: 1 };
      await snapshotSchedule.ensure(settings);
      const handle = client.workflow.getHandle(workflowIds.analyticsSnapshots(taskQueue));
      const cleanups = async () => ((await handle.fetchHistory()).events ?? [])
        .filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'cleanupAnalytics').length;
      await until('the first round', async () => ((await cleanups()) >= 1 ? true : undefined));
      await snapshotSchedule.ensure({ ...settings, periodMs: 3000 });
      await until('the second round', async () => ((await cleanups()) >= 2 ? true : undefined));
      const today = new Date().toISOString().slice(0, 10);
      const taken = (await Promise.all((['instagram', 'x'] as const).map((p) => snapshots.latestOnOrBefore(ACCOUNT, PROFILE, p, today, 1)))).filter((s) => s !== null);
      if (taken.length !== 2) throw new Error(`expected a snapshot of instagram and x, saw ${taken.length}`);
      await handle.terminate('recorded');
      return { 'analytics-snapshots': handle.workflowId };
    },

    async 'connection-refresh'() {
      // Refresh-ahead of an account whose tokens live 3 s: renewed twice ahead of expiry, then the
      // refresh token is refused (reauth_required), and 2 s later the account is disconnected (account_blocked).
      const connection = await storage.connectedAccounts.upsert({
        ...connections.tiktok, sealedCredentials: sealedCredentialsOf(secrets, connections.tiktok!, { access_token: 'at-0', refresh_token: 'rt', expires_at: inMs(3000).toISOString() }),
      });
      await refreshes.connected(connection);
      const handle = client.workflow.getHandle(workflowIds.connectionRefresh(connection.id));
      await handle.result();
      if (tiktokRefreshes !== 3) throw new Error(`expected 3 refresh attempts, saw ${tiktokRefreshes}`);
      if (await storage.connectedAccounts.findById(connection.id)) throw new Error('the account was not disconnected after staying reauth_required');
      return { 'connection-refresh': handle.workflowId };
    },
  };

  const notifyQueue = `${taskQueue}-notify`;
  Object.assign(scenarios, {
    async 'webhook-channel-moved'() {
      // A profile webhook channel run started on the publishing queue as releases before the notify
      // pool started it (no queue in its input, a one-argument deliver signal) delivers there; the
      // next delivery, routed to the notify queue, moves it there (continue-as-new), where it
      // delivers, and, idle, ends.
      await notifyStorage.profileWebhooks.save({ accountId: ACCOUNT, profileUsername: PROFILE, webhookUrl: 'https://receiver.example.test/moved', webhookEvents: null, updatedAt: new Date() });
      const channel = `${ACCOUNT}:profile:${PROFILE}`;
      for (const i of [0, 1]) await notifyStorage.outbox.emit(anUploadCompletedEvent({ account_id: ACCOUNT, profile_username: PROFILE, title: `moved ${i}` }), `replay-moved-${i}`);
      const delivery = (i: number) => ({ deliveryId: webhookCrypto.deliveryId(`replay-moved-${i}`, channel), eventKey: `replay-moved-${i}` });
      const delivered = (n: number) => until(`${n} deliveries to the moved channel`, async () =>
        ((await notifyStorage.deliveries.list({ accountId: ACCOUNT, page: 1, limit: 50 })).items.filter((r) => r.channel === 'profile_webhook' && r.outcome === 'delivered').length >= n ? true : undefined));
      const legacy = await client.workflow.signalWithStart('webhookChannelWorkflow', {
        workflowId: workflowIds.notificationChannel(channel),
        taskQueue,
        args: [{ channelId: channel, breaker: { failureThreshold: 2, pauseMs: 3000 }, attemptTimeoutMs: 60_000, heartbeatTimeoutMs: 5000, idleMs: 60_000, batch: 20 }],
        signal: 'deliver',
        signalArgs: [[delivery(0)]],
      });
      await delivered(1);
      const routed = createTemporalNotificationChannelQueue(client, { taskQueue: notifyQueue, timing: { failureThreshold: 2, pauseMs: 3000, receiverTimeoutMs: 5000, heartbeatTimeoutMs: 5000, idleMs: 1000 } });
      await routed.enqueue(channel, [delivery(1)]);
      await delivered(2);
      const moved = client.workflow.getHandle(legacy.workflowId);
      await moved.result();
      const described = await moved.describe();
      if (described.taskQueue !== notifyQueue || described.runId === legacy.signaledRunId) throw new Error(`the channel run did not move: ${described.taskQueue}`);
      return { 'webhook-channel-moved-from': `${legacy.workflowId}#${legacy.signaledRunId}`, 'webhook-channel-moved-to': `${legacy.workflowId}#${described.runId}` };
    },
    // A real transcode: FINISHED with its output, minutes settled, the output expired 2 s later.
    'media-job-finished': () => mediaJobEnding('media-job-finished', 'ffmpeg -i {input} -vf scale=160:-2 -c:v libx264 -preset ultrafast -c:a copy {output}', 'finished'),
    // ffmpeg refuses the command (an unknown encoder): ERROR with its reason, not retried.
    'media-job-error': () => mediaJobEnding('media-job-error', 'ffmpeg -i {input} -c:v no_such_encoder {output}', 'error'),
  } satisfies Record<string, () => Promise<Record<string, string>>>);

  const chosen = Object.keys(scenarios).filter((name) => !only.size || only.has(name));
  const unknown = [...only].filter((name) => !scenarios[name]);
  if (unknown.length) throw new Error(`unknown scenarios: ${unknown.join(', ')} (known: ${Object.keys(scenarios).join(', ')})`);

  /** One in-process worker per pool's bundle, each on its own recorder task queue. */
  const workerFor = async (queue: string, workflowsPath: string, activities: object) => Worker.create({
    connection: await NativeConnection.connect({ address }), namespace, taskQueue: queue, identity: 'herald-replay-recorder', workflowsPath, activities,
  });
  const worker = await workerFor(taskQueue, require.resolve('../../workflows/index'), {
    ...createUploadActivities({ storage, platforms, secrets, notifier: createMemoryNotifier(), clock: systemClock, media: noMedia, mediaFetcher, pauses, checkpointProbes }),
    ...createAccountPauseActivities({ storage, clock: systemClock }),
    ...createCheckpointProbeActivities({ storage, platforms, secrets, clock: systemClock }),
    ...createConnectionRefreshActivities({ storage, platforms, secrets, clock: systemClock, notifier: createMemoryNotifier() }),
    ...createNotificationActivities(notificationDeps),
    ...createAnalyticsSnapshotActivities(snapshotDeps),
  });
  const mediaWorker = await workerFor(mediaQueue, require.resolve('../../workflows/media-job.workflow'), createMediaJobActivities({
    mediaJobs, mediaUsage, processor, clock: systemClock, maxOutputBytes: 256 * 1024 * 1024, progressWriteMs: 500, heartbeatEveryMs: 1000,
    store: mediaStore,
    publish: { storage, mediaJobs, operators: storage.operators, probe: createFfprobe({ pathOf: mediaStore.pathOf }), hasher: sha256KeyHasher, platforms, runner, ids: mediaIds, clock: systemClock },
  }));
  const notifyWorker = await workerFor(notifyQueue, require.resolve('../../workflows/notification-channel.workflow'), createNotificationActivities(notificationDeps));
  const dir = path.join(HISTORIES, label);
  await notifyWorker.runUntil(() => mediaWorker.runUntil(() => worker.runUntil(async () => {
    const recorded = await Promise.all(chosen.map(async (name) => {
      const ids = await scenarios[name]!();
      return Object.entries(ids);
    }));
    mkdirSync(dir, { recursive: true });
    for (const [name, id] of recorded.flat()) {
      // `<workflow id>#<run id>` names one run of a workflow that continued as new.
      const [workflowId, runId] = id.split('#');
      const history = await client.workflow.getHandle(workflowId!, runId).fetchHistory();
      writeFileSync(path.join(dir, `${name}.json`), `${historyToJSON(history)}\n`);
      console.log(`recorded ${path.relative(ROOT, path.join(dir, `${name}.json`))} (${history.events?.length ?? 0} events)`);
    }
  })));
  rmSync(mediaRoot, { recursive: true, force: true });
  await connection.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
