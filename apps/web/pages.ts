import type { ConnectLinkSettings, WeekDay } from '../../core/domain/connect-link';
import type { ConnectedAccount } from '../../core/domain/connected-account';
import type { Platform } from '../../core/domain/platforms';
import { PIN_KINDS, type PinKind } from '../../core/domain/profile';
import type { PlatformDescriptor } from '../../core/ports/platform';
import type { CalendarPost } from '../../core/usecases/connect-calendar';
import { fromDayNumber, isoDay, localParts, type CalendarGrid } from './calendar';
import { html, layout, safeUrl, type Html } from './html';
import type { LabelKey, Translate } from './i18n';

export interface PageContext {
  lang: string;
  t: Translate;
  /** A label that is not in the static catalogue (a network's credential field): `ui_labels` may still override it by key. */
  label: (key: string, fallback: string) => string;
  settings: ConnectLinkSettings;
  csrf: string;
}

export interface Notice {
  kind: 'ok' | 'bad';
  text: string;
}

/** A message page (link used, expired, invalid, session missing, form expired). */
export function messagePage(lang: string, t: Translate, titleKey: LabelKey, textKey: LabelKey): string {
  return layout({ lang, title: t(titleKey), body: html`<h1 data-page="message">${t(titleKey)}</h1><p class="lead">${t(textKey)}</p>` });
}

function header(ctx: PageContext, active: 'accounts' | 'calendar', showTabs: { accounts: boolean; calendar: boolean }): Html {
  const { t, settings } = ctx;
  const logo = safeUrl(settings.logoImage);
  const title = settings.connectTitle ?? t('connect.title');
  const description = settings.connectDescription ?? t('connect.description');
  const tabs = showTabs.accounts && showTabs.calendar
    ? html`<nav class="tabs" aria-label="${t('nav.accounts')} / ${t('nav.calendar')}">
<a href="/connect"${active === 'accounts' ? html` aria-current="page"` : ''}>${t('nav.accounts')}</a>
<a href="/connect/calendar"${active === 'calendar' ? html` aria-current="page"` : ''}>${t('nav.calendar')}</a></nav>`
    : '';
  return html`<header class="top">${logo ? html`<img src="${logo}" alt="${t('connect.logo_alt')}" data-logo>` : ''}
<div><h1 data-title>${title}</h1></div></header>
<p class="lead" data-description>${description}</p>${tabs}`;
}

function noticeHtml(notice: Notice | undefined): Html | string {
  return notice ? html`<p class="notice ${notice.kind}" role="status" data-notice="${notice.kind}">${notice.text}</p>` : '';
}

function redirectFooter(ctx: PageContext): Html | string {
  const url = safeUrl(ctx.settings.redirectUrl);
  if (!url) return '';
  return html`<footer class="redirect"><a class="button" href="${url}" data-redirect>${ctx.settings.redirectButtonText ?? ctx.t('connect.redirect_button')}</a></footer>`;
}

const csrfField = (ctx: PageContext) => html`<input type="hidden" name="_csrf" value="${ctx.csrf}">`;

const PIN_LABEL: Record<PinKind, LabelKey> = {
  'facebook-page': 'pin.facebook_page', 'linkedin-page': 'pin.linkedin_page', 'google-business-location': 'pin.google_business_location',
};

export interface PlatformRow {
  descriptor: PlatformDescriptor;
  connection?: ConnectedAccount;
  /** The pinned page or location id, for networks with a pin. */
  pinned?: string | null;
  /** What the pin can hold, from the network's lookup; absent when the lookup failed (a text field then). */
  choices?: Array<{ id: string; name: string }>;
  /** The credentials form's last refusal, shown under it. */
  refusal?: string;
}

const SECRET_FIELD = /token|password|secret/i;
const humanize = (name: string) => name.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

