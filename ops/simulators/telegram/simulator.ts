/**
 * Loopback simulator of the Telegram Bot API (core.telegram.org/bots/api): `/bot<token>/<method>`
 * for getMe, getChat, getChatMember, sendMessage, sendPhoto, sendVideo and sendMediaGroup, parameters
 * by query string, JSON, urlencoded or multipart as Telegram accepts (files as multipart parts, named
 * directly or through `attach://<part>`), Telegram's size and count checks, and its
 * `{ok:false, error_code, description, parameters}`.
 */
import type { ServerResponse } from 'node:http';
import { createSeededSource, sendJson, sendText, startSimulatorHost, type MultipartPart, type RecordedRequest, type SimRequest } from '../kit/http';

export const TELEGRAM_FAILURE_MODES = ['revoked', 'rate_limited', 'server_error', 'bad_gateway'] as const;
export type TelegramFailureMode = (typeof TELEGRAM_FAILURE_MODES)[number];
/** What a rate_limited failure answers in `parameters.retry_after` (seconds). */
export const TELEGRAM_SIM_RETRY_AFTER_SECONDS = 2;
const MAX_TEXT = 4096;
const MAX_CAPTION = 1024;
/** Bot API upload limits: photos 10 MB, other files 50 MB (bigger requests answer 413). */
export const TELEGRAM_SIM_PHOTO_MAX_BYTES = 10 * 1000 * 1000;
export const TELEGRAM_SIM_FILE_MAX_BYTES = 50 * 1000 * 1000;

export type TelegramChatType = 'channel' | 'supergroup' | 'group';
export type TelegramMemberStatus = 'creator' | 'administrator' | 'member' | 'left' | 'kicked';

export interface TelegramChatFixture {
  id: number;
  type: TelegramChatType;
  title: string;
  username?: string;
}

interface TelegramUser { id: number; is_bot: boolean; first_name: string; username?: string }

/** A message as sendMessage returns it. */
export interface TelegramMessage {
  message_id: number;
  date: number;
  chat: TelegramChatFixture;
  /** Channel posts are sent on behalf of the chat. */
  sender_chat?: TelegramChatFixture;
  /** Group messages come from the bot. */
  from?: TelegramUser;
  text?: string;
  caption?: string;
  photo?: Array<{ file_id: string; file_unique_id: string; file_size: number; width: number; height: number }>;
  video?: { file_id: string; file_unique_id: string; file_size: number; mime_type?: string; width: number; height: number; duration: number };
  media_group_id?: string;
  has_media_spoiler?: true;
  /** What the bot asked for (not part of Telegram's answer, kept for tests): message options sent. */
  options?: Record<string, unknown>;
}

export interface TelegramSimulatorOptions {
  port?: number;
  /** Fixture ids and tokens derive from it: same seed and same calls, same credentials. Default random. */
  seed?: string;
}

export interface TelegramSimulator {
  port: number;
  /** `http://127.0.0.1:PORT`: the adapter's `apiBase`; API calls at `/bot<token>/<method>`. */
  baseUrl: string;
  origin: string;
  createBot(input: { username: string; firstName?: string }): { id: number; token: string };
  createChat(input: { id?: number; type: TelegramChatType; title: string; username?: string }): TelegramChatFixture;
  /** Sets a user's (usually a bot's) membership in a chat. Unset members are `left`. */
  setMember(chatId: number | string, userId: number, status: TelegramMemberStatus, extra?: { can_post_messages?: boolean }): void;
  messages(chatId?: number | string): TelegramMessage[];
  /** Invalidates a token as @BotFather's /revoke does: every call with it answers 401. */
  revokeToken(token: string): void;
  fail(mode: TelegramFailureMode, times?: number): void;
  setLatency(ms: number): void;
  readonly requests: RecordedRequest[];
  state(): Record<string, unknown>;
  /** Clears stored messages, queued failures, latency and recorded requests; bots, chats and members stay. */
  reset(): void;
  close(): Promise<void>;
}

