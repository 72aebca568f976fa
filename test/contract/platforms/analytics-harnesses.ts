/**
 * The analytics part of each network's contract harness: the simulator's own figures, computed
 * from its model (ops/simulators/<net>/analytics.ts) the way the network defines them, named as
 * the spec names them.
 */
import type { PlatformCredentials, PublishOutcome, TimePoint } from '../../../core/ports/platform';
import type { BlueskySimulator } from '../../../ops/simulators/bluesky';
import type { FacebookSimulator } from '../../../ops/simulators/facebook';
import type { GoogleBusinessSimulator } from '../../../ops/simulators/google_business';
import type { InstagramSimulator } from '../../../ops/simulators/instagram';
import { linkedinEngagementRate, type LinkedInShareCounts, type LinkedInSimulator } from '../../../ops/simulators/linkedin';
import type { PinterestSimulator } from '../../../ops/simulators/pinterest';
import type { ThreadsSimulator } from '../../../ops/simulators/threads';
import type { TikTokSimulator } from '../../../ops/simulators/tiktok';
import type { XSimulator } from '../../../ops/simulators/x';
import type { YoutubeSimulator } from '../../../ops/simulators/youtube';
import type { HarnessAnalytics } from './analytics-contract';

const DAY_MS = 86_400_000;
export const daysOf = (w: { since: string; until: string }): string[] => {
  const out: string[] = [];
  for (let t = Date.parse(`${w.since}T00:00:00Z`); t <= Date.parse(`${w.until}T00:00:00Z`); t += DAY_MS) out.push(new Date(t).toISOString().slice(0, 10));
  return out;
};
export const seriesSum = (series: readonly TimePoint[]): number => series.reduce((s, p) => s + p.value, 0);

export function instagramAnalyticsHarness(sim: () => InstagramSimulator, accountId: () => string): HarnessAnalytics {
  const owner = () => sim().accounts().find((a) => a.id === accountId())!;
  return {
    freeze: (at) => sim().analytics.model.setNow(at),
    account(_connection, w) {
      const an = sim().analytics;
      const o = owner();
      const total = (m: string) => an.total(o, m, w.since, w.until);
      const reach = daysOf(w).map((date) => ({ date, value: an.daily(o, 'reach', date) }));
      return {
        values: {
          followers: an.followers(o), following: an.following(o), posts_count: sim().posts(o.id).length,
          reach: seriesSum(reach), views: total('views'), impressions: total('views'), profileViews: total('profile_views'),
          likes: total('likes'), comments: total('comments'), shares: total('shares'), saves: total('saves'), engagement: total('total_interactions'),
        },
        reachTimeseries: reach,
        followerDemographics: an.demographics(o, 'follower_demographics') ?? {},
        engagedAudienceDemographics: an.demographics(o, 'engaged_audience_demographics') ?? {},
      };
    },
    post(_connection, outcome) {
      const v = sim().analytics.mediaInsights(sim().posts().find((p) => p.id === outcome.postId)!);
      return {
        values: {
          views: v.views!, impressions: v.views!, reach: v.reach!, likes: v.likes!, comments: v.comments!,
          shares: v.shares!, saves: v.saved!, engagement: v.total_interactions!,
        },
      };
    },
    failure: { arm: () => sim().fail('token_expired'), expect: { kind: 'auth_expired' } },
  };
}

export function facebookAnalyticsHarness(sim: () => FacebookSimulator, accountId: () => string): HarnessAnalytics {
  const pageId = () => sim().accounts().find((a) => a.id === accountId())!.pageIds[0]!;
  return {
    freeze: (at) => sim().analytics.model.setNow(at),
    request: () => ({ target: pageId() }),
    account(_connection, w) {
      const an = sim().analytics;
      const series = (m: string) => daysOf(w).map((date) => ({ date, value: an.daily(pageId(), m, date) }));
      const reach = series('page_impressions_unique');
      const impressions = series('page_impressions');
      return {
        values: {
          followers: an.followers(pageId()), likes: an.fans(pageId()), reach: seriesSum(reach), impressions: seriesSum(impressions),
          profileViews: an.total(pageId(), 'page_views_total', w.since, w.until), engagement: an.total(pageId(), 'page_post_engagements', w.since, w.until),
        },
        reachTimeseries: reach, impressionsTimeseries: impressions, periodDays: w.days,
      };
    },
    post(_connection, outcome) {
      const v = sim().analytics.postInsights(sim().posts().find((p) => p.id === outcome.postId)!);
      return {
        values: {
          impressions: v.post_impressions!, reach: v.post_impressions_unique!, likes: v.post_reactions_like_total!, comments: v.comments!,
          shares: v.shares!, engagement: v.post_reactions_like_total! + v.comments! + v.shares!,
        },
      };
    },
    failure: { arm: () => sim().fail('token_expired'), expect: { kind: 'auth_expired' } },
  };
}