function credentialsForm(ctx: PageContext, row: PlatformRow): Html {
  const { descriptor } = row;
  const name = descriptor.displayName;
  const fields = (descriptor.credentialFields?.fields ?? []).map((f) => {
    const id = `f-${descriptor.id}-${f.name}`;
    const type = SECRET_FIELD.test(f.name) ? 'password' : f.type === 'url' ? 'url' : 'text';
    const hint = f.description ? ctx.label(`credentials.hint.${descriptor.id}.${f.name}`, f.description) : '';
    return html`<label for="${id}">${ctx.label(`credentials.field.${f.name}`, humanize(f.name))}</label>
<input id="${id}" name="${f.name}" type="${type}" autocomplete="off"${f.required ? html` required` : ''}${hint ? html` aria-describedby="${id}-hint"` : ''}>
${hint ? html`<p class="hint" id="${id}-hint">${hint}</p>` : ''}`;
  });
  return html`<form method="post" action="/connect/credentials/${descriptor.id}" data-credentials="${descriptor.id}">${csrfField(ctx)}
<fieldset><legend>${ctx.t('credentials.legend', { platform: name })}</legend>${fields}
${row.refusal ? html`<p class="notice bad" role="alert" data-refusal>${ctx.t('credentials.refused', { platform: name, message: row.refusal })}</p>` : ''}
<p><button type="submit">${ctx.t('credentials.submit', { platform: name })}</button></p></fieldset></form>`;
}

function platformItem(ctx: PageContext, row: PlatformRow): Html {
  const { t } = ctx;
  const { descriptor, connection } = row;
  const id = descriptor.id;
  const state = connection?.status === 'connected' ? 'connected' : connection?.status === 'reauth_required' ? 'reauth_required' : 'not_connected';
  const badgeKey: LabelKey = state === 'connected' ? 'platform.connected' : state === 'reauth_required' ? 'platform.reauth_required' : 'platform.not_connected';
  const avatar = connection ? safeUrl(connection.avatarUrl) : undefined;
  const identity = connection
    ? html`${avatar ? html`<img class="avatar" src="${avatar}" alt="">` : ''}<div class="grow"><h2>${descriptor.displayName}</h2>
<div data-display-name>${connection.displayName}</div><div class="handle" data-handle>${connection.handle ? `@${connection.handle.replace(/^@/, '')}` : ''}</div></div>`
    : html`<div class="grow"><h2>${descriptor.displayName}</h2></div>`;
  const oauthButton = (key: LabelKey) => html`<form class="inline" method="post" action="/connect/oauth/${id}">${csrfField(ctx)}<button type="submit" data-connect="${id}">${t(key)}</button></form>`;
  const disconnect = html`<form class="inline" method="post" action="/connect/disconnect/${id}">${csrfField(ctx)}<button type="submit" class="danger" data-disconnect="${id}">${t('action.disconnect')}</button></form>`;
  let actions: Html | string = '';
  let below: Html | string = '';
  if (descriptor.connect === 'oauth') {
    actions = state === 'connected' ? disconnect : html`${oauthButton(state === 'reauth_required' ? 'action.reconnect' : 'action.connect')}${state === 'reauth_required' ? disconnect : ''}`;
  } else {
    actions = state === 'not_connected' ? '' : disconnect;
    if (state !== 'connected') below = credentialsForm(ctx, row);
  }
  // Where the network's page or location pin lives, for the networks that have one (its descriptor's `pin`).
  const pin = descriptor.pin?.kind;
  if (pin && state === 'connected') {
    const input = PIN_KINDS[pin].input;
    // A radio list of the account's pages or locations when the lookup answered; the text field otherwise.
    const field = row.choices?.length
      ? html`<fieldset data-pin-choices><legend>${t(PIN_LABEL[pin])}</legend>${row.choices.map((c, i) => html`<label class="choice"><input type="radio" name="${input}" value="${c.id}" id="pin-${pin}-${i}"${c.id === row.pinned || (!row.pinned && i === 0) ? html` checked` : ''} required> ${c.name} <span class="hint">(${c.id})</span></label>`)}</fieldset>`
      : html`<label for="pin-${pin}">${t(PIN_LABEL[pin])}</label><input id="pin-${pin}" type="text" name="${input}" value="${row.pinned ?? ''}" required pattern="[A-Za-z0-9_:.\\-]{1,200}">`;
    below = html`${below}<form method="post" action="/connect/pin/${pin}" data-pin="${pin}">${csrfField(ctx)}
${field}
${row.pinned ? html`<p class="hint">${t('pin.current', { id: row.pinned })}</p>` : ''}<p><button type="submit" class="secondary">${t('action.save')}</button></p></form>`;
  }
  return html`<li class="platform" data-platform="${id}" data-state="${state}"><div class="row">${identity}
<span class="badge ${state}" data-badge>${t(badgeKey)}</span><div>${actions}</div></div>${below}</li>`;
}

