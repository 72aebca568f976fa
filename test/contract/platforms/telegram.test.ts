import { noMedia } from '../../support/media-access';
import { HeraldError, PlatformError } from '../../../core/domain/errors';
import { textLengthOf, type PlatformAdapter, type PublishContext } from '../../../core/ports/platform';
import { createTelegramPlatform, mapTelegramFailure } from '../../../adapters/platforms/telegram';
import { splitText } from '../../../adapters/platforms/telegram/publish';
import { startTelegramSimulator, type TelegramSimulator } from '../../../ops/simulators/telegram';
import { resolveSettings } from '../../../core/domain/settings';
import type { MediaRef } from '../../../core/ports/platform';
import { mediaFixtures, FIXTURE_TIMEOUT_MS, type MediaFixtures } from '../../support/platform-harness';

let sim: TelegramSimulator;
let telegram: PlatformAdapter;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a rejection');
}

beforeAll(async () => {
  sim = await startTelegramSimulator();
  telegram = createTelegramPlatform({ apiBase: sim.baseUrl, timeoutMs: 5000 });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

let fixtureCount = 0;
/** A bot administering a public channel, with fresh names per test. */
function publicChannel(rights: { can_post_messages?: boolean } = { can_post_messages: true }) {
  const n = ++fixtureCount;
  const bot = sim.createBot({ username: `herald_test_${n}_bot`, firstName: 'Herald Test' });
  const chat = sim.createChat({ type: 'channel', title: `News ${n}`, username: `herald_news_${n}` });
  sim.setMember(chat.id, bot.id, 'administrator', rights);
  return { bot, chat };
}

const ctxFor = (token: string, chatId: number | string, extra: Partial<PublishContext> = {}): PublishContext =>
  ({ credentials: { bot_token: token, chat_id: String(chatId) }, idempotencyKey: 'idem-1', media: noMedia, ...extra });
const publish = async (ctx: PublishContext, text: string, adapter = telegram) => {
  const step = await adapter.publisher!.publish(ctx, { kind: 'text', title: text, media: [], settings: {} });
  if (step.kind !== 'done') throw new Error('a text post finishes in one step');
  return step.outcome;
};
const verify = (input: Record<string, unknown>) => telegram.credentials!.verify(input);

describe('descriptor', () => {
  it('declares a credentials network: text split in messages of 4096 (10 at most), albums of 10 photos, a video', () => {
    expect(telegram.descriptor).toMatchObject({
      id: 'telegram', connect: 'credentials', endpoints: ['text', 'photo', 'video'],
      limits: { textMaxChars: 40960, photo: { maxCount: 10, maxBytes: 10_000_000 }, video: { maxBytes: 50_000_000 } },
    });
  });

  it('counts text as the publisher does: code points', () => {
    expect(textLengthOf(telegram.descriptor, '😀'.repeat(4096))).toBe(4096);
  });

  it('declares the credential fields the connector reads (bot_token and chat_id, both required)', () => {
    expect(telegram.descriptor.credentialFields!.fields.map((f) => [f.name, f.type, f.required === true])).toEqual([
      ['bot_token', 'string', true],
      ['chat_id', 'string', true],
    ]);
  });
});

describe('verify', () => {
  it('runs getMe → getChat → getChatMember and returns the chat as the identity', async () => {
    const { bot, chat } = publicChannel();
    const verified = await verify({ bot_token: bot.token, chat_id: `@${chat.username}` });
    expect(verified).toEqual({
      identity: { platformUserId: String(chat.id), handle: `@${chat.username}`, displayName: chat.title, avatarUrl: '' },
      credentials: { bot_token: bot.token, chat_id: String(chat.id), chat_username: chat.username },
    });
    expect(String(chat.id)).toMatch(/^-100\d{10}$/);
    expect(sim.requests.map((r) => r.path.split('/').pop())).toEqual(['getMe', 'getChat', 'getChatMember']);
    expect(sim.requests[2]!.body).toEqual({ chat_id: chat.id, user_id: bot.id });
  });

  it('accepts a numeric chat id and a private supergroup where the bot is the creator', async () => {
    const bot = sim.createBot({ username: 'herald_private_bot' });
    const chat = sim.createChat({ type: 'supergroup', title: 'Team room' });
    sim.setMember(chat.id, bot.id, 'creator');
    const verified = await verify({ bot_token: bot.token, chat_id: chat.id });
    expect(verified.identity).toEqual({ platformUserId: String(chat.id), handle: 'Team room', displayName: 'Team room', avatarUrl: '' });
    expect(verified.credentials).toEqual({ bot_token: bot.token, chat_id: String(chat.id) });
  });

  it.each([
    ['a plain member of a supergroup', 'supergroup', 'member', {}],
    ['not in the public channel', 'channel', 'left', {}],
    ['an administrator without "Post messages"', 'channel', 'administrator', { can_post_messages: false }],
  ] as const)('refuses a bot that is %s as invalid_input', async (_label, type, status, extra) => {
    const bot = sim.createBot({ username: `herald_weak_${++fixtureCount}_bot` });
    const chat = sim.createChat({ type, title: 'Somewhere', username: `somewhere_${fixtureCount}` });
    sim.setMember(chat.id, bot.id, status, extra);
    const err = await rejection(verify({ bot_token: bot.token, chat_id: chat.id }));
    expect(err).toBeInstanceOf(HeraldError);
    expect(err).toMatchObject({ kind: 'invalid_input' });
    expect(err.message).toMatch(/add the bot as an administrator of the chat with permission to post/);
    expect(err.message).not.toContain(bot.token);
  });

  it('maps an unknown chat to a rejection (chat_not_found)', async () => {
    const { bot } = publicChannel();
    const err = await rejection(verify({ bot_token: bot.token, chat_id: '@no_such_channel' }));
    expect(err).toBeInstanceOf(PlatformError);
    expect(err).toMatchObject({ failure: { kind: 'rejected', code: 'chat_not_found' }, upstream: { status: 400 } });
  });

  it('a private chat the bot is not in is not found either', async () => {
    const bot = sim.createBot({ username: 'herald_outsider_bot' });
    const chat = sim.createChat({ type: 'channel', title: 'Secret' });
    await expect(verify({ bot_token: bot.token, chat_id: chat.id })).rejects.toMatchObject({ failure: { kind: 'rejected', code: 'chat_not_found' } });
  });

  it('maps a revoked token to auth_expired (token_revoked)', async () => {
    const { bot, chat } = publicChannel();
    sim.revokeToken(bot.token);
    await expect(verify({ bot_token: bot.token, chat_id: chat.id }))
      .rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'token_revoked' }, upstream: { status: 401 } });
  });

  it.each([
    ['a malformed token', { bot_token: 'not-a-token', chat_id: '-1001234567890' }],
    ['a missing chat_id', { bot_token: `123456:${'A'.repeat(35)}` }],
    ['a chat_id that is neither id nor @name', { bot_token: `123456:${'A'.repeat(35)}`, chat_id: 'https://t.me/+abc' }],
  ])('refuses %s as invalid_input without calling Telegram', async (_label, input) => {
    const field = input.bot_token === 'not-a-token' ? 'bot_token' : 'chat_id';
    await expect(verify(input)).rejects.toMatchObject({ kind: 'invalid_input', details: { field } });
    expect(sim.requests).toHaveLength(0);
  });
});

