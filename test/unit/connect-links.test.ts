import { createMemoryConnectStorage } from '../../adapters/memory/connect-storage';
import { HeraldError } from '../../core/domain/errors';
import { parseUiLabels, parseWeekStartDay } from '../../core/domain/connect-link';
import {
  generateConnectLink, getPreferences, openConnectLink, resumeConnectSession, setPreferences, validateConnectToken,
} from '../../core/usecases/connect-links';
import { createProfile } from '../../core/usecases/profiles';
import { connectWithCredentials } from '../../core/usecases/connect-with-credentials';
import { pickLanguage, translator } from '../../apps/web/i18n';
import { aWorld } from '../support/world';

const TTL = 48 * 3600_000;
const OPTIONS = { ttlMs: TTL, webBaseUrl: 'https://connect.example.test' };

async function setup(plan = 'business') {
  const world = aWorld();
  const connect = createMemoryConnectStorage();
  const deps = { ...world.deps, connect };
  const { account } = await world.operator(plan);
  await createProfile(deps, account, { username: 'alice' });
  const link = async (input: Record<string, unknown> = {}) => {
    const { access_url, duration } = await generateConnectLink(deps, OPTIONS, account, { username: 'alice', ...input });
    return { url: access_url, duration, token: new URL(access_url).searchParams.get('token')! };
  };
  return { world, deps, account, connect, link };
}

const refusal = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    if (err instanceof HeraldError) return { kind: err.kind, code: err.errorCode, message: err.message };
    throw err;
  }
  throw new Error('expected a refusal');
};

