/**
 * LinkedIn organization page analytics through the Community Management API (learn.microsoft.com/
 * linkedin/marketing/community-management/organizations: share-statistics, page-statistics,
 * organization-network-size), versioned REST with `rw_organization_admin` on a page the member is
 * ADMINISTRATOR of:
 * - `GET /rest/networkSizes/{organization urn}?edgeType=COMPANY_FOLLOWED_BY_MEMBER` → followers;
 * - `GET /rest/organizationalEntityShareStatistics?q=organizationalEntity&organizationalEntity=
 *   &timeIntervals=(timeRange:(start:,end:),timeGranularityType:DAY)` → one element per day with
 *   `totalShareStatistics{impressionCount, uniqueImpressionsCount, clickCount, likeCount,
 *   commentCount, shareCount, engagement}`;
 * - `GET /rest/organizationPageStatistics?q=organization&organization=&timeIntervals=…` → page views;
 * - the share statistics with `shares=List(…)` / `ugcPosts=List(…)` (lifetime) for one post.
 * Organization pages only (the spec's page_urn): a personal profile is refused. Reach is the sum of
 * the daily unique impressions (it overstates unique reach, like Facebook's); engagement is
 * LinkedIn's rate, (clicks + reactions + comments + reposts) / impressions, over the window.
 */
import type { AccountMetrics, Analytics, CallContext, MetricCatalogue, PostRef, TimePoint } from '../../../core/ports/platform';
import { isObject, str, type Json } from '../kit/http';
import { addDays, metricList, numberOr, startOf, sumSeries, valuesFor, windowOf } from '../kit/analytics';
import type { LinkedInClient } from './client';
import { organizationOf } from './lookups';
import { credentialsMissing, invalid } from './publish';

export const linkedinCatalogue: MetricCatalogue = {
  metricType: 'reach',
  primaryImpressionsField: 'reach',
  postPrimaryImpressionsField: 'impressions',
  account: metricList([
    ['followers', 'Followers'], ['reach', 'Unique impressions (daily, summed)'], ['impressions', 'Impressions'], ['profileViews', 'Page views'],
    ['likes', 'Reactions'], ['comments', 'Comments'], ['shares', 'Reposts'],
    ['engagement', 'Engagement rate: (clicks + reactions + comments + reposts) / impressions'],
  ]),
  post: metricList([
    ['impressions', 'Impressions'], ['reach', 'Unique impressions'], ['likes', 'Reactions'], ['comments', 'Comments'], ['shares', 'Reposts'],
    ['engagement', 'Engagement rate: (clicks + reactions + comments + reposts) / impressions'],
  ]),
};

const SHARE_COUNTS = ['impressionCount', 'uniqueImpressionsCount', 'clickCount', 'likeCount', 'commentCount', 'shareCount'] as const;
type ShareCounts = Record<(typeof SHARE_COUNTS)[number], number>;

/** LinkedIn's engagement rate of summed counts, to four decimals (0 without impressions). */
const linkedinEngagementRate = (c: Pick<ShareCounts, 'impressionCount' | 'clickCount' | 'likeCount' | 'commentCount' | 'shareCount'>): number =>
  (c.impressionCount > 0 ? Math.round(((c.clickCount + c.likeCount + c.commentCount + c.shareCount) / c.impressionCount) * 10_000) / 10_000 : 0);

/** Rest.li 2.0 `timeIntervals` of whole UTC days [since, until]. */
const dayIntervals = (since: string, until: string) =>
  `(timeRange:(start:${startOf(since).getTime()},end:${startOf(addDays(until, 1)).getTime()}),timeGranularityType:DAY)`;

/** The `elements` of a finder answer, or a malformed-answer error. */
function elementsOf(client: LinkedInClient, reply: { status: number; body: unknown }, what: string): Json[] {
  const elements = isObject(reply.body) && Array.isArray(reply.body.elements) ? reply.body.elements.filter(isObject) : undefined;
  if (!elements) throw client.malformed(reply.status, what);
  return elements;
}

/** The UTC day an element's `timeRange.start` falls on. */
const dayOfElement = (e: Json): string | undefined => {
  const start = isObject(e.timeRange) ? numberOr(e.timeRange.start) : null;
  return start === null ? undefined : new Date(start).toISOString().slice(0, 10);
};

/** A day series over every day of the window (a day LinkedIn left out counts 0), oldest first. */
function seriesOf(elements: readonly Json[], since: string, until: string, value: (e: Json) => number): TimePoint[] {
  const byDay = new Map<string, number>();
  for (const e of elements) {
    const day = dayOfElement(e);
    if (day) byDay.set(day, (byDay.get(day) ?? 0) + value(e));
  }
  const out: TimePoint[] = [];
  for (let d = since; d <= until; d = addDays(d, 1)) out.push({ date: d, value: byDay.get(d) ?? 0 });
  return out;
}