export function connectPage(ctx: PageContext, rows: PlatformRow[], notice: Notice | undefined, showCalendar: boolean): string {
  const body = html`${header(ctx, 'accounts', { accounts: true, calendar: showCalendar })}${noticeHtml(notice)}
<ul class="platforms" data-page="connect">${rows.map((row) => platformItem(ctx, row))}</ul>${redirectFooter(ctx)}`;
  return layout({ lang: ctx.lang, title: ctx.settings.connectTitle ?? ctx.t('connect.title'), body });
}

/** The intermediate page of mobile browsers: the user follows the network's link in this browser, so no native app catches the redirect. */
export function mobileContinuePage(ctx: PageContext, platformName: string, authorizeUrl: string): string {
  const body = html`<h1 data-page="mobile-continue">${ctx.t('mobile.title', { platform: platformName })}</h1>
<p class="lead">${ctx.t('mobile.text', { platform: platformName })}</p>
<p><a class="button" href="${authorizeUrl}" rel="noreferrer" data-continue>${ctx.t('mobile.continue', { platform: platformName })}</a></p>`;
  return layout({ lang: ctx.lang, title: ctx.t('mobile.title', { platform: platformName }), body });
}

const STATUS_KEY: Record<string, LabelKey> = {
  scheduled: 'status.scheduled', queued: 'status.queued', pending: 'status.pending', in_progress: 'status.in_progress',
  published: 'status.published', partial: 'status.partial', failed: 'status.failed', cancelled: 'status.cancelled', waiting: 'status.waiting',
};

function postItem(ctx: PageContext, post: CalendarPost, timezone: string, readonly: boolean, platformName: (p: Platform) => string): Html {
  const { t } = ctx;
  const local = localParts(post.at, timezone);
  const targets = post.targets.map((target) => {
    const url = safeUrl(target.url);
    return html`<li data-target="${target.platform}" data-target-status="${target.status}">${platformName(target.platform)}: ${t(STATUS_KEY[target.status]!)}${url ? html` · <a href="${url}" rel="noreferrer" target="_blank">${t('calendar.view_post', { platform: platformName(target.platform) })}</a>` : ''}</li>`;
  });
  const edit = post.editable && !readonly && post.jobId
    ? html`<details><summary>${t('calendar.move')} / ${t('calendar.cancel')}</summary>
<form method="post" action="/connect/calendar/move" data-move="${post.jobId}">${csrfField(ctx)}<input type="hidden" name="job_id" value="${post.jobId}"><input type="hidden" name="timezone" value="${timezone}">
<label for="mv-${post.jobId}">${t('calendar.move_label')}</label><input id="mv-${post.jobId}" type="datetime-local" name="scheduled_date" value="${local.inputValue}" required>
<p><button type="submit" class="secondary">${t('calendar.move')}</button></p></form>
<form method="post" action="/connect/calendar/cancel" data-cancel="${post.jobId}">${csrfField(ctx)}<input type="hidden" name="job_id" value="${post.jobId}"><button type="submit" class="danger">${t('calendar.cancel')}</button></form></details>`
    : '';
  return html`<article class="post ${post.status}" data-post="${post.jobId ?? post.requestId}" data-status="${post.status}">
<div><time datetime="${post.at.toISOString()}">${local.time}</time> · <strong>${t(STATUS_KEY[post.status]!)}</strong></div>
<div data-post-title>${post.title || t('calendar.untitled')}</div><ul>${targets}</ul>${edit}</article>`;
}