describe('connect links: issue, validate, expiry, single use', () => {
  it('issues a random token on the web address, stores only its hash, and validates it with the profile', async () => {
    const { deps, link, connect } = await setup();
    const { url, duration, token } = await link();
    expect(url).toMatch(/^https:\/\/connect\.example\.test\/connect\?token=hct_[A-Za-z0-9_-]{32}$/);
    expect(duration).toBe('48h');
    const stored = await connect.connectLinks.findByTokenHash(deps.hasher.hash(token));
    expect(stored).toMatchObject({ profileUsername: 'alice', settings: { showCalendar: true, readonlyCalendar: false, platforms: null } });
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(await validateConnectToken(deps, `Bearer ${token}`)).toEqual({ success: true, profile: { username: 'alice', social_accounts: {}, ui_labels: {} } });
    // Two links are two tokens.
    expect((await link()).token).not.toBe(token);
  });

  it('validate-jwt: 401 without, with a foreign or an expired token; 200 isValid:false once used', async () => {
    const { deps, link, world } = await setup();
    expect(await refusal(validateConnectToken(deps, undefined))).toMatchObject({ kind: 'unauthenticated' });
    expect(await refusal(validateConnectToken(deps, 'Apikey hk_x'))).toMatchObject({ kind: 'unauthenticated' });
    expect(await refusal(validateConnectToken(deps, 'Bearer hct_nope'))).toMatchObject({ kind: 'unauthenticated', code: 'invalid_token' });
    const used = await link();
    const opened = await openConnectLink(deps, used.token);
    expect(opened.kind).toBe('opened');
    expect(await validateConnectToken(deps, `Bearer ${used.token}`)).toEqual({ isValid: false, reason: 'link_already_used' });
    const fresh = await link();
    world.advance(TTL);
    expect(await refusal(validateConnectToken(deps, `Bearer ${fresh.token}`))).toMatchObject({ kind: 'unauthenticated', code: 'token_expired' });
    expect((await openConnectLink(deps, fresh.token)).kind).toBe('expired');
  });

  it('is single use: the first open gets the session, the same browser may come back, any other is refused', async () => {
    const { deps, link } = await setup();
    const { token } = await link();
    const first = await openConnectLink(deps, token);
    if (first.kind !== 'opened') throw new Error(first.kind);
    expect((await openConnectLink(deps, token)).kind).toBe('used');
    expect((await openConnectLink(deps, token, 'someone-elses-cookie')).kind).toBe('used');
    expect((await openConnectLink(deps, token, first.sessionSecret)).kind).toBe('resumed');
    const principal = await resumeConnectSession(deps, first.sessionSecret);
    expect(principal).toMatchObject({ kind: 'connect_session', profile: { username: 'alice' } });
    expect(await resumeConnectSession(deps, 'forged')).toBeNull();
    expect((await openConnectLink(deps, 'hct_unknown')).kind).toBe('invalid');
  });

  it('of two browsers opening the link at once, exactly one gets it', async () => {
    const { deps, link } = await setup();
    const { token } = await link();
    const kinds = (await Promise.all([openConnectLink(deps, token), openConnectLink(deps, token), openConnectLink(deps, token)])).map((o) => o.kind).sort();
    expect(kinds).toEqual(['opened', 'used', 'used']);
  });

  it('the session ends with the link', async () => {
    const { deps, link, world } = await setup();
    const opened = await openConnectLink(deps, (await link()).token);
    if (opened.kind !== 'opened') throw new Error(opened.kind);
    world.advance(TTL - 1);
    expect(await resumeConnectSession(deps, opened.sessionSecret)).not.toBeNull();
    world.advance(1);
    expect(await resumeConnectSession(deps, opened.sessionSecret)).toBeNull();
  });

  it('a shortened lifetime is reported in duration', async () => {
    const { deps, account } = await setup();
    const { duration } = await generateConnectLink(deps, { ...OPTIONS, ttlMs: 90_000 }, account, { username: 'alice' });
    expect(duration).toBe('90s');
  });

  it('shows the connected accounts in validate-jwt', async () => {
    const { deps, link, account } = await setup();
    await connectWithCredentials(deps, account, 'discord', { profile_username: 'alice', secret: 'good' });
    const { token } = await link();
    const answer = await validateConnectToken(deps, `Bearer ${token}`);
    expect(answer).toMatchObject({ success: true, profile: { social_accounts: { discord: { reauth_required: false } } } });
  });

  it('400 for a missing or invalid username, 404 PROFILE_NOT_FOUND, 403 PROFILE_BLOCKED after a downgrade', async () => {
    const { deps, account, world } = await setup('basic');
    expect(await refusal(generateConnectLink(deps, OPTIONS, account, {}))).toMatchObject({ kind: 'invalid_input' });
    expect(await refusal(generateConnectLink(deps, OPTIONS, account, { username: 'no spaces' }))).toMatchObject({ kind: 'invalid_input' });
    expect(await refusal(generateConnectLink(deps, OPTIONS, account, { username: 'bob' }))).toMatchObject({ kind: 'not_found', code: 'PROFILE_NOT_FOUND' });
    for (const u of ['p2', 'p3', 'p4', 'p5']) {
      world.advance(1000);
      await createProfile(deps, account, { username: u });
    }
    // basic allows 5; free allows 2: after the downgrade the three newest are blocked.
    await deps.storage.operators.updatePlan(account.id, 'free');
    const free = { ...account, plan: 'free' as const };
    const blocked = await generateConnectLink(deps, OPTIONS, account, { username: 'p3' }); // issued before the downgrade was seen
    expect(await refusal(generateConnectLink(deps, OPTIONS, free, { username: 'p3' }))).toMatchObject({ kind: 'forbidden', code: 'PROFILE_BLOCKED' });
    expect(await generateConnectLink(deps, OPTIONS, free, { username: 'p2' })).toMatchObject({ duration: '48h' });
    const token = new URL(blocked.access_url).searchParams.get('token')!;
    expect(await validateConnectToken(deps, `Bearer ${token}`)).toEqual({ isValid: false, reason: 'profile_blocked' });
    expect((await openConnectLink(deps, token)).kind).toBe('blocked');
  });

  it('checks the link fields: platforms, language, URLs, booleans', async () => {
    const { deps, account, link, connect } = await setup();
    expect(await refusal(generateConnectLink(deps, OPTIONS, account, { username: 'alice', platforms: ['tiktok'] }))).toMatchObject({ kind: 'invalid_input', code: 'platform_not_supported' });
    expect(await refusal(generateConnectLink(deps, OPTIONS, account, { username: 'alice', language: 'xx' }))).toMatchObject({ kind: 'invalid_input' });
    expect(await refusal(generateConnectLink(deps, OPTIONS, account, { username: 'alice', logo_image: 'javascript:alert(1)' }))).toMatchObject({ kind: 'invalid_input' });
    expect(await refusal(generateConnectLink(deps, OPTIONS, account, { username: 'alice', show_calendar: 'yes' }))).toMatchObject({ kind: 'invalid_input' });
    const { token } = await link({
      platforms: ['telegram'], language: 'de', readonly_calendar: true, show_calendar: false, redirect_url: 'https://app.example.test/done',
      logo_image: 'https://cdn.example.test/logo.png', connect_title: 'Hi', connect_description: 'There', redirect_button_text: 'Back',
    });
    expect((await connect.connectLinks.findByTokenHash(deps.hasher.hash(token)))?.settings).toEqual({
      platforms: ['telegram'], language: 'de', readonlyCalendar: true, showCalendar: false, redirectUrl: 'https://app.example.test/done',
      logoImage: 'https://cdn.example.test/logo.png', connectTitle: 'Hi', connectDescription: 'There', redirectButtonText: 'Back',
    });
  });
});

