/**
 * Publishing with the Posts API (learn.microsoft.com/linkedin/marketing/community-management/shares/
 * posts-api): text and polls, single and multi-image posts, and videos, which LinkedIn processes
 * before a post may use them (polled with wait steps).
 */
import { PlatformError } from '../../../core/domain/errors';
import {
  textLengthOf, type PublishContext, type PublishOutcome, type PublishPost, type PublishStep, type Publisher,
} from '../../../core/ports/platform';
import { isObject, type Json } from '../kit/http';
import { mapLinkedInFailure, type LinkedInClient } from './client';
import { linkedinDescriptor } from './descriptor';
import { checkDocument, createLinkedInDocuments } from './documents';
import { createLinkedInMedia, type MediaOwner } from './uploads';
import { checkLinkedInSettings, parseOrganizationId } from './settings';
import { escapeLittleText, linkedinTitleLength, trimTitle } from './text';

const MEDIA_TITLE_MAX_UNITS = 400;

export const invalid = (message: string, code?: string) =>
  new PlatformError('linkedin', { kind: 'invalid_content', ...(code ? { code } : {}) }, message);

export const credentialsMissing = () =>
  new PlatformError('linkedin', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored LinkedIn credentials are incomplete; reconnect the account.');

const parseScopes = (raw: unknown): string[] => (typeof raw === 'string' ? raw.split(/[\s,]+/).filter(Boolean) : []);

/** What the publisher sends, worked out from the post before anything is sent. */
interface PostPlan extends MediaOwner {
  commentary: string;
  visibility: string;
  disableReshare: boolean;
  mediaTitle: string;
}

export function createLinkedInPublisher(client: LinkedInClient, opts: { videoPollMs: number; maxVideoPolls: number }): Publisher {
  const { limits } = linkedinDescriptor;
  const media = createLinkedInMedia(client);
  const documents = createLinkedInDocuments(client);

  function checkMedia(post: PublishPost): void {
    if (post.kind === 'document') {
      checkDocument(post.media);
      return;
    }
    if (post.kind === 'text') {
      if (post.media.length) throw invalid('A LinkedIn text post carries no media.');
      return;
    }
    if (post.kind === 'photo') {
      const { maxCount, contentTypes } = limits.photo!;
      if (!post.media.length) throw invalid('A LinkedIn photo post needs at least one image.');
      if (post.media.length > maxCount!) throw invalid(`LinkedIn takes at most ${maxCount} images in one post; got ${post.media.length}.`, 'too_many_images');
      const bad = post.media.find((m) => m.kind !== 'image' || !contentTypes!.includes(m.contentType));
      if (bad) throw invalid(`LinkedIn photo posts take ${contentTypes!.join(', ')} images; ${bad.filename ?? bad.id} is ${bad.contentType}.`, 'unsupported_media');
      return;
    }
    const video = post.media[0];
    const { maxBytes, minSeconds, maxSeconds, containers } = limits.video!;
    if (post.media.length !== 1 || video?.kind !== 'video') throw invalid('A LinkedIn video post takes exactly one video.');
    if (video.size > maxBytes!) throw invalid(`LinkedIn videos are limited to ${maxBytes! / 1024 / 1024} MB; this one has ${video.size} bytes.`, 'video_too_large');
    const seconds = video.info?.durationSeconds;
    if (typeof seconds === 'number' && (seconds < minSeconds! || seconds > maxSeconds!)) {
      throw invalid(`LinkedIn videos must last ${minSeconds} to ${maxSeconds} seconds; this one lasts ${seconds.toFixed(1)} s.`, 'video_duration');
    }
    const container = video.info?.container;
    if (container && !containers!.includes(container)) throw invalid(`LinkedIn takes MP4 videos; this one is ${container}.`, 'unsupported_media');
  }

  function plan(ctx: PublishContext, post: PublishPost): PostPlan {
    const token = ctx.credentials.access_token;
    const member = ctx.credentials.member_urn;
    if (!token || !member) throw credentialsMissing();
    const violation = checkLinkedInSettings(post.settings, { endpoint: post.kind, mediaCount: post.media.length })[0];
    if (violation) throw invalid(violation.message);

    const page = typeof post.settings.target_linkedin_page_id === 'string' ? parseOrganizationId(post.settings.target_linkedin_page_id) : undefined;
    const author = page ? `urn:li:organization:${page}` : member;
    const granted = parseScopes(ctx.credentials.scope);
    const needed = page ? 'w_organization_social' : 'w_member_social';
    if (granted.length && !granted.includes(needed)) {
      throw new PlatformError('linkedin', { kind: 'rejected', code: 'permission_denied' },
        page ? `Posting as LinkedIn page ${page} needs the ${needed} scope; reconnect the account with page access.`
          : `This LinkedIn connection lacks the ${needed} scope; reconnect the account.`);
    }

    const warnings: string[] = [];
    const description = typeof post.settings.linkedin_description === 'string' ? post.settings.linkedin_description : post.description;
    const text = post.kind === 'text' ? post.title : description ?? post.title;
    const length = textLengthOf(linkedinDescriptor, text);
    if (length > limits.textMaxChars!) {
      throw invalid(`LinkedIn commentary is limited to ${limits.textMaxChars} characters; this text has ${length}.`, 'text_too_long');
    }
    const poll = post.kind === 'text' && typeof post.settings.linkedin_poll_question === 'string';
    if (post.kind === 'text' && !poll && text.trim() === '') throw invalid('LinkedIn cannot publish an empty post.', 'text_empty');

    let mediaTitle = post.kind === 'text' ? '' : post.title;
    if (linkedinTitleLength(mediaTitle) > MEDIA_TITLE_MAX_UNITS) {
      mediaTitle = trimTitle(mediaTitle, MEDIA_TITLE_MAX_UNITS);
      warnings.push(`The LinkedIn media title was trimmed to ${MEDIA_TITLE_MAX_UNITS} characters (UTF-16 units, line breaks count as two).`);
    }
    checkMedia(post);
    return {
      token,
      author,
      commentary: escapeLittleText(text),
      visibility: typeof post.settings.visibility === 'string' ? post.settings.visibility : 'PUBLIC',
      disableReshare: post.settings.linkedin_disable_reshare === true,
      mediaTitle,
      warnings,
    };
  }

  async function createPost(ctx: PublishContext, p: PostPlan, content: Json | undefined): Promise<string> {
    const reply = await client.rest('POST', '/posts', p.token, {
      author: p.author,
      commentary: p.commentary,
      visibility: p.visibility,
      distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
      ...(content ? { content } : {}),
      lifecycleState: 'PUBLISHED',
      isReshareDisabledByAuthor: p.disableReshare,
    }, ctx.signal);
    const urn = reply.headers.get('x-restli-id');
    if (!urn) throw client.malformed(reply.status, 'the post URN (x-restli-id)');
    return urn;
  }

  const outcomeOf = (urn: string, warnings: string[], extra?: Record<string, unknown>): PublishOutcome => ({
    postId: urn,
    url: `https://www.linkedin.com/feed/update/${urn}`,
    warnings,
    ...(extra && Object.keys(extra).length ? { extra } : {}),
  });

  async function publishPhotos(ctx: PublishContext, post: PublishPost, p: PostPlan): Promise<PublishOutcome> {
    const alt = Array.isArray(post.settings.linkedin_alt_text) ? (post.settings.linkedin_alt_text as string[]) : [];
    const ids: string[] = [];
    for (const image of post.media) ids.push(await media.uploadImage(ctx, p, image));
    const withAlt = (id: string, i: number) => ({ id, ...(alt[i] ? { altText: alt[i] } : {}) });
    const content = ids.length === 1
      ? { media: { ...withAlt(ids[0]!, 0), ...(p.mediaTitle ? { title: p.mediaTitle } : {}) } }
      : { multiImage: { images: ids.map(withAlt) } };
    return outcomeOf(await createPost(ctx, p, content), p.warnings);
  }

  const waitForVideo = (state: Record<string, unknown>): PublishStep => ({ kind: 'wait', afterMs: opts.videoPollMs, state });

  async function publish(ctx: PublishContext, post: PublishPost): Promise<PublishStep> {
    const p = plan(ctx, post);
    if (post.kind === 'photo') return { kind: 'done', outcome: await publishPhotos(ctx, post, p) };
    if (post.kind === 'text') {
      const question = post.settings.linkedin_poll_question;
      const content = typeof question === 'string' ? {
        poll: {
          question,
          options: (post.settings.linkedin_poll_options as string[]).map((text) => ({ text })),
          settings: { duration: typeof post.settings.linkedin_poll_duration === 'string' ? post.settings.linkedin_poll_duration : 'SEVEN_DAYS' },
        },
      } : undefined;
      return { kind: 'done', outcome: outcomeOf(await createPost(ctx, p, content), p.warnings) };
    }
    if (post.kind === 'document') {
      const document = await documents.upload(ctx, p, checkDocument(post.media));
      // LinkedIn converts the file before a post may use it: come back and check.
      return waitForVideo({ document, polls: 0, warnings: p.warnings });
    }
    const { video, thumbnailError } = await media.uploadVideo(ctx, post, p);
    if (thumbnailError) p.warnings.push(`The thumbnail was not set (${thumbnailError}); the video was published without it.`);
    // LinkedIn processes the video before a post may use it: come back and check.
    return waitForVideo({ video, polls: 0, warnings: p.warnings, ...(thumbnailError ? { thumbnailError } : {}) });
  }

  async function resumeDocument(ctx: PublishContext, post: PublishPost, state: Record<string, unknown>, document: string): Promise<PublishStep> {
    const p = plan(ctx, post);
    const polls = (typeof state.polls === 'number' ? state.polls : 0) + 1;
    if (await documents.status(ctx, p.token, document) === 'pending') {
      if (polls >= opts.maxVideoPolls) throw new PlatformError('linkedin', { kind: 'transient' }, `LinkedIn was still processing the document ${document} after ${polls} checks; nothing was posted.`);
      return waitForVideo({ ...state, polls });
    }
    // A document post needs a title: the post's title, else the file name.
    const title = p.mediaTitle || post.media[0]?.filename || 'Document';
    const urn = await createPost(ctx, p, { media: { id: document, title } });
    return { kind: 'done', outcome: outcomeOf(urn, Array.isArray(state.warnings) ? state.warnings.map(String) : p.warnings, { document }) };
  }

  async function resume(ctx: PublishContext, post: PublishPost, state: Record<string, unknown>): Promise<PublishStep> {
    if (post.kind === 'document' && typeof state.document === 'string') return resumeDocument(ctx, post, state, state.document);
    const video = state.video;
    if (post.kind !== 'video' || typeof video !== 'string') throw new Error('LinkedIn resume needs the state of a video publish');
    const p = plan(ctx, post);
    const polls = (typeof state.polls === 'number' ? state.polls : 0) + 1;
    const reply = await client.rest('GET', `/videos/${encodeURIComponent(video)}`, p.token, undefined, ctx.signal);
    const status = isObject(reply.body) ? reply.body.status : undefined;
    if (status === 'PROCESSING_FAILED') {
      const reason = isObject(reply.body) && typeof reply.body.processingFailureReason === 'string' ? reply.body.processingFailureReason : undefined;
      throw mapLinkedInFailure({ kind: 'video_failed', video, reason }, { timeoutMs: client.timeoutMs, call: 'api', now: client.now() });
    }
    if (status !== 'AVAILABLE') {
      if (typeof status !== 'string') throw client.malformed(reply.status, 'the video status');
      if (polls >= opts.maxVideoPolls) throw mapLinkedInFailure({ kind: 'video_stuck', video, polls }, { timeoutMs: client.timeoutMs, call: 'api', now: client.now() });
      return waitForVideo({ ...state, polls });
    }
    const content = { media: { id: video, ...(p.mediaTitle ? { title: p.mediaTitle } : {}) } };
    const urn = await createPost(ctx, p, content);
    const warnings = Array.isArray(state.warnings) ? state.warnings.map(String) : p.warnings;
    return { kind: 'done', outcome: outcomeOf(urn, warnings, typeof state.thumbnailError === 'string' ? { thumbnail_error: state.thumbnailError } : undefined) };
  }

  return { publish, resume };
}
