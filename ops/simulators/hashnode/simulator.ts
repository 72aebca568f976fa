/**
 * Loopback simulator of Hashnode's GraphQL endpoint (apidocs.hashnode.com). No GraphQL library: it
 * reads the operation's type, its declared variables and its root fields, and answers the five
 * operations Herald sends (`me`, `publication`, `publishPost`, `updatePost`, `removePost`) the way
 * Hashnode does: the PAT in Authorization, `{data}` on success, `{errors:[{message, extensions:{code}}], data:null}`
 * on failure (UNAUTHENTICATED, FORBIDDEN, NOT_FOUND, BAD_USER_INPUT with HTTP 200;
 * GRAPHQL_VALIDATION_FAILED and GRAPHQL_PARSE_FAILED with HTTP 400).
 */
import type { ServerResponse } from 'node:http';
import { createSeededSource, sendJson, sendText, startSimulatorHost, type RecordedRequest } from '../kit/http';

export const HASHNODE_FAILURE_MODES = ['unauthenticated', 'rate_limited', 'internal_error', 'bad_gateway', 'bad_user_input', 'malformed'] as const;
export type HashnodeFailureMode = (typeof HASHNODE_FAILURE_MODES)[number];
export const HASHNODE_SIM_RETRY_AFTER_SECONDS = 20;

export interface HashnodePost {
  id: string;
  publicationId: string;
  authorId: string;
  title: string;
  subtitle: string | null;
  contentMarkdown: string;
  tags: Array<{ slug: string; name: string }>;
  coverImageURL: string | null;
  originalArticleURL: string | null;
  slug: string;
  seriesId: string | null;
  disableComments: boolean;
  url: string;
  updatedAt: string | null;
}

interface User { id: string; username: string; name: string; token: string }
interface Publication { id: string; title: string; host: string; ownerId: string; memberIds: string[] }

/** Root operation type, declared variables (name → type) and root fields of a GraphQL document. */
export function readOperation(query: string): { type: string; variables: Record<string, string>; fields: string[] } | undefined {
  const text = query.replace(/#[^\n]*/g, '');
  const head = /^\s*(query|mutation|subscription)?\s*(\w+)?\s*(\(([^)]*)\))?\s*\{/.exec(text);
  if (!head) return undefined;
  const variables: Record<string, string> = {};
  for (const m of (head[4] ?? '').matchAll(/\$(\w+)\s*:\s*([\w!\[\]]+)/g)) variables[m[1]!] = m[2]!;
  const fields: string[] = [];
  let depth = 0;
  let parens = 0;
  const body = text.slice(head[0].length - 1);
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === '{') depth++;
    else if (c === '}') depth--;
    else if (c === '(') parens++;
    else if (c === ')') parens--;
    else if (depth === 1 && parens === 0 && /[A-Za-z_]/.test(c) && !/[\w]/.test(body[i - 1] ?? '')) {
      const word = /^\w+/.exec(body.slice(i))![0];
      // An alias (`name: field`) names the field after the colon.
      const alias = /^\w+\s*:\s*(\w+)/.exec(body.slice(i));
      fields.push(alias ? alias[1]! : word);
      i += (alias ? alias[0].length : word.length) - 1;
    }
    if (depth < 0) return undefined;
  }
  if (depth !== 0 || parens !== 0) return undefined;
  return { type: head[1] ?? 'query', variables, fields };
}

export interface HashnodeSimulator {
  port: number;
  origin: string;
  /** The GraphQL endpoint (the adapter's apiUrl). */
  apiUrl: string;
  createUser(input: { username: string; name?: string }): { id: string; username: string; token: string };
  createPublication(ownerId: string, input: { title: string; host?: string }): { id: string; url: string };
  revokeToken(token: string): void;
  posts(publicationId?: string): HashnodePost[];
  fail(mode: HashnodeFailureMode, times?: number): void;
  setLatency(ms: number): void;
  readonly requests: RecordedRequest[];
  state(): Record<string, unknown>;
  reset(): void;
  close(): Promise<void>;
}

class GqlError {
  constructor(readonly code: string, readonly message: string, readonly httpStatus = 200) {}
}
const badInput = (message: string) => new GqlError('BAD_USER_INPUT', message);
const isUrl = (v: unknown) => {
  try { return typeof v === 'string' && /^https?:$/.test(new URL(v).protocol); } catch { return false; }
};

/** The declared input type each mutation takes. */
const MUTATION_INPUT: Record<string, string> = { publishPost: 'PublishPostInput!', updatePost: 'UpdatePostInput!', removePost: 'RemovePostInput!' };