describe('publish (text)', () => {
  it('sends sendMessage with JSON {chat_id, text} and links the post in the public channel', async () => {
    const { bot, chat } = publicChannel();
    const text = 'Release 1.2 is out <b>not html</b> _not markdown_';
    const outcome = await publish(ctxFor(bot.token, chat.id), text);

    const stored = sim.messages(chat.id);
    expect(stored).toHaveLength(1);
    expect(stored[0]!.text).toBe(text);
    expect(outcome).toEqual({ postId: String(stored[0]!.message_id), url: `https://t.me/${chat.username}/${stored[0]!.message_id}`, warnings: [] });

    expect(sim.requests).toHaveLength(1);
    const [req] = sim.requests;
    expect(req).toMatchObject({ method: 'POST', path: `/bot${bot.token}/sendMessage` });
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.body).toEqual({ chat_id: String(chat.id), text });
  });

  it('links posts in a private supergroup with t.me/c/<id without -100>', async () => {
    const bot = sim.createBot({ username: 'herald_group_bot' });
    const chat = sim.createChat({ type: 'supergroup', title: 'Private room' });
    sim.setMember(chat.id, bot.id, 'administrator');
    const first = await publish(ctxFor(bot.token, chat.id), 'one');
    const second = await publish(ctxFor(bot.token, chat.id), 'two');
    expect(first.postId).toBe('1');
    expect(second).toEqual({ postId: '2', url: `https://t.me/c/${String(chat.id).slice(4)}/2`, warnings: [] });
  });

  it('accepts exactly 4096 characters', async () => {
    const { bot, chat } = publicChannel();
    await publish(ctxFor(bot.token, chat.id), 'y'.repeat(4096));
    expect(sim.messages(chat.id)[0]!.text).toHaveLength(4096);
  });

  it('splits 4097 characters into two messages at a word break, with a warning', async () => {
    const { bot, chat } = publicChannel();
    const text = `${'y'.repeat(3000)} ${'z'.repeat(1096)}`;
    const outcome = await publish(ctxFor(bot.token, chat.id), text);
    const messages = sim.messages(chat.id);
    expect(messages.map((m) => m.text)).toEqual(['y'.repeat(3000), 'z'.repeat(1096)]);
    expect(outcome).toMatchObject({ postId: '1', extra: { message_ids: ['1', '2'] } });
    expect(outcome.warnings).toEqual([expect.stringMatching(/4097 characters.*2 messages/)]);
  });

  it('refuses more than ten messages of text as invalid_content without sending anything', async () => {
    const { bot, chat } = publicChannel();
    const err = await rejection(publish(ctxFor(bot.token, chat.id), 'y'.repeat(40961)));
    expect(err).toMatchObject({ failure: { kind: 'invalid_content', code: 'text_too_long' } });
    expect(err.message).toMatch(/40960 characters/);
    expect(sim.requests).toHaveLength(0);
  });

  it('refuses an empty text as invalid_content without sending anything', async () => {
    const { bot, chat } = publicChannel();
    await expect(publish(ctxFor(bot.token, chat.id), '')).rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'text_empty' } });
    expect(sim.requests).toHaveLength(0);
  });

  it.each(['left', 'kicked'] as const)('maps a bot that was removed (%s) to auth_expired (bot_removed)', async (status) => {
    const { bot, chat } = publicChannel();
    sim.setMember(chat.id, bot.id, status);
    await expect(publish(ctxFor(bot.token, chat.id), 'hello'))
      .rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'bot_removed' }, upstream: { status: 403 } });
    expect(sim.messages()).toHaveLength(0);
  });

  it('maps a bot that lost its posting right to auth_expired (bot_not_admin)', async () => {
    const { bot, chat } = publicChannel();
    sim.setMember(chat.id, bot.id, 'administrator', { can_post_messages: false });
    await expect(publish(ctxFor(bot.token, chat.id), 'hello'))
      .rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'bot_not_admin' }, upstream: { status: 400 } });
  });
});

