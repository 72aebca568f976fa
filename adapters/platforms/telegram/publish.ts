/**
 * Publishing to a Telegram chat: text with sendMessage (longer text split into several messages,
 * with a warning), one photo with sendPhoto, 2-10 photos as an album with sendMediaGroup, a video
 * with sendVideo. Files are uploaded as multipart parts (`attach://<name>` in albums). A caption
 * over 1,024 characters goes before the media as text message(s), with a warning.
 */
import { PlatformError } from '../../../core/domain/errors';
import { textLengthOf, type MediaRef, type PublishContext, type PublishOutcome, type PublishPost, type Publisher } from '../../../core/ports/platform';
import { collectBytes, isObject, type Json } from '../kit/http';
import type { TelegramClient, TgChat, TgMessage } from './client';
import {
  TELEGRAM_ALBUM_MAX, TELEGRAM_CAPTION_MAX, TELEGRAM_FILE_MAX_BYTES, TELEGRAM_MESSAGE_MAX, TELEGRAM_PHOTO_MAX_BYTES, telegramDescriptor,
} from './descriptor';

/** Public chats link by username; private supergroups and channels by `t.me/c/<id without -100>`. */
function messageUrl(chat: TgChat, messageId: number): string | undefined {
  if (chat.username) return `https://t.me/${chat.username}/${messageId}`;
  const id = String(chat.id);
  return id.startsWith('-100') ? `https://t.me/c/${id.slice(4)}/${messageId}` : undefined;
}

/**
 * Splits text into pieces of at most `max` code points, at a paragraph break if one is in the
 * second half of the piece, else a line break, else a space, else anywhere. Nothing is lost: the
 * pieces joined back with their separators are the text.
 */
export function splitText(text: string, max: number): string[] {
  const parts: string[] = [];
  let rest = [...text];
  while (rest.length > max) {
    const window = rest.slice(0, max).join('');
    const floor = Math.floor(window.length / 2);
    let cut = -1;
    for (const sep of ['\n\n', '\n', ' ']) {
      const at = window.lastIndexOf(sep);
      if (at >= floor) { cut = at; break; }
    }
    const head = cut > 0 ? window.slice(0, cut) : window;
    const headPoints = [...head].length;
    parts.push(head.replace(/\s+$/, ''));
    rest = rest.slice(headPoints);
    while (rest.length && /\s/.test(rest[0]!)) rest.shift();
  }
  if (rest.length) parts.push(rest.join(''));
  return parts.filter((p) => p.trim() !== '');
}

const isMessage = (r: unknown) => isObject(r) && typeof r.message_id === 'number' && isObject(r.chat);
const isMessageList = (r: unknown) => Array.isArray(r) && r.length > 0 && r.every(isMessage);

