/**
 * Loopback simulator of LinkedIn: the OAuth 2 authorization-code flow (approve page, accessToken
 * with refresh-token rotation, PKCE when a challenge was sent), OpenID /v2/userinfo, and the
 * versioned REST API used for publishing (images and videos initializeUpload, signed upload URLs,
 * finalizeUpload, video processing, posts, comments, organization roles) and organization
 * statistics (analytics.ts: share and page statistics, network size), with LinkedIn's headers,
 * error bodies `{status, serviceErrorCode, code, message}` and "little" text parsing.
 */
import { seedInputOf, type SeedCommentInput } from '../kit/comments';
import { sendJson, startSimulatorHost, type RecordedRequest } from '../kit/http';
import { clockControl, createAnalyticsModel } from '../kit/metrics';
import { createLinkedInAnalytics, type LinkedInAnalytics } from './analytics';
import { accessDenied, notFound } from './answers';
import { createLinkedInFailures, LINKEDIN_FAILURE_MODES, LINKEDIN_SIM_ALL_SCOPES, type LinkedInFailureMode } from './failures';
import { createLinkedInMedia } from './media';
import { createLinkedInOAuth } from './oauth';
import { createLinkedInRest } from './rest';
import {
  createLinkedInState, type LinkedInAccountFixture, type LinkedInClientFixture, type LinkedInSimComment, type LinkedInSimImage,
  type LinkedInSimPost, type LinkedInSimulatorOptions, type LinkedInSimVideo,
} from './state';

export interface LinkedInSimulator {
  port: number;
  origin: string;
  /** The adapter's `apiBase` (the adapter adds /rest and /v2). */
  apiBase: string;
  /** The adapter's `authBase`: `<origin>/oauth/v2`. */
  authBase: string;
  /** A client registered at start, with no redirect URIs; used by issueTokens by default. */
  defaultClient: LinkedInClientFixture;
  registerClient(input: { redirectUris: string[]; clientId?: string; clientSecret?: string; scopes?: string[]; refreshTokens?: boolean }): LinkedInClientFixture;
  createAccount(input: { name: string; picture?: string | null; email?: string; pages?: Array<{ name: string; role?: string }> }): LinkedInAccountFixture;
  issueAuthCode(sub: string, opts: { clientId: string; redirectUri: string; scope?: string[]; codeChallenge?: string }): string;
  /** Tokens as a finished OAuth flow would give them, without the flow. */
  issueTokens(sub: string, opts?: { clientId?: string; scope?: string[] }): { accessToken: string; refreshToken?: string; expiresAt: Date; scope: string[] };
  expireAccessTokens(sub?: string): void;
  expireRefreshTokens(sub?: string): void;
  /** As when the member removes the app: access and refresh tokens stop working. */
  revokeTokens(sub?: string): void;
  accounts(): LinkedInAccountFixture[];
  posts(): LinkedInSimPost[];
  comments(postUrn?: string): LinkedInSimComment[];
  /** A comment by another LinkedIn member under a post (also `POST /__sim/comment {post_id: post URN, text, author_id?: person URN}`). */
  seedComment(input: SeedCommentInput): LinkedInSimComment;
  images(): LinkedInSimImage[];
  /** Uploaded documents (Documents API). */
  documents(): Array<{ urn: string; owner: string; status: string; size?: number; contentType?: string }>;
  videos(): LinkedInSimVideo[];
  /** The statistics model (tests compare an adapter's numbers with these; `model.setNow` freezes its clock). */
  readonly analytics: LinkedInAnalytics;
  fail(mode: LinkedInFailureMode, times?: number): void;
  setLatency(ms: number): void;
  readonly requests: RecordedRequest[];
  state(): Record<string, unknown>;
  /** Clears posts, comments, media, queued failures, latency and recorded requests; accounts, clients and tokens stay. */
  reset(): void;
  close(): Promise<void>;
}