export function youtubeAnalyticsHarness(sim: () => YoutubeSimulator, channelId: () => string): HarnessAnalytics {
  return {
    freeze: (at) => sim().analytics.model.setNow(at),
    account(_connection, w) {
      const an = sim().analytics;
      const channel = sim().channels().find((c) => c.id === channelId())!;
      const stats = an.statistics(channel);
      const total = (m: string) => an.total(channelId(), m, w.since, w.until);
      const views = daysOf(w).map((date) => ({ date, value: an.daily(channelId(), 'views', date) }));
      return {
        values: {
          followers: Number(stats.subscriberCount), posts_count: Number(stats.videoCount), views: total('views'), impressions: total('views'),
          likes: total('likes'), comments: total('comments'), shares: total('shares'), watch_time_minutes: total('estimatedMinutesWatched'),
          average_view_duration_seconds: total('averageViewDuration'),
        },
        impressionsTimeseries: views,
      };
    },
    post(_connection, outcome) {
      const f = sim().analytics.video(sim().videos().find((v) => v.id === outcome.postId)!);
      return {
        values: {
          views: f.views!, impressions: f.views!, likes: f.likes!, comments: f.comments!, shares: f.shares!,
          watch_time_minutes: f.estimatedMinutesWatched!, average_view_duration_seconds: f.averageViewDuration!,
        },
      };
    },
    failure: { arm: () => sim().fail('token_expired'), expect: { kind: 'auth_expired' } },
  };
}

export function xAnalyticsHarness(sim: () => XSimulator, accountId: () => string): HarnessAnalytics {
  const sumOver = (list: Array<Record<string, number>>, key: string) => list.reduce((s, m) => s + (m[key] ?? 0), 0);
  return {
    freeze: (at) => sim().analytics.model.setNow(at),
    account(_connection, w) {
      const an = sim().analytics;
      const me = sim().accounts().find((a) => a.id === accountId())!;
      const user = an.userMetrics(me);
      const start = Date.parse(`${w.since}T00:00:00Z`);
      const end = Date.parse(`${w.until}T00:00:00Z`) + DAY_MS;
      const inWindow = sim().tweets(accountId()).filter((t) => Date.parse(t.created_at) >= start && Date.parse(t.created_at) < end);
      const pub = inWindow.map((t) => an.publicMetrics(t));
      const priv = inWindow.map((t) => an.nonPublicMetrics(t));
      const likes = sumOver(pub, 'like_count');
      const comments = sumOver(pub, 'reply_count');
      const shares = sumOver(pub, 'retweet_count');
      const quotes = sumOver(pub, 'quote_count');
      return {
        values: {
          followers: user.followers_count!, following: user.following_count!, posts_count: user.tweet_count!,
          impressions: sumOver(priv, 'impression_count'), likes, comments, shares, quotes, saves: sumOver(pub, 'bookmark_count'),
          profileViews: sumOver(priv, 'user_profile_clicks'), engagement: likes + comments + shares + quotes,
        },
      };
    },
    post(_connection, outcome) {
      const an = sim().analytics;
      const t = sim().tweets().find((x) => x.id === outcome.postId)!;
      const pub = an.publicMetrics(t);
      const priv = an.nonPublicMetrics(t);
      return {
        values: {
          impressions: priv.impression_count!, likes: pub.like_count!, comments: pub.reply_count!, shares: pub.retweet_count!, quotes: pub.quote_count!,
          saves: pub.bookmark_count!, profile_views: priv.user_profile_clicks!, engagement: pub.like_count! + pub.reply_count! + pub.retweet_count! + pub.quote_count!,
        },
      };
    },
    failure: { arm: () => sim().fail('expired_token'), expect: { kind: 'auth_expired' } },
  };
}

/** TikTok without profile_analytics (the contract's connection): Display API figures only. */
export function tiktokAnalyticsHarness(sim: () => TikTokSimulator, openId: () => string): HarnessAnalytics {
  return {
    freeze: (at) => sim().analytics.model.setNow(at),
    account() {
      const stats = sim().analytics.userStats(openId());
      return {
        values: {
          followers: stats.follower_count, following: stats.following_count, posts_count: stats.video_count, likes: stats.likes_count,
          views: null, impressions: null, profileViews: null, comments: null, shares: null, engagement: null,
        },
      };
    },
    post(_connection, outcome) {
      const v = sim().analytics.video(sim().posts().find((p) => p.id === outcome.postId)!);
      return { values: { views: v.video_views as number, impressions: v.video_views as number, likes: v.likes as number, comments: v.comments as number, shares: v.shares as number, reach: null, favorites: null } };
    },
    failure: { arm: () => sim().fail('access_token_invalid'), expect: { kind: 'auth_expired' } },
  };
}