describe('ui_labels rules', () => {
  it('accepts up to 100 entries of key ^[a-zA-Z0-9_.]+$ and string values up to 300 characters', () => {
    const hundred = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k.${i}`, 'x'.repeat(300)]));
    expect(parseUiLabels(hundred)).toEqual(hundred);
    expect(() => parseUiLabels({ ...hundred, one: 'more' })).toThrow(/at most 100/);
    expect(() => parseUiLabels({ 'bad-key': 'x' })).toThrow(/invalid/);
    expect(() => parseUiLabels({ 'a b': 'x' })).toThrow(/invalid/);
    expect(() => parseUiLabels({ ok: 'x'.repeat(301) })).toThrow(/at most 300/);
    expect(() => parseUiLabels({ ok: 3 })).toThrow(/string/);
    expect(() => parseUiLabels(['x'])).toThrow(/object/);
    expect(() => parseUiLabels('x')).toThrow(/object/);
    // 300 characters, not 300 UTF-16 units.
    expect(parseUiLabels({ emoji: '😀'.repeat(300) })).toEqual({ emoji: '😀'.repeat(300) });
  });

  it('omitted leaves the stored labels, a non-empty object replaces them, null or {} clears them', async () => {
    const { deps, link, account } = await setup();
    const labels = async () => (await deps.storage.profiles.find(account.id, 'alice'))?.uiLabels;
    await link({ ui_labels: { 'connect.title': 'A', 'nav.calendar': 'B' } });
    expect(await labels()).toEqual({ 'connect.title': 'A', 'nav.calendar': 'B' });
    await link();
    expect(await labels()).toEqual({ 'connect.title': 'A', 'nav.calendar': 'B' });
    await link({ ui_labels: { 'connect.title': 'C' } });
    expect(await labels()).toEqual({ 'connect.title': 'C' });
    await link({ ui_labels: null });
    expect(await labels()).toEqual({});
    await link({ ui_labels: { x: 'y' } });
    await link({ ui_labels: {} });
    expect(await labels()).toEqual({});
    // A refused request changes nothing.
    await link({ ui_labels: { keep: 'me' } });
    await expect(link({ ui_labels: { 'bad key': 'x' } })).rejects.toThrow(/invalid/);
    expect(await labels()).toEqual({ keep: 'me' });
  });

  it('validate-jwt returns the stored labels', async () => {
    const { deps, link } = await setup();
    const { token } = await link({ ui_labels: { 'connect.title': 'Welcome' } });
    expect(await validateConnectToken(deps, `Bearer ${token}`)).toMatchObject({ profile: { ui_labels: { 'connect.title': 'Welcome' } } });
  });

  it('the page overrides known keys only, fills placeholders, speaks the language (every key translated: test/unit/web-i18n.test.ts)', () => {
    const t = translator('de', { 'connect.title': 'Mein Titel', 'unknown.key': 'never', 'notice.connected': '{platform} ok' });
    expect(t('connect.title')).toBe('Mein Titel');
    expect(t('nav.calendar')).toBe('Kalender');
    expect(t('notice.connected', { platform: 'X' })).toBe('X ok');
    expect(translator('pt')('status.partial')).toBe('Publicada parcialmente');
    expect(translator('pt')('calendar.moved')).toBe('A publicação foi movida.');
    expect(pickLanguage(undefined, 'fr-CH, fr;q=0.9, en;q=0.8')).toBe('fr');
    expect(pickLanguage(undefined, 'ja, tr;q=0.5, de;q=0.7')).toBe('de');
    expect(pickLanguage(undefined, 'ja')).toBe('en');
    expect(pickLanguage(undefined, undefined)).toBe('en');
    expect(pickLanguage('pl', 'de')).toBe('pl');
  });
});

describe('preferences', () => {
  it('week_start_day defaults to monday, takes names and 0-6 (0 = sunday), refuses the rest', async () => {
    const { deps, account } = await setup();
    expect(await getPreferences(deps, account)).toEqual({ week_start_day: 'monday' });
    expect(await setPreferences(deps, account, { week_start_day: 'Sunday' })).toEqual({ week_start_day: 'sunday' });
    expect(await getPreferences(deps, account)).toEqual({ week_start_day: 'sunday' });
    expect(await setPreferences(deps, account, { week_start_day: 3 })).toEqual({ week_start_day: 'wednesday' });
    expect(parseWeekStartDay('sat')).toBe('saturday');
    await expect(setPreferences(deps, account, { week_start_day: 7 })).rejects.toThrow(/week_start_day/);
    await expect(setPreferences(deps, account, {})).rejects.toThrow(/required/);
  });
});