describe('failure modes', () => {
  it('revoked → auth_expired (token_revoked), nothing stored', async () => {
    const { bot, chat } = publicChannel();
    sim.fail('revoked');
    await expect(publish(ctxFor(bot.token, chat.id), 'hello')).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'token_revoked' } });
    expect(sim.messages()).toHaveLength(0);
  });

  it('a token revoked after connecting → auth_expired (token_revoked)', async () => {
    const { bot, chat } = publicChannel();
    sim.revokeToken(bot.token);
    await expect(publish(ctxFor(bot.token, chat.id), 'hello')).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'token_revoked' } });
  });

  it('rate_limited → rate_limited with parameters.retry_after (2 s → 2000 ms)', async () => {
    const { bot, chat } = publicChannel();
    sim.fail('rate_limited');
    await expect(publish(ctxFor(bot.token, chat.id), 'hello'))
      .rejects.toMatchObject({ failure: { kind: 'rate_limited', retryAfterMs: 2000 }, upstream: { status: 429, code: 429 } });
    expect(sim.messages()).toHaveLength(0);
  });

  it('without parameters.retry_after, reads a Retry-After date against the injected clock', () => {
    const now = new Date('2026-03-01T12:00:00Z');
    const headers = new Headers({ 'retry-after': new Date(now.getTime() + 9000).toUTCString() });
    const err = mapTelegramFailure({ kind: 'response', status: 429, headers, body: { ok: false, error_code: 429, description: 'Too Many Requests' } }, { timeoutMs: 1, now });
    expect(err.failure).toEqual({ kind: 'rate_limited', retryAfterMs: 9000 });
  });

  it.each(['server_error', 'bad_gateway'] as const)('%s → transient, nothing stored', async (mode) => {
    const { bot, chat } = publicChannel();
    sim.fail(mode);
    await expect(publish(ctxFor(bot.token, chat.id), 'hello')).rejects.toMatchObject({ failure: { kind: 'transient' } });
    expect(sim.messages()).toHaveLength(0);
  });

  it('failures can be queued over the HTTP control surface and are consumed', async () => {
    const { bot, chat } = publicChannel();
    const res = await fetch(`${sim.origin}/__sim/failures`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode: 'server_error' }),
    });
    expect(res.status).toBe(200);
    await expect(publish(ctxFor(bot.token, chat.id), 'a')).rejects.toMatchObject({ failure: { kind: 'transient' } });
    await publish(ctxFor(bot.token, chat.id), 'b');
    expect(sim.messages(chat.id).map((m) => m.text)).toEqual(['b']);
  });

  it('an unknown failure mode is refused by the control surface', async () => {
    const res = await fetch(`${sim.origin}/__sim/failures`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode: 'meteor_strike' }),
    });
    expect(res.status).toBe(400);
  });

  it('error messages never contain the bot token', async () => {
    const { bot, chat } = publicChannel();
    for (const mode of ['revoked', 'rate_limited', 'server_error', 'bad_gateway'] as const) {
      sim.fail(mode);
      const err = await rejection(publish(ctxFor(bot.token, chat.id), 'hello'));
      expect(err.message).not.toContain(bot.token);
    }
  });
});