export function blueskyAnalyticsHarness(sim: () => BlueskySimulator, did: () => string): HarnessAnalytics {
  const counts = (uri: string) => sim().analytics.counts(sim().posts().find((r) => r.uri === uri)!);
  return {
    freeze: (at) => sim().analytics.model.setNow(at),
    account(_connection, w) {
      const start = Date.parse(`${w.since}T00:00:00Z`);
      const end = Date.parse(`${w.until}T00:00:00Z`) + DAY_MS;
      const own = sim().posts(did());
      const inWindow = own.filter((r) => { const t = Date.parse(String(r.value.createdAt)); return t >= start && t < end; }).map((r) => counts(r.uri));
      const sum = (k: 'likeCount' | 'repostCount' | 'replyCount' | 'quoteCount') => inWindow.reduce((s, c) => s + c[k], 0);
      const p = sim().analytics.profileCounts(did());
      return {
        values: {
          followers: p.followersCount, following: p.followsCount, posts_count: own.length, likes: sum('likeCount'), shares: sum('repostCount'),
          comments: sum('replyCount'), quotes: sum('quoteCount'), engagement: sum('likeCount') + sum('repostCount') + sum('replyCount') + sum('quoteCount'),
        },
      };
    },
    post(_connection, outcome) {
      const c = counts(outcome.postId);
      return { values: { likes: c.likeCount, shares: c.repostCount, comments: c.replyCount, quotes: c.quoteCount, engagement: c.likeCount + c.repostCount + c.replyCount + c.quoteCount } };
    },
    failure: { arm: () => sim().expireAccessTokens(did()), expect: { kind: 'auth_expired' } },
  };
}

export function threadsAnalyticsHarness(sim: () => ThreadsSimulator, accountId: () => string): HarnessAnalytics {
  return {
    freeze: (at) => sim().analytics.model.setNow(at),
    account(_connection, w) {
      const an = sim().analytics;
      const views = daysOf(w).map((date) => ({ date, value: an.daily(accountId(), 'views', date) }));
      const total = (m: string) => daysOf(w).reduce((s, d) => s + an.daily(accountId(), m, d), 0);
      const likes = total('likes');
      const reposts = total('reposts');
      const replies = an.received(accountId(), 'replies', w.since, w.until);
      const quotes = an.received(accountId(), 'quotes', w.since, w.until);
      return {
        values: {
          followers: an.followers(accountId()), views: seriesSum(views), impressions: seriesSum(views), likes, comments: replies, shares: reposts, quotes,
          engagement: likes + replies + reposts + quotes,
        },
        impressionsTimeseries: views,
      };
    },
    post(_connection, outcome) {
      const v = sim().analytics.media(sim().posts().find((p) => p.id === outcome.postId)!);
      return { values: { views: v.views!, impressions: v.views!, likes: v.likes!, comments: v.replies!, shares: v.reposts!, quotes: v.quotes!, engagement: v.likes! + v.replies! + v.reposts! + v.quotes! } };
    },
    failure: { arm: () => sim().fail('token_expired'), expect: { kind: 'auth_expired' } },
  };
}

export function pinterestAnalyticsHarness(sim: () => PinterestSimulator, accountId: () => string): HarnessAnalytics {
  const KEYS = ['IMPRESSION', 'PIN_CLICK', 'OUTBOUND_CLICK', 'SAVE', 'ENGAGEMENT'] as const;
  const sums = (days: string[], value: (m: string, d: string) => number | undefined) =>
    Object.fromEntries(KEYS.map((k) => [k, days.reduce((s, d) => s + (value(k, d) ?? 0), 0)])) as Record<(typeof KEYS)[number], number>;
  return {
    freeze: (at) => sim().analytics.model.setNow(at),
    account(_connection, w) {
      const an = sim().analytics;
      const days = daysOf(w);
      const sum = sums(days, (m, d) => an.daily(accountId(), m, d));
      return {
        values: {
          followers: an.followers(accountId()), following: 0, posts_count: sim().pins().filter((p) => p.ownerId === accountId()).length,
          impressions: sum.IMPRESSION, pin_clicks: sum.PIN_CLICK, outbound_clicks: sum.OUTBOUND_CLICK, saves: sum.SAVE, engagement: sum.ENGAGEMENT,
        },
        impressionsTimeseries: days.flatMap((date) => { const v = an.daily(accountId(), 'IMPRESSION', date); return v === undefined ? [] : [{ date, value: v }]; }),
      };
    },
    post(_connection, outcome) {
      const p = sim().pins().find((x) => x.pin.id === outcome.postId)!;
      const created = new Date(String(p.pin.created_at)).toISOString().slice(0, 10);
      const sum = sums(daysOf({ since: created, until: new Date().toISOString().slice(0, 10) }), (m, d) => sim().analytics.pinDaily(p, m, d));
      return { values: { impressions: sum.IMPRESSION, pin_clicks: sum.PIN_CLICK, outbound_clicks: sum.OUTBOUND_CLICK, saves: sum.SAVE, engagement: sum.ENGAGEMENT } };
    },
    failure: { arm: () => sim().fail('expired_token'), expect: { kind: 'auth_expired' } },
  };
}

