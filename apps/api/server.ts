import { Readable } from 'node:stream';
import Koa from 'koa';
import Router from '@koa/router';
import { HeraldError } from '../../core/domain/errors';
import { PLANS } from '../../core/domain/plans';
import { tiktok } from '../../adapters/platforms/tiktok';
import { authenticate } from '../../core/usecases/authenticate';
import type { ApiDeps, ApiOptions, AppState } from './deps';
import { errorMiddleware } from './http-errors';
import { bodyReader } from './body';
import { idParam, queryIdGuard } from './ids';
import { profileByUsernameRoute, profileRoutes } from './routes/profiles';
import { uploadRoutes } from './routes/uploads';
import { oauthCallbackRoute, oauthStartRoute } from './routes/oauth';
import { lookupRoutes } from './routes/lookups';
import { mediaLibraryRoutes } from './routes/media-library';
import { postRoutes } from './routes/posts';
import { commentRoutes } from './routes/comments';
import { disconnectRoute } from './routes/connections';
import { healthRoutes, observeHttp } from '../shared/http-observe';
import { SECURITY_HEADERS } from '../shared/security-headers';
import { mediaJobOutputLinkRoute, mediaJobRoutes } from './routes/media-jobs';
import { mediaUploadByteRoutes, mediaUploadRoutes } from './routes/media-uploads';
import { notificationRoutes } from './routes/notifications';
import { connectLinkRoutes, validateJwtRoute } from './routes/connect-links';
import { analyticsHistoryRoutes } from './routes/analytics-history';
import { analyticsRoutes } from './routes/analytics';
import { mount } from './catalogue/mount';
import { OPERATIONS } from './catalogue';
import { responseChecks } from './catalogue/response-check';
import { getMe } from './catalogue/account';
import { documentRoutes } from './routes/documents';
import { connectionReads } from './connection-reads';