const shareCount = (e: Json, name: (typeof SHARE_COUNTS)[number]): number =>
  (isObject(e.totalShareStatistics) ? numberOr(e.totalShareStatistics[name]) ?? 0 : 0);

export function createLinkedInAnalytics(client: LinkedInClient): Analytics {
  const tokenOf = (ctx: CallContext) => {
    const token = ctx.credentials.access_token;
    if (!token) throw credentialsMissing();
    return token;
  };

  /** The organization a post belongs to: the post's author (organization posts only). */
  async function organizationOfPost(ctx: CallContext, post: PostRef): Promise<string> {
    const reply = await client.rest('GET', `/posts/${encodeURIComponent(post.id)}`, tokenOf(ctx), undefined, ctx.signal);
    const author = isObject(reply.body) ? str(reply.body.author) : undefined;
    if (!author) throw client.malformed(reply.status, 'the post author');
    if (!author.startsWith('urn:li:organization:')) {
      throw invalid('LinkedIn post analytics are for organization (page) posts only; this post belongs to a member.', 'organization_posts_only');
    }
    return author;
  }

  return {
    catalogue: linkedinCatalogue,
    async account(ctx, input): Promise<AccountMetrics> {
      const token = tokenOf(ctx);
      const organization = `urn:li:organization:${organizationOf(ctx.credentials, input.target, 'reads the analytics of')}`;
      const org = encodeURIComponent(organization);
      const w = windowOf(input);
      const intervals = dayIntervals(w.since, w.until);

      const size = await client.rest('GET', `/networkSizes/${org}?edgeType=COMPANY_FOLLOWED_BY_MEMBER`, token, undefined, ctx.signal);
      const followers = isObject(size.body) ? numberOr(size.body.firstDegreeSize) : null;
      if (followers === null) throw client.malformed(size.status, 'the follower count (firstDegreeSize)');
      const shares = elementsOf(client, await client.rest('GET',
        `/organizationalEntityShareStatistics?q=organizationalEntity&organizationalEntity=${org}&timeIntervals=${intervals}`, token, undefined, ctx.signal), 'share statistics');
      const pages = elementsOf(client, await client.rest('GET',
        `/organizationPageStatistics?q=organization&organization=${org}&timeIntervals=${intervals}`, token, undefined, ctx.signal), 'page statistics');

      const series = (name: (typeof SHARE_COUNTS)[number]) => seriesOf(shares, w.since, w.until, (e) => shareCount(e, name));
      const reach = series('uniqueImpressionsCount');
      const impressions = series('impressionCount');
      const totals = Object.fromEntries(SHARE_COUNTS.map((n) => [n, sumSeries(series(n))])) as ShareCounts;
      const pageViews = seriesOf(pages, w.since, w.until, (e) => {
        const views = isObject(e.totalPageStatistics) && isObject(e.totalPageStatistics.views) ? e.totalPageStatistics.views : {};
        return isObject(views.allPageViews) ? numberOr(views.allPageViews.pageViews) ?? 0 : 0;
      });
      return {
        values: valuesFor(linkedinCatalogue.account, {
          followers, reach: sumSeries(reach), impressions: totals.impressionCount, profileViews: sumSeries(pageViews),
          likes: totals.likeCount, comments: totals.commentCount, shares: totals.shareCount, engagement: linkedinEngagementRate(totals),
        }),
        reachTimeseries: reach,
        impressionsTimeseries: impressions,
      };
    },
    async post(ctx, { post }) {
      const kind = /^urn:li:(share|ugcPost):\d+$/.exec(post.id)?.[1];
      if (!kind) throw invalid(`A LinkedIn post id is a share or ugcPost URN (urn:li:share:<id>, urn:li:ugcPost:<id>); got "${post.id}".`, 'invalid_post_id');
      const organization = await organizationOfPost(ctx, post);
      const list = `${kind === 'share' ? 'shares' : 'ugcPosts'}=List(${encodeURIComponent(post.id)})`;
      const elements = elementsOf(client, await client.rest('GET',
        `/organizationalEntityShareStatistics?q=organizationalEntity&organizationalEntity=${encodeURIComponent(organization)}&${list}`, tokenOf(ctx), undefined, ctx.signal), 'share statistics');
      const element = elements.find((e) => e.share === post.id || e.ugcPost === post.id);
      if (!element) throw invalid(`LinkedIn has no statistics for ${post.id} under ${organization}: the post is not one of the page's.`, 'post_not_found');
      const stats = isObject(element.totalShareStatistics) ? element.totalShareStatistics : {};
      const n = (name: string) => numberOr(stats[name]);
      return {
        values: valuesFor(linkedinCatalogue.post, {
          impressions: n('impressionCount'), reach: n('uniqueImpressionsCount'), likes: n('likeCount'), comments: n('commentCount'),
          shares: n('shareCount'), engagement: n('engagement'),
        }),
      };
    },
  };
}
