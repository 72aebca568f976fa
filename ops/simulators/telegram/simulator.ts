/**
 * Loopback simulator of the Telegram Bot API (core.telegram.org/bots/api): `/bot<token>/<method>`
 * for getMe, getChat, getChatMember and sendMessage, parameters by query string, JSON, urlencoded or
 * multipart as Telegram accepts, and Telegram's `{ok:false, error_code, description, parameters}`.
 */
import type { ServerResponse } from 'node:http';
import { createSeededSource, sendJson, sendText, startSimulatorHost, type RecordedRequest, type SimRequest } from '../kit/http';

export const TELEGRAM_FAILURE_MODES = ['revoked', 'rate_limited', 'server_error', 'bad_gateway'] as const;
export type TelegramFailureMode = (typeof TELEGRAM_FAILURE_MODES)[number];
/** What a rate_limited failure answers in `parameters.retry_after` (seconds). */
export const TELEGRAM_SIM_RETRY_AFTER_SECONDS = 2;
const MAX_TEXT = 4096;

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
  text: string;
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

  function sendMessage(params: Record<string, unknown>, bot: Bot): TelegramMessage {
    const chat = requireChat(params, bot);
    const status = memberOf(chat.id, bot.id);
    const kind = chat.type === 'group' ? 'group' : chat.type === 'supergroup' ? 'supergroup' : 'channel';
    if (status.status === 'left') throw new ApiError(403, `Forbidden: bot is not a member of the ${kind} chat`);
    if (status.status === 'kicked') throw new ApiError(403, `Forbidden: bot was kicked from the ${kind} chat`);
    if (chat.type === 'channel' && (status.status === 'member' || (status.status === 'administrator' && status.can_post_messages === false))) {
      throw badRequest('need administrator rights in the channel chat');
    }
    const text = params.text === undefined || params.text === null ? '' : String(params.text);
    if (text.trim() === '') throw badRequest('message text is empty');
    if ([...text].length > MAX_TEXT) throw badRequest('message is too long');

    const messageId = (lastMessageId.get(chat.id) ?? 0) + 1;
    lastMessageId.set(chat.id, messageId);
    const message: TelegramMessage = {
      message_id: messageId,
      ...(chat.type === 'channel' ? { sender_chat: chatView(chat) } : { from: botUser(bot) }),
      chat: chatView(chat),
      date: Math.floor(Date.now() / 1000),
      text,
    };
    stored.push(message);
    return structuredClone(message);
  }

  function call(method: string, params: Record<string, unknown>, bot: Bot): unknown {
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
        return sendJson(res, 200, { ok: true, result: call(route[2]!.toLowerCase(), input, bot) });
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