export function calendarPage(
  ctx: PageContext,
  opts: { grid: CalendarGrid; posts: CalendarPost[]; timezone: string; today: number; readonly: boolean; showAccounts: boolean; notice?: Notice; platformName: (p: Platform) => string; anchor: string },
): string {
  const { t } = ctx;
  const { grid } = opts;
  const byDay = new Map<number, CalendarPost[]>();
  for (const post of opts.posts) {
    const day = localParts(post.at, opts.timezone).dayNumber;
    byDay.set(day, [...(byDay.get(day) ?? []), post]);
  }
  const dayName = (d: WeekDay) => t(`day.${d}` as LabelKey);
  const qs = (view: string, date: string) => `/connect/calendar?view=${view}&date=${date}&tz=${encodeURIComponent(opts.timezone)}`;
  const rows = grid.weeks.map((week) => html`<tr>${week.map((n) => {
    const d = fromDayNumber(n);
    const posts = byDay.get(n) ?? [];
    const other = grid.month && d.month !== grid.month.month;
    const classes = [other ? 'other' : '', posts.length ? '' : 'empty'].filter(Boolean).join(' ');
    return html`<td${classes ? html` class="${classes}"` : ''} data-day="${isoDay(d)}"><div class="daynum">${dayName(grid.columns[(week.indexOf(n))]!)} ${d.day}${n === opts.today ? html` · <strong>${t('calendar.today')}</strong>` : ''}</div>
${posts.map((p) => postItem(ctx, p, opts.timezone, opts.readonly, opts.platformName))}</td>`;
  })}</tr>`);
  const title = grid.view === 'month'
    ? new Intl.DateTimeFormat(ctx.lang, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(grid.month!.year, grid.month!.month - 1, 1)))
    : `${isoDay(fromDayNumber(grid.weeks[0]![0]!))} – ${isoDay(fromDayNumber(grid.weeks[0]![6]!))}`;
  const body = html`${header(ctx, 'calendar', { accounts: opts.showAccounts, calendar: true })}${noticeHtml(opts.notice)}
<section data-page="calendar" data-view="${grid.view}" data-readonly="${String(opts.readonly)}" data-week-start="${grid.columns[0]}">
<div class="cal-head"><h2 class="grow">${t('calendar.title')}: ${title}</h2>
<nav class="tabs"><a href="${qs(grid.view, grid.previous)}" data-prev>${t('calendar.previous')}</a><a href="${qs(grid.view, isoDay(fromDayNumber(opts.today)))}">${t('calendar.today')}</a><a href="${qs(grid.view, grid.next)}" data-next>${t('calendar.next')}</a>
<a href="${qs('week', opts.anchor)}"${grid.view === 'week' ? html` aria-current="page"` : ''}>${t('calendar.week')}</a><a href="${qs('month', opts.anchor)}"${grid.view === 'month' ? html` aria-current="page"` : ''}>${t('calendar.month')}</a></nav></div>
<p class="hint">${t('calendar.timezone', { zone: opts.timezone })}</p>
${opts.posts.length ? '' : html`<p class="hint" data-empty>${t('calendar.empty')}</p>`}
<table class="cal"><thead><tr>${grid.columns.map((c) => html`<th scope="col">${dayName(c)}</th>`)}</tr></thead><tbody>${rows}</tbody></table></section>${redirectFooter(ctx)}`;
  return layout({ lang: ctx.lang, title: t('calendar.title'), body });
}