export async function startHashnodeSimulator(opts: { port?: number; seed?: string } = {}): Promise<HashnodeSimulator> {
  const seeded = createSeededSource(opts.seed);
  const hex = (kind: string) => seeded(kind).subarray(0, 12).toString('hex');
  const users = new Map<string, User>();
  const revoked = new Set<string>();
  const publications = new Map<string, Publication>();
  const posts = new Map<string, HashnodePost>();
  let counter = 0;

  const postView = (p: HashnodePost) => ({ id: p.id, slug: p.slug, url: p.url, title: p.title });

  function inputArg(op: { variables: Record<string, string> }, field: string, variables: Record<string, unknown>): Record<string, unknown> {
    const declared = Object.entries(op.variables).find(([, type]) => type === MUTATION_INPUT[field]);
    if (!declared) throw new GqlError('GRAPHQL_VALIDATION_FAILED', `Field "${field}" argument "input" of type "${MUTATION_INPUT[field]}" is required, but it was not provided.`, 400);
    const value = variables[declared[0]];
    if (!value || typeof value !== 'object') throw new GqlError('BAD_USER_INPUT', `Variable "$${declared[0]}" of required type "${MUTATION_INPUT[field]}" was not provided.`, 400);
    return value as Record<string, unknown>;
  }

  function tagsOf(raw: unknown): HashnodePost['tags'] {
    if (raw === undefined || raw === null) return [];
    if (!Array.isArray(raw)) throw badInput('tags must be a list');
    return raw.map((t) => {
      const tag = t as Record<string, unknown>;
      const slug = typeof tag.slug === 'string' ? tag.slug : '';
      if (!slug && typeof tag.id !== 'string') throw badInput('Each tag needs an id or a slug and a name');
      return { slug, name: typeof tag.name === 'string' ? tag.name : slug };
    });
  }

  function editable(user: User, publicationId: string): Publication {
    const pub = publications.get(publicationId);
    if (!pub) throw new GqlError('NOT_FOUND', 'Publication not found');
    if (pub.ownerId !== user.id && !pub.memberIds.includes(user.id)) throw new GqlError('FORBIDDEN', 'You are not allowed to publish in this publication');
    return pub;
  }

  function fill(input: Record<string, unknown>, into: HashnodePost): void {
    if (input.subtitle !== undefined) into.subtitle = typeof input.subtitle === 'string' ? input.subtitle : null;
    if (input.tags !== undefined) into.tags = tagsOf(input.tags);
    const cover = input.coverImageOptions as Record<string, unknown> | undefined;
    if (cover !== undefined) {
      if (cover.coverImageURL !== undefined && !isUrl(cover.coverImageURL)) throw badInput('coverImageURL must be a valid URL');
      into.coverImageURL = (cover.coverImageURL as string | undefined) ?? null;
    }
    if (input.originalArticleURL !== undefined) {
      if (!isUrl(input.originalArticleURL)) throw badInput('originalArticleURL must be a valid URL');
      into.originalArticleURL = input.originalArticleURL as string;
    }
    if (typeof input.seriesId === 'string') into.seriesId = input.seriesId;
    if (typeof input.disableComments === 'boolean') into.disableComments = input.disableComments;
  }

  function resolve(field: string, op: ReturnType<typeof readOperation> & object, variables: Record<string, unknown>, user: User): unknown {
    switch (field) {
      case 'me': return { id: user.id, username: user.username, name: user.name, profilePicture: `https://cdn.hashnode.com/res/hashnode/image/upload/${user.id}.png` };
      case 'publication': {
        const name = Object.entries(op.variables).find(([, t]) => t === 'ObjectId!' || t === 'ObjectId')?.[0];
        const pub = name ? publications.get(String(variables[name] ?? '')) : undefined;
        return pub ? { id: pub.id, title: pub.title, url: `https://${pub.host}`, author: { id: pub.ownerId } } : null;
      }
      case 'publishPost': {
        if (op.type !== 'mutation') break;
        const input = inputArg(op, field, variables);
        for (const required of ['title', 'publicationId', 'contentMarkdown']) {
          if (typeof input[required] !== 'string') throw new GqlError('BAD_USER_INPUT', `Field "${required}" of required type "String!" was not provided.`, 400);
        }
        const title = (input.title as string).trim();
        if (!title) throw badInput('Title is required');
        if (!(input.contentMarkdown as string).trim()) throw badInput('Content is required');
        const pub = editable(user, input.publicationId as string);
        const id = hex('post');
        const slug = typeof input.slug === 'string' && input.slug ? input.slug
          : `${title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 80) || 'post'}-${++counter}`;
        const post: HashnodePost = {
          id, publicationId: pub.id, authorId: user.id, title, subtitle: null, contentMarkdown: input.contentMarkdown as string, tags: [],
          coverImageURL: null, originalArticleURL: null, slug, seriesId: null, disableComments: false, url: `https://${pub.host}/${slug}`, updatedAt: null,
        };
        fill(input, post);
        posts.set(id, post);
        return { post: postView(post) };
      }
      case 'updatePost': case 'removePost': {
        if (op.type !== 'mutation') break;
        const input = inputArg(op, field, variables);
        if (typeof input.id !== 'string') throw new GqlError('BAD_USER_INPUT', 'Field "id" of required type "ID!" was not provided.', 400);
        const post = posts.get(input.id);
        if (!post) throw new GqlError('NOT_FOUND', 'Post not found');
        editable(user, post.publicationId);
        if (field === 'removePost') {
          posts.delete(post.id);
          return { post: postView(post) };
        }
        if (input.title !== undefined) {
          if (typeof input.title !== 'string' || !input.title.trim()) throw badInput('Title is required');
          post.title = input.title;
        }
        if (input.contentMarkdown !== undefined) post.contentMarkdown = String(input.contentMarkdown);
        fill(input, post);
        post.updatedAt = new Date().toISOString();
        return { post: postView(post) };
      }
      default: break;
    }
    throw new GqlError('GRAPHQL_VALIDATION_FAILED', `Cannot query field "${field}" on type "${op.type === 'mutation' ? 'Mutation' : 'Query'}".`, 400);
  }

  const errors = (res: ServerResponse, err: GqlError, headers: Record<string, string> = {}) =>
    sendJson(res, err.httpStatus, { errors: [{ message: err.message, extensions: { code: err.code } }], data: null }, headers);

  const host = await startSimulatorHost<HashnodeFailureMode>({
    port: opts.port,
    failureModes: HASHNODE_FAILURE_MODES,
    state: () => ({ publications: [...publications.values()].map((p) => ({ id: p.id, title: p.title })), postCount: posts.size }),
    reset: () => posts.clear(),
    handle(req, res, failure) {
      if (req.path !== '/' && req.path !== '/graphql') return sendJson(res, 404, { message: 'Not found' });
      if (req.method !== 'POST') return errors(res, new GqlError('BAD_REQUEST', 'GET query missing.', 400));
      switch (failure) {
        case 'unauthenticated': return errors(res, new GqlError('UNAUTHENTICATED', 'Invalid access token provided.'));
        case 'rate_limited': return errors(res, new GqlError('TOO_MANY_REQUESTS', 'Too many requests, please try again later.', 429), { 'retry-after': String(HASHNODE_SIM_RETRY_AFTER_SECONDS) });
        case 'internal_error': return errors(res, new GqlError('INTERNAL_SERVER_ERROR', 'Something went wrong.'));
        case 'bad_gateway': return sendText(res, 502, 'error code: 502');
        case 'bad_user_input': return errors(res, badInput('The content contains a disallowed link'));
        case 'malformed': return sendJson(res, 200, { data: { publishPost: null, me: null } });
        default: break;
      }
      if (req.body.kind !== 'json' || !req.body.value || typeof req.body.value !== 'object') {
        return errors(res, new GqlError('BAD_REQUEST', 'POST body missing, invalid Content-Type, or JSON object has no keys.', 400));
      }
      const { query, variables } = req.body.value as { query?: unknown; variables?: unknown };
      const op = typeof query === 'string' ? readOperation(query) : undefined;
      if (!op) return errors(res, new GqlError('GRAPHQL_PARSE_FAILED', 'Syntax Error: Unexpected token.', 400));
      const vars = variables && typeof variables === 'object' ? variables as Record<string, unknown> : {};
      const token = req.headers.authorization;
      const user = token && !revoked.has(token) ? [...users.values()].find((u) => u.token === token) : undefined;
      const data: Record<string, unknown> = {};
      try {
        for (const field of op.fields) {
          // Public reads need no token; `me` and every mutation do.
          if (!user && (op.type === 'mutation' || field === 'me')) throw new GqlError('UNAUTHENTICATED', 'Invalid access token provided.');
          data[field] = resolve(field, op, vars, user!);
        }
      } catch (err) {
        if (err instanceof GqlError) return errors(res, err);
        throw err;
      }
      return sendJson(res, 200, { data });
    },
  });

  return {
    port: host.port,
    origin: host.origin,
    apiUrl: host.origin,
    get requests() { return host.requests; },
    createUser(input) {
      const id = hex('user');
      const token = seeded('token').subarray(0, 18).toString('hex').replace(/^(.{8})(.{4})(.{4})/, '$1-$2-$3-');
      users.set(id, { id, username: input.username, name: input.name ?? input.username, token });
      return { id, username: input.username, token };
    },
    createPublication(ownerId, input) {
      const id = hex('publication');
      const hostName = input.host ?? `${input.title.toLowerCase().replace(/[^a-z0-9]+/g, '')}.hashnode.dev`;
      publications.set(id, { id, title: input.title, host: hostName, ownerId, memberIds: [] });
      return { id, url: `https://${hostName}` };
    },
    revokeToken(token) { revoked.add(token); },
    posts: (publicationId) => [...posts.values()].filter((p) => !publicationId || p.publicationId === publicationId).map((p) => structuredClone(p)),
    fail: (mode, times) => host.fail(mode, times),
    setLatency: (ms) => host.setLatency(ms),
    state: () => host.state(),
    reset: () => host.reset(),
    close: () => host.close(),
  };
}
