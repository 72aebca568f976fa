/**
 * LinkedIn organization statistics on the simulator (learn.microsoft.com/linkedin/marketing/
 * community-management/organizations: share-statistics, page-statistics, organization-network-size):
 * - `GET /rest/organizationalEntityShareStatistics?q=organizationalEntity&organizationalEntity=
 *   urn:li:organization:{id}` lifetime (the rolling 12 months), or with
 *   `timeIntervals=(timeRange:(start:ms,end:ms),timeGranularityType:DAY|MONTH)` one element per day
 *   or month, or with `shares=List(…)` / `ugcPosts=List(…)` one lifetime element per post of the page
 *   (`totalShareStatistics{impressionCount, uniqueImpressionsCount, clickCount, likeCount,
 *   commentCount, shareCount, engagement}`; engagement = (clicks + likes + comments + shares) /
 *   impressions, to four decimals);
 * - `GET /rest/organizationPageStatistics?q=organization&organization=…` (same timeIntervals) with
 *   `totalPageStatistics.views.{allPageViews, allDesktopPageViews, allMobilePageViews}.pageViews`;
 * - `GET /rest/networkSizes/{organization urn}?edgeType=COMPANY_FOLLOWED_BY_MEMBER` → `firstDegreeSize`.
 * Rules kept: statistics need `rw_organization_admin` and the ADMINISTRATOR role on the page (403
 * ACCESS_DENIED otherwise), the follower count any organization scope; a time range must start
 * within the rolling 12 months and end after it starts. Figures come from the seeded model
 * (ops/simulators/kit/metrics.ts), the page's published posts and the comments held under them.
 */
import type { ServerResponse } from 'node:http';
import { sendJson, type SimRequest } from '../kit/http';
import { addDays, dayOf, type AnalyticsModel, type MetricShape } from '../kit/metrics';
import { accessDenied, badRequest, notFound } from './answers';
import type { LinkedInSimPost, LinkedInState, TokenRecord } from './state';

export const LINKEDIN_STATISTICS_SCOPE = 'rw_organization_admin';
const FOLLOWER_COUNT_SCOPES = ['r_organization_social', 'r_organization_admin', 'rw_organization_admin'];
export const LINKEDIN_SHARE_COUNTS = ['impressionCount', 'uniqueImpressionsCount', 'clickCount', 'likeCount', 'commentCount', 'shareCount'] as const;
export type LinkedInShareCounts = Record<(typeof LINKEDIN_SHARE_COUNTS)[number], number>;

/** Daily page flows: a seeded base, plus what each post the page published by that day adds. */
export const LINKEDIN_PAGE_SHAPES: Record<string, MetricShape> = {
  impressionCount: { base: [80, 600], perPost: 70 },
  clickCount: { base: [2, 40], perPost: 4 },
  likeCount: { base: [3, 50], perPost: 6 },
  commentCount: { base: [0, 8], perPost: 1 },
  shareCount: { base: [0, 6], perPost: 1 },
  pageViews: { base: [10, 120], perPost: 5 },
};
/** Unique impressions are this share (percent, drawn per page or post) of the impressions. */
export const LINKEDIN_UNIQUE_PERCENT: readonly [number, number] = [50, 80];
export const LINKEDIN_FOLLOWERS_SHAPE: MetricShape = { base: [300, 5000], perDay: 2, perPost: 3 };
/** Per-post daily rates (lifetime value = rate × days since publishing, capped at 90 days). */
export const LINKEDIN_POST_SHAPES: Record<string, MetricShape> = {
  impressionCount: { base: [40, 250] }, clickCount: { base: [1, 15] }, likeCount: { base: [1, 20] }, shareCount: { base: [0, 4] },
};
const DAY_MS = 86_400_000;
const ROLLING_DAYS = 365;

/** LinkedIn's engagement rate, to four decimals (0 without impressions). */
export const engagementRate = (c: LinkedInShareCounts): number =>
  (c.impressionCount > 0 ? Math.round(((c.clickCount + c.likeCount + c.commentCount + c.shareCount) / c.impressionCount) * 10_000) / 10_000 : 0);

const idsOf = (raw: string | undefined): string[] | undefined => {
  const m = /^List\((.*)\)$/.exec(raw ?? '');
  return m ? m[1]!.split(',').map((i) => decodeURIComponent(i.trim())).filter(Boolean) : undefined;
};