export function createTelegramPublisher(client: TelegramClient): Publisher {
  const textMaxChars = telegramDescriptor.limits.textMaxChars!;

  function refuse(code: string, message: string): never {
    throw new PlatformError('telegram', { kind: 'invalid_content', code }, message);
  }

  function check(post: PublishPost): void {
    const length = textLengthOf(telegramDescriptor, post.title);
    if (length > textMaxChars) {
      refuse('text_too_long', `Telegram posts are limited to ${textMaxChars} characters (${textMaxChars / TELEGRAM_MESSAGE_MAX} messages of ${TELEGRAM_MESSAGE_MAX}); this text has ${length}.`);
    }
    if (post.kind === 'text') {
      if (post.media.length) throw new PlatformError('telegram', { kind: 'unsupported' }, 'A Telegram text post carries no media.');
      if (post.title.trim() === '') refuse('text_empty', 'Telegram cannot send an empty message.');
      return;
    }
    const videos = post.media.filter((m) => m.kind === 'video');
    if (post.kind === 'video' && (videos.length !== 1 || post.media.length !== 1)) refuse('media_required', 'A Telegram video post takes exactly one video.');
    if (post.kind === 'photo' && (videos.length || post.media.length === 0)) refuse('media_required', `A Telegram photo post takes 1 to ${TELEGRAM_ALBUM_MAX} photos and no video.`);
    if (post.media.length > TELEGRAM_ALBUM_MAX) refuse('too_many_photos', `A Telegram album holds at most ${TELEGRAM_ALBUM_MAX} photos; ${post.media.length} sent.`);
    for (const [i, m] of post.media.entries()) {
      const max = m.kind === 'image' ? TELEGRAM_PHOTO_MAX_BYTES : TELEGRAM_FILE_MAX_BYTES;
      if (m.size > max) refuse(m.kind === 'image' ? 'photo_too_large' : 'video_too_large', `Telegram bots upload ${m.kind === 'image' ? 'photos' : 'videos'} of at most ${max / 1e6} MB; item ${i + 1} is ${(m.size / 1e6).toFixed(1)} MB.`);
    }
  }

  /** Options every send method takes. */
  function common(post: PublishPost, chatId: string): Json {
    const s = post.settings;
    return {
      chat_id: chatId,
      ...(typeof s.telegram_message_thread_id === 'number' ? { message_thread_id: s.telegram_message_thread_id } : {}),
      ...(s.telegram_disable_notification === true ? { disable_notification: true } : {}),
      ...(s.telegram_protect_content === true ? { protect_content: true } : {}),
    };
  }

  async function fileOf(ctx: PublishContext, media: MediaRef, name: string): Promise<Blob> {
    const max = media.kind === 'image' ? TELEGRAM_PHOTO_MAX_BYTES : TELEGRAM_FILE_MAX_BYTES;
    const bytes = await collectBytes(ctx.media.read(media.id), max);
    if (!bytes) refuse('payload_too_large', `${name} is over Telegram's upload limit for bots.`);
    return new Blob([bytes], { type: media.contentType });
  }

  const fileName = (media: MediaRef, index: number) =>
    `${media.kind === 'video' ? 'video' : 'photo'}${index}.${media.contentType.split('/')[1]?.replace('jpeg', 'jpg').replace('quicktime', 'mov') ?? 'bin'}`;

  /** Multipart form of scalar options (objects and arrays as JSON, as the Bot API reads them). */
  function form(fields: Json): FormData {
    const f = new FormData();
    for (const [key, value] of Object.entries(fields)) {
      if (value === undefined) continue;
      f.append(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
    }
    return f;
  }

  async function sendTexts(ctx: PublishContext, post: PublishPost, chatId: string, token: string, text: string): Promise<TgMessage[]> {
    const sent: TgMessage[] = [];
    for (const part of splitText(text, TELEGRAM_MESSAGE_MAX)) {
      // No parse_mode: the text is sent literally. The Bot API takes no idempotency key.
      sent.push(await client.call(token, 'sendMessage', {
        ...common(post, chatId), text: part,
        ...(post.settings.telegram_disable_link_preview === true ? { link_preview_options: { is_disabled: true } } : {}),
      }, isMessage, ctx.signal) as TgMessage);
    }
    return sent;
  }

  async function sendMedia(ctx: PublishContext, post: PublishPost, chatId: string, token: string, caption: string | undefined): Promise<TgMessage[]> {
    const s = post.settings;
    const spoiler = s.telegram_has_spoiler === true ? { has_spoiler: true } : {};
    const above = caption && s.telegram_show_caption_above_media === true ? { show_caption_above_media: true } : {};
    const captionField = caption ? { caption } : {};
    if (post.media.length === 1) {
      const media = post.media[0]!;
      const video = media.kind === 'video';
      const f = form({
        ...common(post, chatId), ...captionField, ...above, ...spoiler,
        ...(video ? {
          supports_streaming: true,
          ...(media.info?.width ? { width: media.info.width } : {}),
          ...(media.info?.height ? { height: media.info.height } : {}),
          ...(media.info?.durationSeconds ? { duration: Math.round(media.info.durationSeconds) } : {}),
        } : {}),
      });
      f.append(video ? 'video' : 'photo', await fileOf(ctx, media, video ? 'The video' : 'The photo'), fileName(media, 0));
      return [await client.call(token, video ? 'sendVideo' : 'sendPhoto', f, isMessage, ctx.signal) as TgMessage];
    }
    // An album: the caption on the first item is the album's caption.
    const items = post.media.map((media, i) => ({
      type: media.kind === 'video' ? 'video' : 'photo', media: `attach://file${i}`, ...spoiler, ...(i === 0 ? { ...captionField, ...above } : {}),
    }));
    const f = form({ ...common(post, chatId), media: items });
    for (const [i, media] of post.media.entries()) f.append(`file${i}`, await fileOf(ctx, media, `Photo ${i + 1}`), fileName(media, i));
    return await client.call(token, 'sendMediaGroup', f, isMessageList, ctx.signal) as TgMessage[];
  }

  async function send(ctx: PublishContext, post: PublishPost): Promise<PublishOutcome> {
    const { bot_token: token, chat_id: chatId } = ctx.credentials;
    if (!token || !chatId) {
      throw new PlatformError('telegram', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored Telegram bot is incomplete; reconnect the account.');
    }
    // Checked here with the descriptor's count, so nothing is sent that must fail.
    check(post);
    const warnings: string[] = [];
    const text = post.title;
    const length = textLengthOf(telegramDescriptor, text);
    let messages: TgMessage[];
    if (post.kind === 'text') {
      messages = await sendTexts(ctx, post, chatId, token, text);
      if (messages.length > 1) warnings.push(`The text has ${length} characters, over Telegram's ${TELEGRAM_MESSAGE_MAX} per message: it was sent as ${messages.length} messages.`);
    } else if (length > TELEGRAM_CAPTION_MAX) {
      const texts = await sendTexts(ctx, post, chatId, token, text);
      messages = [...texts, ...await sendMedia(ctx, post, chatId, token, undefined)];
      warnings.push(`The caption has ${length} characters, over Telegram's ${TELEGRAM_CAPTION_MAX} for media: it was sent as ${texts.length === 1 ? 'a text message' : `${texts.length} text messages`} before the media.`);
    } else {
      messages = await sendMedia(ctx, post, chatId, token, text.trim() ? text : undefined);
    }
    const first = messages[0]!;
    return {
      postId: String(first.message_id),
      url: messageUrl(first.chat, first.message_id),
      warnings,
      ...(messages.length > 1 ? { extra: { message_ids: messages.map((m) => String(m.message_id)) } } : {}),
    };
  }

  return {
    async publish(ctx, post) {
      return { kind: 'done', outcome: await send(ctx, post) };
    },
  };
}