/**
 * LinkedIn: the organization page's statistics (`pageId`); `publish` posts as the page, since a
 * page's figures grow with the page's own posts.
 */
export function linkedinAnalyticsHarness(
  sim: () => LinkedInSimulator, pageId: () => string, publish?: (credentials: PlatformCredentials) => Promise<PublishOutcome>,
): HarnessAnalytics {
  const COUNTS = ['impressionCount', 'uniqueImpressionsCount', 'clickCount', 'likeCount', 'commentCount', 'shareCount'] as const;
  return {
    freeze: (at) => sim().analytics.model.setNow(at),
    request: () => ({ target: `urn:li:organization:${pageId()}` }),
    ...(publish ? { publish } : {}),
    account(_connection, w) {
      const an = sim().analytics;
      const days = daysOf(w).map((date) => ({ date, counts: an.dailyShares(pageId(), date) }));
      const totals = Object.fromEntries(COUNTS.map((k) => [k, days.reduce((sum, d) => sum + d.counts[k], 0)])) as LinkedInShareCounts;
      return {
        values: {
          followers: an.followers(pageId()), reach: totals.uniqueImpressionsCount, impressions: totals.impressionCount,
          profileViews: daysOf(w).reduce((sum, d) => sum + an.pageViews(pageId(), d), 0),
          likes: totals.likeCount, comments: totals.commentCount, shares: totals.shareCount, engagement: linkedinEngagementRate(totals),
        },
        reachTimeseries: days.map((d) => ({ date: d.date, value: d.counts.uniqueImpressionsCount })),
        impressionsTimeseries: days.map((d) => ({ date: d.date, value: d.counts.impressionCount })),
      };
    },
    post(_connection, outcome) {
      const c = sim().analytics.post(sim().posts().find((p) => p.id === outcome.postId)!);
      return {
        values: {
          impressions: c.impressionCount, reach: c.uniqueImpressionsCount, likes: c.likeCount, comments: c.commentCount, shares: c.shareCount,
          engagement: linkedinEngagementRate(c),
        },
      };
    },
    failure: { arm: () => sim().fail('statistics_access_denied'), expect: { kind: 'rejected', code: 'permission_denied' } },
  };
}

/** Google Business Profile: the location's daily metrics (no per-post metrics). */
export function googleBusinessAnalyticsHarness(sim: () => GoogleBusinessSimulator, locationId: () => string): HarnessAnalytics {
  const IMPRESSIONS = ['BUSINESS_IMPRESSIONS_DESKTOP_MAPS', 'BUSINESS_IMPRESSIONS_DESKTOP_SEARCH', 'BUSINESS_IMPRESSIONS_MOBILE_MAPS', 'BUSINESS_IMPRESSIONS_MOBILE_SEARCH'];
  return {
    freeze: (at) => sim().analytics.model.setNow(at),
    request: () => ({ target: locationId() }),
    account(_connection, w) {
      const an = sim().analytics;
      const total = (m: string) => an.total(locationId(), m, w.since, w.until);
      const actions = {
        website_clicks: total('WEBSITE_CLICKS'), call_clicks: total('CALL_CLICKS'), direction_requests: total('BUSINESS_DIRECTION_REQUESTS'),
        conversations: total('BUSINESS_CONVERSATIONS'), bookings: total('BUSINESS_BOOKINGS'),
      };
      const impressions = daysOf(w).map((date) => ({ date, value: IMPRESSIONS.reduce((sum, m) => sum + an.daily(locationId(), m, date), 0) }));
      return {
        values: { impressions: seriesSum(impressions), ...actions, engagement: Object.values(actions).reduce((a, b) => a + b, 0) },
        impressionsTimeseries: impressions,
      };
    },
    failure: { arm: () => sim().fail('token_expired'), expect: { kind: 'auth_expired' } },
  };
}