interface Bot { id: number; token: string; username: string; firstName: string }
interface Member { status: TelegramMemberStatus; can_post_messages?: boolean }

class ApiError {
  constructor(readonly status: number, readonly description: string, readonly parameters?: Record<string, unknown>) {}
}

const badRequest = (what: string) => new ApiError(400, `Bad Request: ${what}`);

export async function startTelegramSimulator(opts: TelegramSimulatorOptions = {}): Promise<TelegramSimulator> {
  const seeded = createSeededSource(opts.seed);
  const bots = new Map<string, Bot>();
  const revoked = new Set<string>();
  const chats = new Map<number, TelegramChatFixture>();
  const members = new Map<string, Member>();
  const stored: TelegramMessage[] = [];
  const lastMessageId = new Map<number, number>();

  const memberOf = (chatId: number, userId: number): Member => members.get(`${chatId}:${userId}`) ?? { status: 'left' };
  const chatView = (chat: TelegramChatFixture): TelegramChatFixture => ({ ...chat });
  const botUser = (bot: Bot): TelegramUser => ({ id: bot.id, is_bot: true, first_name: bot.firstName, username: bot.username });

  function findChat(ref: unknown): TelegramChatFixture | undefined {
    if (typeof ref === 'number') return chats.get(ref);
    if (typeof ref !== 'string') return undefined;
    if (ref.startsWith('@')) {
      const name = ref.slice(1).toLowerCase();
      return [...chats.values()].find((c) => c.username?.toLowerCase() === name);
    }
    return /^-?\d+$/.test(ref) ? chats.get(Number(ref)) : undefined;
  }

  function requireChat(params: Record<string, unknown>, bot: Bot): TelegramChatFixture {
    const ref = params.chat_id;
    if (ref === undefined || ref === null || ref === '') throw badRequest('chat_id is empty');
    const chat = findChat(ref);
    // A private chat the bot is not in is invisible to it; public ones resolve by @username.
    const status = chat && memberOf(chat.id, bot.id).status;
    if (!chat || (!chat.username && (status === 'left' || status === 'kicked'))) throw badRequest('chat not found');
    return chat;
  }

  function userIdParam(params: Record<string, unknown>): number {
    const raw = params.user_id;
    const id = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isSafeInteger(id) || id <= 0) throw badRequest('invalid user_id specified');
    return id;
  }

  function chatMember(chat: TelegramChatFixture, userId: number) {
    const bot = [...bots.values()].find((b) => b.id === userId);
    const user: TelegramUser = bot ? botUser(bot) : { id: userId, is_bot: false, first_name: 'User' };
    const member = memberOf(chat.id, userId);
    switch (member.status) {
      case 'creator': return { status: 'creator', user, is_anonymous: false };
      case 'administrator': {
        const channelRights = chat.type === 'channel'
          ? { can_post_messages: member.can_post_messages !== false, can_edit_messages: true }
          : { can_pin_messages: true };
        return {
          status: 'administrator', user, can_be_edited: false, is_anonymous: false, can_manage_chat: true,
          can_delete_messages: true, can_manage_video_chats: true, can_restrict_members: true, can_promote_members: false,
          can_change_info: true, can_invite_users: true, ...channelRights,
        };
      }
      case 'kicked': return { status: 'kicked', user, until_date: 0 };
      default: return { status: member.status, user };
    }
  }

  /** The chat the bot may post to, or the Bot API's refusal. */
  function postableChat(params: Record<string, unknown>, bot: Bot): TelegramChatFixture {
    const chat = requireChat(params, bot);
    const status = memberOf(chat.id, bot.id);
    const kind = chat.type === 'group' ? 'group' : chat.type === 'supergroup' ? 'supergroup' : 'channel';
    if (status.status === 'left') throw new ApiError(403, `Forbidden: bot is not a member of the ${kind} chat`);
    if (status.status === 'kicked') throw new ApiError(403, `Forbidden: bot was kicked from the ${kind} chat`);
    if (chat.type === 'channel' && (status.status === 'member' || (status.status === 'administrator' && status.can_post_messages === false))) {
      throw badRequest('need administrator rights in the channel chat');
    }
    return chat;
  }

  const OPTIONS = ['disable_notification', 'protect_content', 'message_thread_id', 'link_preview_options', 'show_caption_above_media', 'supports_streaming'];
  const optionsOf = (params: Record<string, unknown>) => Object.fromEntries(OPTIONS.filter((k) => params[k] !== undefined).map((k) => [k, params[k]]));

  function store(chat: TelegramChatFixture, bot: Bot, content: Partial<TelegramMessage>): TelegramMessage {
    const messageId = (lastMessageId.get(chat.id) ?? 0) + 1;
    lastMessageId.set(chat.id, messageId);
    const message: TelegramMessage = {
      message_id: messageId,
      ...(chat.type === 'channel' ? { sender_chat: chatView(chat) } : { from: botUser(bot) }),
      chat: chatView(chat),
      date: Math.floor(Date.now() / 1000),
      ...content,
    };
    stored.push(message);
    const { options: _options, ...answer } = message;
    return structuredClone(answer);
  }

  function sendMessage(params: Record<string, unknown>, bot: Bot): TelegramMessage {
    const chat = postableChat(params, bot);
    const text = params.text === undefined || params.text === null ? '' : String(params.text);
    if (text.trim() === '') throw badRequest('message text is empty');
    if ([...text].length > MAX_TEXT) throw badRequest('message is too long');
    return store(chat, bot, { text, options: optionsOf(params) });
  }

  function captionOf(params: Record<string, unknown>): string | undefined {
    const caption = params.caption === undefined || params.caption === null ? '' : String(params.caption);
    if ([...caption].length > MAX_CAPTION) throw badRequest('message caption is too long');
    return caption === '' ? undefined : caption;
  }

  const fileIds = (kind: string) => {
    const bytes = seeded(`file-${kind}`);
    return { file_id: `${kind === 'photo' ? 'AgAC' : 'BAAC'}${bytes.toString('base64url').slice(0, 60)}`, file_unique_id: `AQAD${bytes.subarray(40).toString('base64url').slice(0, 12)}` };
  };

  /** An uploaded file: a part named directly (`photo`) or referenced as `attach://<part>`. Strings that are not attach:// are file_ids or URLs, which the simulator does not hold. */
  function uploaded(value: unknown, field: string, files: Map<string, MultipartPart>): MultipartPart {
    const direct = files.get(field);
    if (direct && (value === undefined || value === '')) return direct;
    if (typeof value === 'string' && value.startsWith('attach://')) {
      const part = files.get(value.slice('attach://'.length));
      if (part) return part;
    }
    throw badRequest('wrong file identifier/HTTP URL specified');
  }

  /** JPEG, PNG or WebP by their magic bytes; anything else fails as Telegram's image processing does. */
  function imageSize(data: Buffer): { width: number; height: number } {
    if (data.length > TELEGRAM_SIM_PHOTO_MAX_BYTES) throw badRequest('file is too big');
    if (data[0] === 0x89 && data.subarray(1, 4).toString('latin1') === 'PNG') return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
    if (data.subarray(0, 4).toString('latin1') === 'RIFF' && data.subarray(8, 12).toString('latin1') === 'WEBP') return { width: 0, height: 0 };
    if (data[0] === 0xff && data[1] === 0xd8) {
      for (let i = 2; i + 9 < data.length;) {
        if (data[i] !== 0xff) { i++; continue; }
        const marker = data[i + 1]!;
        if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
          return { height: data.readUInt16BE(i + 5), width: data.readUInt16BE(i + 7) };
        }
        i += 2 + data.readUInt16BE(i + 2);
      }
      return { width: 0, height: 0 };
    }
    throw badRequest('IMAGE_PROCESS_FAILED');
  }

  function photoOf(part: MultipartPart): NonNullable<TelegramMessage['photo']> {
    const { width, height } = imageSize(part.data);
    if (width && height && (width + height > 10000 || Math.max(width / height, height / width) > 20)) throw badRequest('PHOTO_INVALID_DIMENSIONS');
    const scale = (max: number) => (Math.max(width, height) > max ? max / Math.max(width, height) : 1);
    return [90, 320, 800, 1280].map((max) => ({
      ...fileIds('photo'), file_size: Math.round(part.data.length * scale(max) ** 2),
      width: Math.round(width * scale(max)), height: Math.round(height * scale(max)),
    }));
  }

  function videoOf(part: MultipartPart, params: Record<string, unknown>): NonNullable<TelegramMessage['video']> {
    if (part.data.length > TELEGRAM_SIM_FILE_MAX_BYTES) throw new ApiError(413, 'Request Entity Too Large');
    // An MP4/MOV has an ftyp box at offset 4.
    if (part.data.subarray(4, 8).toString('latin1') !== 'ftyp') throw badRequest('VIDEO_CONTENT_TYPE_INVALID');
    const int = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : 0);
    return {
      ...fileIds('video'), file_size: part.data.length, mime_type: 'video/mp4',
      width: int(params.width), height: int(params.height), duration: int(params.duration),
    };
  }

  function sendPhoto(params: Record<string, unknown>, files: Map<string, MultipartPart>, bot: Bot): TelegramMessage {
    const chat = postableChat(params, bot);
    const caption = captionOf(params);
    const photo = photoOf(uploaded(params.photo, 'photo', files));
    return store(chat, bot, { photo, ...(caption ? { caption } : {}), ...(truthy(params.has_spoiler) ? { has_media_spoiler: true } : {}), options: optionsOf(params) });
  }

  function sendVideo(params: Record<string, unknown>, files: Map<string, MultipartPart>, bot: Bot): TelegramMessage {
    const chat = postableChat(params, bot);
    const caption = captionOf(params);
    const video = videoOf(uploaded(params.video, 'video', files), params);
    return store(chat, bot, { video, ...(caption ? { caption } : {}), ...(truthy(params.has_spoiler) ? { has_media_spoiler: true } : {}), options: optionsOf(params) });
  }

  function sendMediaGroup(params: Record<string, unknown>, files: Map<string, MultipartPart>, bot: Bot): TelegramMessage[] {
    const chat = postableChat(params, bot);
    let media: unknown = params.media;
    if (typeof media === 'string') {
      try { media = JSON.parse(media); } catch { throw badRequest("can't parse media JSON object"); }
    }
    if (!Array.isArray(media)) throw badRequest("can't parse media JSON object");
    if (media.length < 2 || media.length > 10) throw badRequest('wrong number of media specified: 2-10 items are required');
    const items = media.map((raw, i) => {
      const item = raw && typeof raw === 'object' ? raw as Record<string, unknown> : {};
      if (item.type !== 'photo' && item.type !== 'video') throw badRequest(`can't parse InputMedia: media type ${String(item.type)} can't be used in a media group #${i}`);
      const caption = captionOf(item);
      const part = uploaded(item.media, '', files);
      return { type: item.type, part, caption, spoiler: truthy(item.has_spoiler), item };
    });
    // Every part is checked before any message exists: an album is sent whole or not at all.
    const contents = items.map((m) => (m.type === 'photo' ? { photo: photoOf(m.part) } : { video: videoOf(m.part, m.item) }));
    const groupId = String(13_000_000_000_000_000n + BigInt(seeded('media-group').readUInt32BE(0)));
    return items.map((m, i) => store(chat, bot, {
      ...contents[i], media_group_id: groupId, ...(m.caption ? { caption: m.caption } : {}), ...(m.spoiler ? { has_media_spoiler: true } : {}),
      options: optionsOf(params),
    }));
  }

  const truthy = (v: unknown) => v === true || v === 'true';

  function storedMessage(params: Record<string, unknown>, bot: Bot): { chat: TelegramChatFixture; index: number } {
    const chat = postableChat(params, bot);
    const id = typeof params.message_id === 'number' ? params.message_id : typeof params.message_id === 'string' && /^\d+$/.test(params.message_id) ? Number(params.message_id) : NaN;
    const index = stored.findIndex((m) => m.chat.id === chat.id && m.message_id === id);
    return { chat, index };
  }

  /** editMessageText edits a text message, editMessageCaption a media message's caption; each refuses the other kind. */
  function editMessage(method: string, params: Record<string, unknown>, bot: Bot): TelegramMessage {
    const { index } = storedMessage(params, bot);
    if (index < 0) throw badRequest('message to edit not found');
    const message = stored[index]!;
    if (method === 'editmessagetext') {
      if (message.text === undefined) throw badRequest('there is no text in the message to edit');
      const text = params.text === undefined || params.text === null ? '' : String(params.text);
      if (text.trim() === '') throw badRequest('message text is empty');
      if ([...text].length > MAX_TEXT) throw badRequest('MESSAGE_TOO_LONG');
      if (text === message.text) throw badRequest('message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message');
      message.text = text;
    } else {
      if (message.text !== undefined) throw badRequest('there is no caption in the message to edit');
      const caption = captionOf(params);
      if (caption === message.caption) throw badRequest('message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message');
      message.caption = caption;
      if (caption === undefined) delete message.caption;
    }
    (message as TelegramMessage & { edit_date?: number }).edit_date = Math.floor(Date.now() / 1000);
    const { options: _options, ...answer } = message;
    return structuredClone(answer);
  }

  function deleteMessage(params: Record<string, unknown>, bot: Bot): true {
    const { index } = storedMessage(params, bot);
    if (index < 0) throw badRequest('message to delete not found');
    stored.splice(index, 1);
    return true;
  }

  function call(method: string, params: Record<string, unknown>, bot: Bot, files: Map<string, MultipartPart> = new Map()): unknown {
    switch (method) {
      case 'getme':
        return { ...botUser(bot), can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: false, can_connect_to_business: false, has_main_web_app: false };
      case 'getchat':
        return { ...chatView(requireChat(params, bot)), accent_color_id: 0, max_reaction_count: 11 };
      case 'getchatmember': {
        const chat = requireChat(params, bot);
        return chatMember(chat, userIdParam(params));
      }
      case 'sendmessage':
        return sendMessage(params, bot);
      case 'sendphoto':
        return sendPhoto(params, files, bot);
      case 'sendvideo':
        return sendVideo(params, files, bot);
      case 'sendmediagroup':
        return sendMediaGroup(params, files, bot);
      case 'editmessagetext':
      case 'editmessagecaption':
        return editMessage(method, params, bot);
      case 'deletemessage':
        return deleteMessage(params, bot);
      default:
        throw new ApiError(404, 'Not Found');
    }
  }

  function params(req: SimRequest): Record<string, unknown> | ApiError {
    const body = req.body;
    switch (body.kind) {
      case 'json':
        if (body.value && typeof body.value === 'object' && !Array.isArray(body.value)) return { ...req.query, ...(body.value as Record<string, unknown>) };
        return badRequest('invalid JSON object');
      case 'form': return { ...req.query, ...body.fields };
      case 'multipart': return { ...req.query, ...body.fields };
      case 'invalid': return badRequest(body.reason);
      case 'too_large': return new ApiError(413, 'Request Entity Too Large');
      default: return { ...req.query };
    }
  }

  const fail = (res: ServerResponse, err: ApiError) =>
    sendJson(res, err.status, { ok: false, error_code: err.status, description: err.description, ...(err.parameters ? { parameters: err.parameters } : {}) });

  const host = await startSimulatorHost<TelegramFailureMode>({
    port: opts.port,
    maxBodyBytes: 50 * 1024 * 1024,
    failureModes: TELEGRAM_FAILURE_MODES,
    state: () => ({
      bots: [...bots.values()].map((b) => ({ id: b.id, username: b.username, revoked: revoked.has(b.token) })),
      chats: [...chats.values()],
      messageCount: stored.length,
    }),
    reset: () => { stored.length = 0; lastMessageId.clear(); },
    handle(req, res, failure) {
      const route = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(req.path);
      if (!route) return fail(res, new ApiError(404, 'Not Found'));
      switch (failure) {
        case 'revoked': return fail(res, new ApiError(401, 'Unauthorized'));
        case 'rate_limited':
          return fail(res, new ApiError(429, `Too Many Requests: retry after ${TELEGRAM_SIM_RETRY_AFTER_SECONDS}`, { retry_after: TELEGRAM_SIM_RETRY_AFTER_SECONDS }));
        case 'server_error': return fail(res, new ApiError(500, 'Internal Server Error'));
        case 'bad_gateway': return sendText(res, 502, '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>', 'text/html');
        case undefined: break;
      }
      const token = decodeURIComponent(route[1]!);
      if (!/^\d+:[\w-]+$/.test(token)) return fail(res, new ApiError(404, 'Not Found'));
      const bot = bots.get(token);
      if (!bot || revoked.has(token)) return fail(res, new ApiError(401, 'Unauthorized'));
      const input = params(req);
      if (input instanceof ApiError) return fail(res, input);
      try {
        // Bot API method names are case-insensitive.
        const files = new Map(req.body.kind === 'multipart' ? req.body.files.map((f) => [f.name, f] as const) : []);
        return sendJson(res, 200, { ok: true, result: call(route[2]!.toLowerCase(), input, bot, files) });
      } catch (err) {
        if (err instanceof ApiError) return fail(res, err);
        throw err;
      }
    },
  });

  return {
    port: host.port,
    origin: host.origin,
    baseUrl: host.origin,
    get requests() { return host.requests; },
    createBot(input) {
      const bytes = seeded('bot');
      const id = 6_000_000_000 + (bytes.readUInt32BE(0) % 1_000_000_000);
      const token = `${id}:AA${bytes.subarray(4).toString('base64url').slice(0, 33)}`;
      bots.set(token, { id, token, username: input.username, firstName: input.firstName ?? input.username });
      return { id, token };
    },
    createChat(input) {
      let id = input.id;
      if (id === undefined) {
        const n = seeded('chat').readUInt32BE(0);
        // Channels and supergroups have -100… ids; basic groups a plain negative id.
        id = input.type === 'group' ? -(100_000_000 + (n % 900_000_000)) : -Number(`100${1_000_000_000 + n}`);
      }
      const chat: TelegramChatFixture = { id, type: input.type, title: input.title, ...(input.username ? { username: input.username } : {}) };
      chats.set(id, chat);
      return { ...chat };
    },
    setMember(chatId, userId, status, extra = {}) {
      const chat = findChat(chatId);
      if (!chat) throw new Error(`no chat ${String(chatId)} in the simulator`);
      members.set(`${chat.id}:${userId}`, { status, ...extra });
    },
    messages(chatId) {
      const chat = chatId === undefined ? undefined : findChat(chatId);
      if (chatId !== undefined && !chat) return [];
      return stored.filter((m) => !chat || m.chat.id === chat.id).map((m) => structuredClone(m));
    },
    revokeToken(token) { revoked.add(token); },
    fail: (mode, times) => host.fail(mode, times),
    setLatency: (ms) => host.setLatency(ms),
    state: () => host.state(),
    reset: () => host.reset(),
    close: () => host.close(),
  };
}