describe('latency and aborts', () => {
  it('a timeout is transient with an unknown outcome, and the dropped request stores nothing', async () => {
    const { bot, chat } = publicChannel();
    const impatient = createTelegramPlatform({ apiBase: sim.baseUrl, timeoutMs: 100 });
    sim.setLatency(400);
    const err = await rejection(publish(ctxFor(bot.token, chat.id), 'never arrives', impatient));
    expect(err).toMatchObject({ failure: { kind: 'transient' } });
    expect(err.message).toMatch(/100 ms.*outcome is unknown/);
    expect(err.message).not.toContain(bot.token);
    await sleep(600); // past the simulator's latency: it would have stored by now had it not dropped the request
    expect(sim.requests).toHaveLength(1);
    expect(sim.messages()).toHaveLength(0);
  });

  it('a slow answer within the timeout still publishes', async () => {
    const { bot, chat } = publicChannel();
    sim.setLatency(150);
    await publish(ctxFor(bot.token, chat.id), 'slow but fine');
    expect(sim.messages(chat.id)).toHaveLength(1);
  });
});

describe('simulator wire format', () => {
  const api = (token: string, method: string) => `${sim.baseUrl}/bot${token}/${method}`;

  it('accepts GET query parameters and urlencoded POSTs, with case-insensitive method names', async () => {
    const { bot, chat } = publicChannel();
    const viaGet = await fetch(`${api(bot.token, 'sendmessage')}?chat_id=${encodeURIComponent(`@${chat.username}`)}&text=hi`);
    expect(await viaGet.json()).toMatchObject({ ok: true, result: { message_id: 1, text: 'hi', chat: { id: chat.id } } });
    const viaForm = await fetch(api(bot.token, 'sendMessage'), { method: 'POST', body: new URLSearchParams({ chat_id: String(chat.id), text: 'there' }) });
    expect(await viaForm.json()).toMatchObject({ ok: true, result: { message_id: 2, text: 'there' } });
  });

  it.each([
    ['no chat_id', (_chat: number) => ({ text: 'x' }), 'Bad Request: chat_id is empty'],
    ['an unknown chat', () => ({ chat_id: -1009999999999, text: 'x' }), 'Bad Request: chat not found'],
    ['an empty text', (chat: number) => ({ chat_id: chat, text: '' }), 'Bad Request: message text is empty'],
    ['4097 characters', (chat: number) => ({ chat_id: chat, text: 'z'.repeat(4097) }), 'Bad Request: message is too long'],
  ])('answers %s with 400 and Telegram\'s description', async (_label, params, description) => {
    const { bot, chat } = publicChannel();
    const res = await fetch(api(bot.token, 'sendMessage'), {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(params(chat.id)),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ ok: false, error_code: 400, description });
    expect(sim.messages()).toHaveLength(0);
  });

  it('answers an unknown token with 401 Unauthorized', async () => {
    const res = await fetch(api(`123456:${'B'.repeat(35)}`, 'getMe'));
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ ok: false, error_code: 401, description: 'Unauthorized' });
  });

  it('answers rate_limited with parameters.retry_after', async () => {
    const { bot } = publicChannel();
    sim.fail('rate_limited');
    const res = await fetch(api(bot.token, 'getMe'));
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual({ ok: false, error_code: 429, description: 'Too Many Requests: retry after 2', parameters: { retry_after: 2 } });
  });

  it('hands out the same bot tokens and chat ids for the same seed', async () => {
    const a = await startTelegramSimulator({ seed: 'fixed' });
    const b = await startTelegramSimulator({ seed: 'fixed' });
    try {
      expect(a.createBot({ username: 'x_bot' })).toEqual(b.createBot({ username: 'x_bot' }));
      expect(a.createChat({ type: 'channel', title: 't' })).toEqual(b.createChat({ type: 'channel', title: 't' }));
      expect(a.createBot({ username: 'y_bot' }).token).toMatch(/^\d+:[\w-]{35}$/);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe('publish (photos and video)', () => {
  let fx: MediaFixtures;
  beforeAll(async () => { fx = await mediaFixtures(); }, FIXTURE_TIMEOUT_MS);
  afterAll(async () => { await fx?.close(); });

  const publishMedia = async (token: string, chatId: number, kind: 'photo' | 'video', title: string, media: MediaRef[], fields: Record<string, unknown> = {}) => {
    const r = resolveSettings('telegram', telegram.descriptor.settings, fields, { endpoint: kind, mediaCount: media.length });
    if (r.violations.length) throw new Error(JSON.stringify(r.violations));
    const step = await telegram.publisher!.publish(ctxFor(token, chatId, { media: fx.access }), { kind, title, media, settings: r.values });
    if (step.kind !== 'done') throw new Error('a Telegram post finishes in one step');
    return step.outcome;
  };

  it('one photo goes with sendPhoto as a multipart upload, with caption and options', async () => {
    const { bot, chat } = publicChannel();
    const outcome = await publishMedia(bot.token, chat.id, 'photo', 'A photo', [fx.images[0]!], { telegram_has_spoiler: true, telegram_disable_notification: true });
    const [message] = sim.messages(chat.id);
    expect(message).toMatchObject({ message_id: 1, caption: 'A photo', has_media_spoiler: true, options: { disable_notification: 'true' } });
    expect(message!.photo!.at(-1)).toMatchObject({ width: 1024, height: 1280 });
    expect(outcome).toEqual({ postId: '1', url: `https://t.me/${chat.username}/1`, warnings: [] });
    expect(sim.requests.map((r) => r.path)).toEqual([`/bot${bot.token}/sendPhoto`]);
  });

  it('2-10 photos go as one album with sendMediaGroup (attach://), the caption on the first', async () => {
    const { bot, chat } = publicChannel();
    const outcome = await publishMedia(bot.token, chat.id, 'photo', 'An album', fx.images.slice(0, 4));
    const messages = sim.messages(chat.id);
    expect(messages).toHaveLength(4);
    expect(new Set(messages.map((m) => m.media_group_id)).size).toBe(1);
    expect(messages.map((m) => m.caption)).toEqual(['An album', undefined, undefined, undefined]);
    expect(outcome).toMatchObject({ postId: '1', extra: { message_ids: ['1', '2', '3', '4'] } });
    expect(sim.requests.map((r) => r.path)).toEqual([`/bot${bot.token}/sendMediaGroup`]);
  });

  it('a video goes with sendVideo, with its size and duration', async () => {
    const { bot, chat } = publicChannel();
    await publishMedia(bot.token, chat.id, 'video', 'A clip', [fx.video]);
    const [message] = sim.messages(chat.id);
    expect(message).toMatchObject({ caption: 'A clip', video: { width: 720, height: 1280, duration: 3, file_size: fx.video.size } });
  });

  it('a caption over 1024 characters is sent as a text message before the media, with a warning', async () => {
    const { bot, chat } = publicChannel();
    const caption = 'w'.repeat(1025);
    const outcome = await publishMedia(bot.token, chat.id, 'photo', caption, fx.images.slice(0, 2));
    const messages = sim.messages(chat.id);
    expect(messages.map((m) => [m.text, m.caption, Boolean(m.photo)])).toEqual([[caption, undefined, false], [undefined, undefined, true], [undefined, undefined, true]]);
    expect(outcome.warnings).toEqual([expect.stringMatching(/1025 characters.*1024.*text message before the media/)]);
  });

  it('refuses 11 photos and a photo over 10 MB before sending anything', async () => {
    const { bot, chat } = publicChannel();
    const many = Array.from({ length: 11 }, (_, i) => fx.images[i % fx.images.length]!);
    await expect(telegram.publisher!.publish(ctxFor(bot.token, chat.id, { media: fx.access }), { kind: 'photo', title: '', media: many, settings: {} }))
      .rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'too_many_photos' } });
    await expect(telegram.publisher!.publish(ctxFor(bot.token, chat.id, { media: fx.access }), { kind: 'photo', title: '', media: [{ ...fx.images[0]!, size: 10_000_001 }], settings: {} }))
      .rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'photo_too_large' } });
    expect(sim.requests).toHaveLength(0);
  });

  it('the simulator refuses what Telegram refuses: one-item albums, long captions, non-images, missing attachments', async () => {
    const { bot, chat } = publicChannel();
    const call = async (method: string, build: (f: FormData) => void) => {
      const f = new FormData();
      f.append('chat_id', String(chat.id));
      build(f);
      const res = await fetch(`${sim.baseUrl}/bot${bot.token}/${method}`, { method: 'POST', body: f });
      return [res.status, ((await res.json()) as { description: string }).description];
    };
    const jpeg = new Blob([Buffer.from([0xff, 0xd8, 0xff, 0xd9])], { type: 'image/jpeg' });
    expect(await call('sendMediaGroup', (f) => { f.append('media', JSON.stringify([{ type: 'photo', media: 'attach://a' }])); f.append('a', jpeg, 'a.jpg'); }))
      .toEqual([400, expect.stringMatching(/wrong number of media/)]);
    expect(await call('sendPhoto', (f) => { f.append('caption', 'c'.repeat(1025)); f.append('photo', jpeg, 'a.jpg'); }))
      .toEqual([400, 'Bad Request: message caption is too long']);
    expect(await call('sendPhoto', (f) => { f.append('photo', new Blob(['not an image']), 'a.jpg'); }))
      .toEqual([400, 'Bad Request: IMAGE_PROCESS_FAILED']);
    expect(await call('sendMediaGroup', (f) => { f.append('media', JSON.stringify([{ type: 'photo', media: 'attach://a' }, { type: 'photo', media: 'attach://b' }])); f.append('a', jpeg, 'a.jpg'); }))
      .toEqual([400, 'Bad Request: wrong file identifier/HTTP URL specified']);
    expect(sim.messages(chat.id)).toHaveLength(0);
    expect(mapTelegramFailure({ kind: 'response', status: 400, headers: new Headers(), body: { ok: false, error_code: 400, description: 'Bad Request: IMAGE_PROCESS_FAILED' } }, { timeoutMs: 1000, now: new Date() }))
      .toMatchObject({ failure: { kind: 'invalid_content', code: 'media_invalid' } });
    expect(mapTelegramFailure({ kind: 'response', status: 413, headers: new Headers(), body: undefined }, { timeoutMs: 1000, now: new Date() }))
      .toMatchObject({ failure: { kind: 'invalid_content', code: 'payload_too_large' } });
  });
});