export async function startLinkedInSimulator(opts: LinkedInSimulatorOptions = {}): Promise<LinkedInSimulator> {
  const s = createLinkedInState(opts);
  const { seeded, clients, accounts, uploads, images, videos, posts, comments, armed } = s;
  const { answerFailure, takeArmed } = createLinkedInFailures(s);
  const oauth = createLinkedInOAuth(s);
  const { server, grantTokens, issueAuthCode, authenticate } = oauth;
  const media = createLinkedInMedia(s);
  const { settle, upload } = media;
  const analytics = createLinkedInAnalytics(s, createAnalyticsModel(opts.seed));
  const { restRoute, classify } = createLinkedInRest(s, oauth, media, analytics);

  function seedComment(input: SeedCommentInput): LinkedInSimComment {
    if (!s.posts.some((p) => p.id === input.postId)) throw new Error(`no post ${input.postId}`);
    const id = s.liveId();
    const comment: LinkedInSimComment = {
      id, urn: `urn:li:comment:(${input.postId},${id})`, postUrn: input.postId, actor: input.authorId ?? 'urn:li:person:aFanOfThePage', text: input.text, createdAt: Date.now() - (input.ageMs ?? 0),
      ...(input.parentId ? { parentComment: input.parentId } : {}),
    };
    comments.push(comment);
    return { ...comment };
  }

  const host = await startSimulatorHost<LinkedInFailureMode>({
    port: opts.port,
    maxBodyBytes: 64 * 1024 * 1024,
    failureModes: LINKEDIN_FAILURE_MODES,
    controls: { comment: (body) => { seedComment(seedInputOf(body)); }, analytics_clock: clockControl(analytics.model) },
    state: () => ({
      armedFailures: [...armed],
      accounts: [...accounts.values()].map((a) => ({ sub: a.sub, name: a.name, pages: a.pages })),
      clients: [...clients.values()].map((c) => ({ clientId: c.clientId, redirectUris: c.redirectUris })),
      postCount: posts.length,
      commentCount: comments.length,
      imageCount: images.size,
      videoCount: videos.size,
    }),
    reset: () => {
      posts.length = 0;
      comments.length = 0;
      images.clear();
      videos.clear();
      s.documents.clear();
      uploads.clear();
      armed.length = 0;
    },
    handle(req, res, failure) {
      if (failure) armed.push(failure);
      const route = classify(req);
      const mode = takeArmed(route);
      if (mode && answerFailure(mode, res)) return;
      switch (route.name) {
        case 'authorize': return server.authorize(req, res);
        case 'token': return server.token(req, res);
        case 'upload': return upload(req, res, route.id);
        case 'userinfo': {
          const token = authenticate(req, res);
          if (!token) return;
          if (!token.scope.includes('openid')) return accessDenied(res, 'userinfo.GET');
          const a = accounts.get(token.sub)!;
          return sendJson(res, 200, {
            sub: a.sub, name: a.name, given_name: a.givenName, family_name: a.familyName,
            ...(a.picture && token.scope.includes('profile') ? { picture: a.picture } : {}),
            locale: { country: 'US', language: 'en' },
            ...(token.scope.includes('email') ? { email: a.email, email_verified: true } : {}),
          });
        }
        case 'rest': return restRoute(req, res, route, mode);
        case 'unknown': return notFound(res, `Resource ${req.method} ${req.path}`);
      }
    },
  });
  s.origin = host.origin;
  const { origin } = s;

  function registerClient(input: Parameters<LinkedInSimulator['registerClient']>[0]): LinkedInClientFixture {
    const client: LinkedInClientFixture = {
      clientId: input.clientId ?? seeded('client').toString('hex').slice(0, 14),
      clientSecret: input.clientSecret ?? seeded('client-secret').toString('base64url').slice(0, 16),
      redirectUris: [...input.redirectUris],
      scopes: [...(input.scopes ?? LINKEDIN_SIM_ALL_SCOPES)],
      refreshTokens: input.refreshTokens ?? true,
    };
    clients.set(client.clientId, client);
    return client;
  }
  const defaultClient = registerClient({ redirectUris: [] });

  return {
    port: host.port,
    origin,
    apiBase: origin,
    authBase: `${origin}/oauth/v2`,
    defaultClient,
    get requests() { return host.requests; },
    analytics,
    registerClient,
    createAccount(input) {
      const sub = seeded('member').toString('base64url').replace(/[-_]/g, 'x').slice(0, 10);
      const [givenName = input.name, ...rest] = input.name.split(' ');
      const account: LinkedInAccountFixture = {
        sub,
        urn: `urn:li:person:${sub}`,
        name: input.name,
        givenName,
        familyName: rest.join(' '),
        picture: input.picture === undefined ? `https://media.licdn.com/dms/image/sim/${sub}/profile-displayphoto-shrink_100_100/0` : input.picture,
        email: input.email ?? `${givenName.toLowerCase()}@example.com`,
        pages: (input.pages ?? []).map((p) => ({ id: String(10_000_000 + (seeded('organization').readUInt32BE(0) % 89_999_999)), name: p.name, role: p.role ?? 'ADMINISTRATOR' })),
      };
      accounts.set(sub, account);
      return structuredClone(account);
    },
    issueAuthCode,
    issueTokens(sub, o = {}) {
      if (!accounts.has(sub)) throw new Error(`unknown account ${sub}`);
      const client = clients.get(o.clientId ?? defaultClient.clientId);
      if (!client) throw new Error(`unknown client ${o.clientId}`);
      const t = grantTokens(sub, client, o.scope ?? ['openid', 'profile', 'w_member_social']);
      return { accessToken: t.accessToken, ...(t.refreshToken ? { refreshToken: t.refreshToken } : {}), expiresAt: new Date(t.expiresAt), scope: t.scope };
    },
    expireAccessTokens: (sub) => server.expireAccessTokens(sub),
    expireRefreshTokens: (sub) => server.expireRefreshTokens(sub),
    revokeTokens: (sub) => server.revoke(sub),
    accounts: () => [...accounts.values()].map((a) => structuredClone(a)),
    posts: () => posts.map((p) => structuredClone(p)),
    comments: (postUrn) => comments.filter((c) => postUrn === undefined || c.postUrn === postUrn).map((c) => ({ ...c })),
    documents: () => [...s.documents.values()].map((d) => ({ urn: d.urn, owner: d.owner, status: d.status, size: d.size, contentType: d.contentType })),
    seedComment,
    images: () => [...images.values()].map((i) => ({ urn: i.urn, owner: i.owner, status: i.status, size: i.size, contentType: i.contentType })),
    videos: () => [...videos.values()].map((v) => {
      const { urn, owner, fileSizeBytes, status, parts, uploadToken, thumbnail, processingFailureReason } = settle(v);
      return { urn, owner, fileSizeBytes, status, parts: parts.map((p) => ({ ...p })), uploadToken, ...(thumbnail ? { thumbnail: { ...thumbnail } } : {}), ...(processingFailureReason ? { processingFailureReason } : {}) };
    }),
    fail: (mode, times) => host.fail(mode, times),
    setLatency: (ms) => host.setLatency(ms),
    state: () => host.state(),
    reset: () => host.reset(),
    close: () => host.close(),
  };
}