export function createApi(given: ApiDeps, options: ApiOptions): Koa<AppState> {
  const { deps, reads, intake } = connectionReads(given);
  const app = new Koa<AppState>({ proxy: options.trustProxy > 0, maxIpsCount: options.trustProxy });
  const ns = options.namespace;
  // One log line, metrics and a span per request (apps/shared/http-observe.ts); first, so it sees every answer.
  if (deps.telemetry) app.use(observeHttp(deps.telemetry));
  // Every answer, errors included (a page sets a policy of its own: routes/documents.ts).
  app.use(async (ctx, next) => {
    ctx.set(SECURITY_HEADERS);
    await next();
  });
  app.use(errorMiddleware(deps.log));

  // GET /healthz: liveness; GET /readyz: MongoDB, Redis and Temporal reachable.
  app.use(healthRoutes(deps.health));

  // Stored media at signed, expiring URLs, for networks that fetch media themselves. No API key:
  // the signature is the credential.
  app.use(async (ctx, next) => {
    const match = /^\/media\/([0-9a-f]{64})$/.exec(ctx.path);
    if (!match || ctx.method !== 'GET') return next();
    const id = match[1]!;
    const exp = typeof ctx.query.exp === 'string' ? ctx.query.exp : undefined;
    const sig = typeof ctx.query.sig === 'string' ? ctx.query.sig : undefined;
    if (!deps.mediaUrls.verify(id, exp, sig)) throw new HeraldError('forbidden', 'This media URL is invalid or expired.', 'media_url_invalid');
    const stored = await deps.mediaStore.stat(id);
    if (!stored) throw new HeraldError('not_found', 'No such media.');
    ctx.set('Content-Length', String(stored.size));
    ctx.type = stored.contentType;
    ctx.body = Readable.from(deps.mediaStore.read(id));
  });

  // Routes that carry their own credential (a one-time OAuth state) instead of an API key.
  const open = new Router();
  oauthCallbackRoute(open, deps, ns);
  documentRoutes(open, ns, options.publicBaseUrl);
  const connect = deps.connect;
  if (connect) validateJwtRoute(open, { ...deps, connect }, ns);
  if (deps.mediaJobs) mediaJobOutputLinkRoute(open, { ...deps, mediaJobs: deps.mediaJobs }, ns);
  if (deps.mediaUploads) mediaUploadByteRoutes(open, deps.mediaUploads, ns);
  app.use(open.routes());

  // Authentication, then the per-key rate limit whose figures go on every authenticated response.
  // Router middleware: it runs only when a route answers this method on this path, so 404, 405 and
  // the OPTIONS answer (a CORS preflight) need no credential and never count toward a block.
  const router = new Router<AppState>();
  router.use(async (ctx, next) => {
    ctx.state.caller = await authenticate(deps, { authorization: ctx.get('Authorization'), address: ctx.ip });
    // An agent token granted `herald:read` reads only (core/domain/agent-oauth.ts).
    if (ctx.state.caller.scope === 'read' && ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      throw new HeraldError('forbidden', 'This access token was granted the read-only scope "herald:read": authorize again with scope "herald" to change anything.', 'insufficient_scope');
    }
    const decision = await deps.limiter.consume(ctx.state.caller.key.id);
    ctx.set('X-RateLimit-Limit', String(decision.limit));
    ctx.set('X-RateLimit-Remaining', String(decision.remaining));
    ctx.set('X-RateLimit-Reset', String(Math.ceil(decision.resetAt.getTime() / 1000)));
    if (!decision.allowed) {
      const seconds = Math.max(1, Math.ceil((decision.resetAt.getTime() - Date.now()) / 1000));
      throw new HeraldError('too_many_requests', `Rate limit of ${decision.limit} requests exceeded; try again in ${seconds} seconds.`,
        'rate_limited', { retry_after_seconds: seconds });
    }
    await next();
  });

  router.use(queryIdGuard);
  router.use(bodyReader({ formBytes: 1024 * 1024, fileBytes: options.maxUploadBytes, ...(options.uploadDir ? { uploadDir: options.uploadDir } : {}) }));

  router.param('username', idParam('username')).param('job_id', idParam('job_id')).param('upload_id', idParam('upload_id'));
  mount(router, getMe, ns, (ctx) => {
    const { account } = ctx.state.caller;
    const plan = PLANS[account.plan];
    ctx.body = {
      success: true,
      email: account.email,
      plan: account.plan,
      account_id: account.id,
      limits: {
        profiles: plan.profiles,
        uploads_per_month: plan.uploadsPerMonth,
        tiktok_posting: !tiktok.descriptor.rules?.excludedPlans?.includes(account.plan),
        media_minutes_per_month: plan.mediaMinutesPerMonth,
        ai_analyses_per_month: plan.aiAnalysesPerMonth,
        team_seats: plan.teamSeats,
        white_label: plan.whiteLabel,
      },
    };
  });
  profileRoutes(router, deps, ns);
  if (connect && options.connectLinks) connectLinkRoutes(router, { ...deps, connect }, ns, options.connectLinks);
  uploadRoutes(router, { ...intake, duplicateWindowMs: options.duplicateWindowMs }, ns, options);
  oauthStartRoute(router, deps, ns, options.publicBaseUrl);
  lookupRoutes(router, reads, ns);
  mediaLibraryRoutes(router, reads, ns);
  postRoutes(router, deps, ns);
  commentRoutes(router, reads, ns);
  analyticsRoutes(router, reads, ns);
  disconnectRoute(router, deps, ns);
  if (deps.mediaUploads) mediaUploadRoutes(router, deps.mediaUploads, ns);
  if (deps.mediaJobs) mediaJobRoutes(router, { ...deps, mediaJobs: deps.mediaJobs }, ns);
  if (deps.notifications) notificationRoutes(router, deps.notifications, ns);
  if (deps.analyticsHistory) analyticsHistoryRoutes(router, { ...deps, analyticsHistory: deps.analyticsHistory }, ns);
  profileByUsernameRoute(router, deps, ns);
  if (options.checkResponses) app.use(responseChecks(OPERATIONS, deps.log));
  app.use(router.routes());
  // 405 with Allow; errorMiddleware writes the JSON body.
  app.use(router.allowedMethods());
  return app;
}