export function createLinkedInAnalytics(s: LinkedInState, model: AnalyticsModel) {
  const orgUrn = (id: string) => `urn:li:organization:${id}`;
  const published = (orgId: string) => s.posts.filter((p) => p.author === orgUrn(orgId) && p.lifecycleState === 'PUBLISHED');
  const postTimes = (orgId: string) => published(orgId).map((p) => new Date(p.createdAt));
  const uniqueOf = (subject: string, impressions: number) => Math.floor((impressions * model.draw(`${subject}:unique`, ...LINKEDIN_UNIQUE_PERCENT)) / 100);

  const api = {
    model,
    /** The share statistics of a page on one UTC day (0 for days to come). */
    dailyShares(orgId: string, day: string): LinkedInShareCounts {
      const times = postTimes(orgId);
      const v = (m: string) => model.daily(orgId, m, LINKEDIN_PAGE_SHAPES[m]!, day, times);
      const impressionCount = v('impressionCount');
      return {
        impressionCount, uniqueImpressionsCount: uniqueOf(`${orgId}:${day}`, impressionCount), clickCount: v('clickCount'),
        likeCount: v('likeCount'), commentCount: v('commentCount'), shareCount: v('shareCount'),
      };
    },
    /** The counts summed over [since, until] (inclusive UTC days). */
    shareTotals(orgId: string, since: string, until: string): LinkedInShareCounts {
      const sum = Object.fromEntries(LINKEDIN_SHARE_COUNTS.map((k) => [k, 0])) as LinkedInShareCounts;
      for (let d = since; d <= until; d = addDays(d, 1)) {
        const day = api.dailyShares(orgId, d);
        for (const k of LINKEDIN_SHARE_COUNTS) sum[k] += day[k];
      }
      return sum;
    },
    pageViews: (orgId: string, day: string): number => model.daily(orgId, 'pageViews', LINKEDIN_PAGE_SHAPES.pageViews!, day, postTimes(orgId)),
    /** networkSizes' firstDegreeSize now. */
    followers: (orgId: string): number => model.level(orgId, 'followers', LINKEDIN_FOLLOWERS_SHAPE, model.now(), postTimes(orgId)),
    /** A post's lifetime statistics now. */
    post(post: LinkedInSimPost): LinkedInShareCounts {
      const at = new Date(post.createdAt);
      const v = (m: string) => model.post(post.id, m, LINKEDIN_POST_SHAPES[m]!, at);
      const impressionCount = v('impressionCount');
      return {
        impressionCount, uniqueImpressionsCount: uniqueOf(post.id, impressionCount), clickCount: v('clickCount'), likeCount: v('likeCount'),
        commentCount: s.comments.filter((c) => c.postUrn === post.id).length, shareCount: v('shareCount'),
      };
    },
  };

  const stats = (c: LinkedInShareCounts) => ({ ...c, engagement: engagementRate(c) });

  /** The page a statistics finder names, if the token may read its statistics; else the error is sent. */
  function administeredPage(res: ServerResponse, token: TokenRecord, urn: string | undefined, resource: string, version: string): string | undefined {
    const id = /^urn:li:organization:(\d+)$/.exec(urn ?? '')?.[1];
    if (!id) return void badRequest(res, `Invalid value for param organizationalEntity: ${urn ?? ''}`);
    const page = s.accounts.get(token.sub)?.pages.find((p) => p.id === id);
    if (!token.scope.includes(LINKEDIN_STATISTICS_SCOPE) || page?.role !== 'ADMINISTRATOR') return void accessDenied(res, resource, version);
    return id;
  }

  /** `timeIntervals` as Rest.li 2.0 writes it: the days or months it covers; undefined when absent; false once the 400 is sent. */
  function intervalsOf(res: ServerResponse, raw: string | undefined): Array<{ start: number; end: number; days: string[] }> | undefined | false {
    if (raw === undefined) return undefined;
    const range = /timeRange:\(start:(\d+),end:(\d+)\)/.exec(raw);
    const granularity = /timeGranularityType:(DAY|MONTH)/.exec(raw)?.[1];
    if (!raw.startsWith('(') || !raw.endsWith(')') || !range || !granularity) {
      return badRequest(res, 'timeIntervals must be (timeRange:(start:<ms>,end:<ms>),timeGranularityType:DAY|MONTH)'), false;
    }
    const start = Number(range[1]);
    const end = Number(range[2]);
    if (!(end > start)) return badRequest(res, 'timeIntervals.timeRange.end must be after timeIntervals.timeRange.start'), false;
    if (start < model.now().getTime() - ROLLING_DAYS * DAY_MS) return badRequest(res, 'Statistics are available for the past 12 months only (rolling window): move timeRange.start'), false;
    const buckets: Array<{ key: string; days: string[] }> = [];
    for (let d = dayOf(new Date(start)); d <= dayOf(new Date(end - 1)); d = addDays(d, 1)) {
      const key = granularity === 'DAY' ? d : d.slice(0, 7);
      const open = buckets.at(-1);
      if (open?.key === key) open.days.push(d);
      else buckets.push({ key, days: [d] });
    }
    const midnight = (day: string) => Date.parse(`${day}T00:00:00Z`);
    return buckets.map((b) => ({ start: Math.max(start, midnight(b.days[0]!)), end: Math.min(end, midnight(addDays(b.days.at(-1)!, 1))), days: b.days }));
  }

  const rollingYear = () => {
    const until = dayOf(model.now());
    return [addDays(until, -(ROLLING_DAYS - 1)), until] as const;
  };

  function shareStatistics(req: SimRequest, res: ServerResponse, token: TokenRecord, version: string) {
    const q = req.query;
    if (q.q !== 'organizationalEntity') return badRequest(res, 'Query parameter q must be organizationalEntity');
    const orgId = administeredPage(res, token, q.organizationalEntity, 'organizationalEntityShareStatistics.FINDER-organizationalEntity', version);
    if (!orgId) return undefined;
    const organizationalEntity = orgUrn(orgId);
    const lists = [...(idsOf(q.shares) ?? []).map((urn) => ['share', urn] as const), ...(idsOf(q.ugcPosts) ?? []).map((urn) => ['ugcPost', urn] as const)];
    if ((q.shares !== undefined && !idsOf(q.shares)) || (q.ugcPosts !== undefined && !idsOf(q.ugcPosts))) return badRequest(res, 'shares and ugcPosts must be List(urn,…)');
    let elements: unknown[];
    if (lists.length) {
      // Lifetime figures of the page's own posts; another author's posts are left out.
      const mine = published(orgId);
      elements = lists.flatMap(([kind, urn]) => {
        const post = mine.find((p) => p.id === urn && p.id.startsWith(`urn:li:${kind}:`));
        return post ? [{ [kind]: urn, organizationalEntity, totalShareStatistics: stats(api.post(post)) }] : [];
      });
    } else {
      const intervals = intervalsOf(res, q.timeIntervals);
      if (intervals === false) return undefined;
      if (!intervals) {
        const [since, until] = rollingYear();
        elements = [{ organizationalEntity, totalShareStatistics: stats(api.shareTotals(orgId, since, until)) }];
      } else {
        elements = intervals.map((b) => ({
          organizationalEntity, timeRange: { start: b.start, end: b.end }, totalShareStatistics: stats(api.shareTotals(orgId, b.days[0]!, b.days.at(-1)!)),
        }));
      }
    }
    return sendJson(res, 200, { paging: { count: 10, start: 0, links: [] }, elements });
  }

  function pageStatistics(req: SimRequest, res: ServerResponse, token: TokenRecord, version: string) {
    const q = req.query;
    if (q.q !== 'organization') return badRequest(res, 'Query parameter q must be organization');
    const orgId = administeredPage(res, token, q.organization, 'organizationPageStatistics.FINDER-organization', version);
    if (!orgId) return undefined;
    const views = (days: string[]) => {
      const all = days.reduce((sum, d) => sum + api.pageViews(orgId, d), 0);
      const desktop = Math.floor(all * 0.6);
      return { views: { allPageViews: { pageViews: all }, allDesktopPageViews: { pageViews: desktop }, allMobilePageViews: { pageViews: all - desktop } } };
    };
    const intervals = intervalsOf(res, q.timeIntervals);
    if (intervals === false) return undefined;
    let elements: unknown[];
    if (!intervals) {
      const [since, until] = rollingYear();
      const days: string[] = [];
      for (let d = since; d <= until; d = addDays(d, 1)) days.push(d);
      elements = [{ organization: orgUrn(orgId), totalPageStatistics: views(days) }];
    } else {
      elements = intervals.map((b) => ({ organization: orgUrn(orgId), timeRange: { start: b.start, end: b.end }, totalPageStatistics: views(b.days) }));
    }
    return sendJson(res, 200, { paging: { count: 10, start: 0, links: [] }, elements });
  }

  function networkSize(req: SimRequest, res: ServerResponse, token: TokenRecord, urn: string, version: string) {
    if (req.query.edgeType !== 'COMPANY_FOLLOWED_BY_MEMBER') return badRequest(res, 'edgeType must be COMPANY_FOLLOWED_BY_MEMBER for an organization');
    const id = /^urn:li:organization:(\d+)$/.exec(urn)?.[1];
    if (!id) return badRequest(res, `Invalid organization URN ${urn}`);
    if (!FOLLOWER_COUNT_SCOPES.some((scope) => token.scope.includes(scope))) return accessDenied(res, 'networkSizes.GET', version);
    if (![...s.accounts.values()].some((a) => a.pages.some((p) => p.id === id))) return notFound(res, `Organization ${id}`);
    return sendJson(res, 200, { firstDegreeSize: api.followers(id) });
  }

  return { ...api, shareStatistics, pageStatistics, networkSize };
}
export type LinkedInAnalytics = ReturnType<typeof createLinkedInAnalytics>;
