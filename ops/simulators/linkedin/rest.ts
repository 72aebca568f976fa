/** Simulated REST routes for posts, comments, organization roles and statistics, and the request classifier. */
import type { ServerResponse } from 'node:http';
import { sendJson, type SimRequest } from '../kit/http';
import { accessDenied, badRequest, invalidField, notFound, restError } from './answers';
import type { LinkedInFailureMode, Route } from './failures';
import type { createLinkedInMedia } from './media';
import type { createLinkedInOAuth } from './oauth';
import type { LinkedInAnalytics } from './analytics';
import { batchGetMedia, batchGetOrganizations, findPostsByAuthor } from './library';
import { jsonBody, mayActAs as mayActAsIn, versionProblem } from './requests';
import {
  ALT_TEXT_MAX, COMMENT_MAX, COMMENTARY_MAX, MEDIA_TITLE_MAX, POLL_DURATIONS, VISIBILITIES,
  type LinkedInSimComment, type LinkedInState, type TokenRecord, type VideoRecord,
} from './state';
import { codePoints, isObj, renderLittleText, titleUnits } from './text';
import { createLinkedInPosts } from './posts';
import { linkedinCommentRoute } from './comments';

export function createLinkedInRest(
  s: LinkedInState, oauth: ReturnType<typeof createLinkedInOAuth>, media: ReturnType<typeof createLinkedInMedia>, analytics: LinkedInAnalytics,
) {
  const { accounts, images, videos, posts, comments, liveId } = s;
  const { authenticate } = oauth;
  const { initializeImage, initializeVideo, finalizeVideo, settle } = media;
  const mayActAs = (token: TokenRecord, urn: unknown) => mayActAsIn(s, token, urn);
  const postOps = createLinkedInPosts(s);

  /** Validates `content` of a post; answers and returns false when it is refused. */
  function checkContent(res: ServerResponse, author: string, content: unknown): boolean {
    if (content === undefined) return true;
    if (!isObj(content)) return invalidField(res, '/content', 'must be an object'), false;
    const kinds = Object.keys(content);
    if (kinds.length !== 1) return invalidField(res, '/content', 'must hold exactly one of media, multiImage, poll, article'), false;
    const usable = (path: string, id: unknown, allowVideo: boolean): boolean => {
      const media = typeof id === 'string' ? images.get(id) ?? (allowVideo ? videos.get(id) : undefined) : undefined;
      if (!media) return invalidField(res, path, `${String(id)} is not an uploaded ${allowVideo ? 'image or video' : 'image'}`), false;
      if (media.owner !== author) return invalidField(res, path, `${media.urn} belongs to ${media.owner}, not the author`), false;
      const status = 'parts' in media ? settle(media as VideoRecord).status : media.status;
      if (status !== 'AVAILABLE') return invalidField(res, path, `${media.urn} is ${status}, not AVAILABLE`), false;
      return true;
    };
    const altOk = (path: string, alt: unknown) =>
      alt === undefined || (typeof alt === 'string' && codePoints(alt) <= ALT_TEXT_MAX) ? true : (invalidField(res, path, `must be text of at most ${ALT_TEXT_MAX} characters`), false);

    if (isObj(content.media) && typeof content.media.id === 'string' && content.media.id.startsWith('urn:li:document:')) {
      return media.documents.usable(res, author, content.media.id, content.media.title);
    }
    if (isObj(content.media)) {
      const { id, title, altText } = content.media;
      if (!usable('/content/media/id', id, true)) return false;
      if (title !== undefined && (typeof title !== 'string' || titleUnits(title) > MEDIA_TITLE_MAX)) {
        return invalidField(res, '/content/media/title', `must be at most ${MEDIA_TITLE_MAX} characters`), false;
      }
      return altOk('/content/media/altText', altText);
    }
    if (isObj(content.multiImage)) {
      const list = content.multiImage.images;
      if (!Array.isArray(list) || list.length < 2 || list.length > 20) return invalidField(res, '/content/multiImage/images', 'must hold 2 to 20 images'), false;
      return list.every((img, i) => isObj(img) && usable(`/content/multiImage/images/${i}/id`, img.id, false) && altOk(`/content/multiImage/images/${i}/altText`, img.altText));
    }
    if (isObj(content.poll)) {
      const { question, options, settings } = content.poll;
      if (typeof question !== 'string' || !question.trim() || codePoints(question) > 140) return invalidField(res, '/content/poll/question', 'must be 1 to 140 characters'), false;
      if (!Array.isArray(options) || options.length < 2 || options.length > 4) return invalidField(res, '/content/poll/options', 'must hold 2 to 4 options'), false;
      const bad = options.findIndex((o) => !isObj(o) || typeof o.text !== 'string' || !o.text.trim() || codePoints(o.text) > 30);
      if (bad >= 0) return invalidField(res, `/content/poll/options/${bad}/text`, 'must be 1 to 30 characters'), false;
      if (!isObj(settings) || !POLL_DURATIONS.includes(String(settings.duration))) {
        return invalidField(res, '/content/poll/settings/duration', `must be one of ${POLL_DURATIONS.join(', ')}`), false;
      }
      return true;
    }
    return invalidField(res, '/content', `unsupported content ${kinds[0]}`), false;
  }

  function createPost(req: SimRequest, res: ServerResponse, token: TokenRecord, version: string) {
    const body = jsonBody(req, res);
    if (!body) return;
    if (postOps.reshare(res, token, body, version)) return;
    const { author, commentary, visibility, distribution, content, lifecycleState, isReshareDisabledByAuthor } = body;
    if (typeof author !== 'string') return invalidField(res, '/author', 'field is required but not found');
    if (!mayActAs(token, author)) return accessDenied(res, 'partnerApiPostsExternal.CREATE', version);
    if (commentary !== undefined && typeof commentary !== 'string') return invalidField(res, '/commentary', 'must be a string');
    if (typeof visibility !== 'string' || !VISIBILITIES.includes(visibility)) return invalidField(res, '/visibility', `must be one of ${VISIBILITIES.join(', ')}`);
    if (!isObj(distribution) || !['MAIN_FEED', 'NONE'].includes(String(distribution.feedDistribution))) {
      return invalidField(res, '/distribution/feedDistribution', 'must be MAIN_FEED or NONE');
    }
    if (lifecycleState !== 'PUBLISHED' && lifecycleState !== 'DRAFT') return invalidField(res, '/lifecycleState', 'must be PUBLISHED or DRAFT');
    if (isReshareDisabledByAuthor !== undefined && typeof isReshareDisabledByAuthor !== 'boolean') return invalidField(res, '/isReshareDisabledByAuthor', 'must be a boolean');
    const raw = commentary ?? '';
    const rendered = renderLittleText(raw);
    if (codePoints(rendered.text) > COMMENTARY_MAX) return invalidField(res, '/commentary', `length must be at most ${COMMENTARY_MAX}`);
    if (content === undefined && rendered.text.trim() === '') return invalidField(res, '/commentary', 'a post needs commentary or content');
    if (!checkContent(res, author, content)) return;
    // LinkedIn refuses the same text-only post twice from one author.
    const twin = content === undefined && raw ? posts.find((p) => p.author === author && p.commentary === raw && !p.content) : undefined;
    if (twin) return restError(res, 422, 'DUPLICATE_POST', `Content is a duplicate of ${twin.id}`);

    const simple = content === undefined || (isObj(content) && isObj(content.media) && images.has(String(content.media.id)));
    const id = `urn:li:${simple ? 'share' : 'ugcPost'}:${liveId()}`;
    posts.push({
      id, author, commentary: raw, text: rendered.text, truncated: rendered.truncated, visibility, distribution,
      ...(isObj(content) ? { content } : {}), lifecycleState, isReshareDisabledByAuthor: isReshareDisabledByAuthor === true, createdAt: Date.now(),
    });
    res.writeHead(201, { 'x-restli-id': id, 'x-linkedin-id': id, 'content-length': 0 });
    res.end();
  }

  /**
   * `POST /rest/socialActions/{target}/comments`: `target` is the post URN for a comment on the
   * post, or the parent comment's URN for a nested one (which then names it in `parentComment`,
   * and the post in `object`).
   */
  function createComment(req: SimRequest, res: ServerResponse, token: TokenRecord, target: string, version: string) {
    const parent = target.startsWith('urn:li:comment:') ? comments.find((c) => c.urn === target) : undefined;
    if (target.startsWith('urn:li:comment:') && !parent) return notFound(res, `Comment ${target}`);
    const postUrn = parent ? parent.postUrn : target;
    const post = posts.find((p) => p.id === postUrn);
    if (!post) return notFound(res, `Post ${postUrn}`);
    const body = jsonBody(req, res);
    if (!body) return;
    if (!mayActAs(token, body.actor)) return accessDenied(res, 'socialActions.comments.CREATE', version);
    if (body.object !== undefined && body.object !== postUrn) return badRequest(res, 'object must be the post the comment is created under');
    if (parent && body.parentComment !== parent.urn) return invalidField(res, '/parentComment', 'must be the comment URN the nested comment is created under');
    if (!parent && body.parentComment !== undefined) return badRequest(res, 'parentComment is for nested comments, created under the parent comment URN');
    // LinkedIn nests one level: a reply to a reply goes under the first-level comment.
    if (parent?.parentComment) return badRequest(res, 'Nested comments can be created under first-level comments only');
    const text = isObj(body.message) ? body.message.text : undefined;
    if (typeof text !== 'string' || !text.trim()) return invalidField(res, '/message/text', 'field is required but not found');
    if (codePoints(text) > COMMENT_MAX) return invalidField(res, '/message/text', `length must be at most ${COMMENT_MAX}`);
    const id = liveId();
    const comment: LinkedInSimComment = {
      id, urn: `urn:li:comment:(${postUrn},${id})`, postUrn, actor: String(body.actor), text, createdAt: Date.now(), ...(parent ? { parentComment: parent.urn } : {}),
    };
    comments.push(comment);
    const created = { actor: comment.actor, time: comment.createdAt };
    sendJson(res, 201, {
      id, $URN: comment.urn, actor: comment.actor, object: postUrn, message: { text }, created, lastModified: created, ...(parent ? { parentComment: parent.urn } : {}),
    }, { 'x-restli-id': id });
  }

  function restRoute(req: SimRequest, res: ServerResponse, route: Extract<Route, { name: 'rest' }>, armedMode: LinkedInFailureMode | undefined) {
    const version = String(req.headers['linkedin-version'] ?? '');
    const problem = versionProblem(version || undefined);
    if (problem) return restError(res, 426, problem.code, problem.message);
    if (req.headers['x-restli-protocol-version'] !== '2.0.0') return badRequest(res, 'The X-Restli-Protocol-Version: 2.0.0 header is required');
    const token = authenticate(req, res);
    if (!token) return;
    const p = route.param;
    switch (route.op) {
      case 'images.initializeUpload': return initializeImage(req, res, token, version);
      case 'videos.initializeUpload': return initializeVideo(req, res, token, version);
      case 'videos.finalizeUpload': return finalizeVideo(req, res, token, version, armedMode === 'video_processing_failed');
      case 'videos.get': {
        const video = videos.get(p!);
        if (!video) return notFound(res, `Video ${p}`);
        if (!mayActAs(token, video.owner)) return accessDenied(res, 'videos.GET', version);
        const { urn, owner, status, processingFailureReason, thumbnail } = settle(video);
        return sendJson(res, 200, {
          id: urn, owner, status, ...(processingFailureReason ? { processingFailureReason } : {}),
          ...(status === 'AVAILABLE' ? { downloadUrl: `${s.origin}/media/${encodeURIComponent(urn)}`, ...(thumbnail ? { thumbnail: `${s.origin}/media/${encodeURIComponent(urn)}/thumbnail` } : {}) } : {}),
        });
      }
      case 'images.get': {
        const image = images.get(p!);
        if (!image) return notFound(res, `Image ${p}`);
        if (!mayActAs(token, image.owner)) return accessDenied(res, 'images.GET', version);
        return sendJson(res, 200, { id: image.urn, owner: image.owner, status: image.status });
      }
      case 'posts.create': return createPost(req, res, token, version);
      case 'posts.get': {
        const post = posts.find((x) => x.id === p);
        if (!post) return notFound(res, `Post ${p}`);
        const { id, author, commentary, visibility, distribution, content, lifecycleState, isReshareDisabledByAuthor, createdAt } = post;
        return sendJson(res, 200, {
          id, author, commentary, visibility, distribution, ...(content ? { content } : {}), lifecycleState, isReshareDisabledByAuthor, createdAt,
          publishedAt: createdAt, lastModifiedAt: post.lastModifiedAt ?? createdAt, ...(post.reshareOf ? { reshareContext: { parent: post.reshareOf } } : {}),
        });
      }
      case 'comments.create': return createComment(req, res, token, p!, version);
      case 'posts.findByAuthor': return findPostsByAuthor(s, req, res, token, version);
      case 'organizations.batchGet': return batchGetOrganizations(s, req, res);
      case 'images.batchGet': return batchGetMedia(s, req, res, 'images', settle);
      case 'videos.batchGet': return batchGetMedia(s, req, res, 'videos', settle);
      case 'documents.initializeUpload': return media.documents.initialize(req, res, token, version);
      case 'documents.get': return media.documents.get(res, token, p!, version);
      case 'posts.update': return postOps.updatePost(req, res, token, p!, version);
      case 'posts.delete': return postOps.deletePost(res, token, p!, version);
      case 'shareStatistics': return analytics.shareStatistics(req, res, token, version);
      case 'pageStatistics': return analytics.pageStatistics(req, res, token, version);
      case 'networkSizes': return analytics.networkSize(req, res, token, p!, version);
      case 'organizationAcls': {
        if (req.query.q !== 'roleAssignee') return badRequest(res, 'Query parameter q must be roleAssignee');
        if (!token.scope.includes('r_organization_admin') && !token.scope.includes('rw_organization_admin')) return accessDenied(res, 'organizationAcls.FINDER-roleAssignee', version);
        const member = accounts.get(token.sub)!;
        const elements = member.pages
          .filter((page) => !req.query.role || req.query.role === page.role)
          .map((page) => ({ roleAssignee: member.urn, state: 'APPROVED', role: page.role, organization: `urn:li:organization:${page.id}` }));
        return sendJson(res, 200, { elements, paging: { count: 10, start: 0, total: elements.length, links: [] } });
      }
      default:
        if (linkedinCommentRoute(s, route.op, req, res, token, p ?? '', version)) return;
        return notFound(res, `Resource ${req.method} ${req.path}`);
    }
  }

  function classify(req: SimRequest): Route {
    const { method, path } = req;
    const action = req.query.action;
    if (path === '/oauth/v2/authorization') return { name: 'authorize' };
    if (path === '/oauth/v2/accessToken') return { name: 'token' };
    if (path === '/v2/userinfo' && method === 'GET') return { name: 'userinfo' };
    const up = /^\/dms-uploads\/([0-9a-f]+)$/.exec(path);
    if (up) return { name: 'upload', id: up[1]! };
    if (!path.startsWith('/rest/')) return { name: 'unknown' };
    const rest = path.slice('/rest'.length);
    const one = (re: RegExp) => { const m = re.exec(rest); return m ? decodeURIComponent(m[1]!) : undefined; };
    let op = 'unknown';
    let param: string | undefined;
    if (method === 'POST' && rest === '/images' && action === 'initializeUpload') op = 'images.initializeUpload';
    else if (method === 'POST' && rest === '/videos' && action === 'initializeUpload') op = 'videos.initializeUpload';
    else if (method === 'POST' && rest === '/videos' && action === 'finalizeUpload') op = 'videos.finalizeUpload';
    else if (method === 'POST' && rest === '/posts') op = 'posts.create';
    else if (method === 'POST' && rest === '/documents' && action === 'initializeUpload') op = 'documents.initializeUpload';
    else if (method === 'GET' && (param = one(/^\/documents\/([^/]+)$/))) op = 'documents.get';
    else if (method === 'GET' && rest === '/organizationAcls') op = 'organizationAcls';
    else if (method === 'GET' && rest === '/organizationalEntityShareStatistics') op = 'shareStatistics';
    else if (method === 'GET' && rest === '/organizationPageStatistics') op = 'pageStatistics';
    else if (method === 'GET' && (param = one(/^\/networkSizes\/([^/]+)$/))) op = 'networkSizes';
    else if (method === 'GET' && rest === '/posts') op = 'posts.findByAuthor';
    else if (method === 'GET' && rest === '/organizations') op = 'organizations.batchGet';
    else if (method === 'GET' && (rest === '/images' || rest === '/videos')) op = `${rest.slice(1)}.batchGet`;
    else if (method === 'GET' && (param = one(/^\/videos\/([^/]+)$/))) op = 'videos.get';
    else if (method === 'GET' && (param = one(/^\/images\/([^/]+)$/))) op = 'images.get';
    else if (method === 'GET' && (param = one(/^\/posts\/([^/]+)$/))) op = 'posts.get';
    else if (method === 'POST' && (param = one(/^\/posts\/([^/]+)$/))) op = 'posts.update';
    else if (method === 'DELETE' && (param = one(/^\/posts\/([^/]+)$/))) op = 'posts.delete';
    else if (method === 'POST' && (param = one(/^\/socialActions\/([^/]+)\/comments$/))) op = 'comments.create';
    else if (method === 'GET' && (param = one(/^\/socialActions\/([^/]+)\/comments$/))) op = 'comments.list';
    else if (method === 'DELETE' && /^\/socialActions\/[^/]+\/comments\/[^/]+$/.test(rest)) {
      const [, urn, id] = /^\/socialActions\/([^/]+)\/comments\/([^/]+)$/.exec(rest)!;
      op = 'comments.delete';
      param = `${decodeURIComponent(urn!)}\n${decodeURIComponent(id!)}`;
    }
    return { name: 'rest', op, ...(param !== undefined ? { param } : {}) };
  }

  return { restRoute, classify };
}