describe('edit and delete', () => {
  let fx: MediaFixtures;
  beforeAll(async () => { fx = await mediaFixtures(); }, FIXTURE_TIMEOUT_MS);
  afterAll(async () => { await fx?.close(); });

  it('edits a text message with editMessageText and a photo caption with editMessageCaption', async () => {
    const { bot, chat } = publicChannel();
    const ctx = ctxFor(bot.token, chat.id);
    const text = await publish(ctx, 'Before');
    await telegram.postEditor!.edit!(ctx, { id: text.postId }, { text: 'After' });
    const step = await telegram.publisher!.publish(ctxFor(bot.token, chat.id, { media: fx.access }), { kind: 'photo', title: 'Old caption', media: [fx.images[0]!], settings: {} });
    const photo = step.kind === 'done' ? step.outcome : undefined;
    await telegram.postEditor!.edit!(ctx, { id: photo!.postId }, { text: 'New caption' });
    expect(sim.messages(chat.id).map((m) => m.text ?? m.caption)).toEqual(['After', 'New caption']);
    expect(sim.requests.map((r) => r.path.split('/').at(-1))).toEqual(['sendMessage', 'editMessageText', 'sendPhoto', 'editMessageText', 'editMessageCaption']);
    await expect(telegram.postEditor!.edit!(ctx, { id: text.postId }, { text: 'After' })).rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'nothing_to_update' } });
  });

  it('deletes every message of a split text', async () => {
    const { bot, chat } = publicChannel();
    const ctx = ctxFor(bot.token, chat.id);
    const outcome = await publish(ctx, `${'a'.repeat(4000)} ${'b'.repeat(200)}`);
    expect(sim.messages(chat.id)).toHaveLength(2);
    await telegram.postEditor!.unpublish!(ctx, { id: outcome.postId, ...(outcome.extra ? { extra: outcome.extra } : {}) });
    expect(sim.messages(chat.id)).toHaveLength(0);
    await expect(telegram.postEditor!.unpublish!(ctx, { id: outcome.postId })).rejects.toMatchObject({ failure: { kind: 'rejected', code: 'post_not_found' } });
  });
});

describe('splitText', () => {
  it('cuts at paragraph, then line, then word breaks in the second half, else anywhere, counting code points', () => {
    expect(splitText(`${'a'.repeat(6)}\n\n${'b'.repeat(3)} ${'c'.repeat(2)}`, 10)).toEqual(['aaaaaa', 'bbb cc']);
    expect(splitText(`${'a'.repeat(7)}\n${'b'.repeat(7)}`, 10)).toEqual(['aaaaaaa', 'bbbbbbb']);
    // A break in the first half would leave a short message: the cut is hard instead.
    expect(splitText(`ab ${'c'.repeat(12)}`, 10)).toEqual(['ab ccccccc', 'ccccc']);
    // Emoji are one code point each: never cut in half.
    const emoji = '😀'.repeat(25);
    const parts = splitText(emoji, 10);
    expect(parts.map((p) => [...p].length)).toEqual([10, 10, 5]);
    expect(parts.join('')).toBe(emoji);
  });
});
