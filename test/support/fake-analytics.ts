import { PlatformError, type PlatformFailure } from '../../core/domain/errors';
import type { Platform } from '../../core/domain/platforms';
import type { Analytics, MetricCatalogue, PlatformAdapter, PostRef } from '../../core/ports/platform';
import { NETWORK_IMPRESSIONS, NETWORKS } from '../../adapters/platforms';

/**
 * An analytics capability for unit tests: account metrics a function of the day and a counter the
 * test moves (`grow`), post metrics per post id, failures on demand, and a record of every call.
 */
export function fakeAnalytics(platform: Platform) {
  const primary = NETWORK_IMPRESSIONS(platform)[0]! as MetricCatalogue['primaryImpressionsField'];
  const calls: Array<{ kind: 'account' | 'post'; credentials: Record<string, string>; postId?: string; post?: PostRef; until?: Date; days?: number }> = [];
  const failures: Array<{ failure: PlatformFailure; message: string }> = [];
  let level = 100;
  const catalogue: MetricCatalogue = {
    metricType: primary === 'reach' ? 'reach' : primary === 'views' ? 'views' : 'impressions',
    primaryImpressionsField: primary,
    account: [{ name: primary, label: 'Primary' }, { name: 'followers', label: 'Followers' }, { name: 'likes', label: 'Likes' }],
    post: [{ name: 'views', label: 'Views' }, { name: 'likes', label: 'Likes' }],
    postPrimaryImpressionsField: 'views',
  };
  const analytics: Analytics = {
    catalogue,
    async account(ctx, input) {
      calls.push({ kind: 'account', credentials: ctx.credentials, until: input.until, days: input.days });
      const failure = failures.shift();
      if (failure) throw new PlatformError(platform, failure.failure, failure.message);
      return { values: { [primary]: level, followers: 1000 + level, likes: Math.floor(level / 10) } };
    },
    async post(ctx, input) {
      calls.push({ kind: 'post', credentials: ctx.credentials, postId: input.post.id, post: input.post });
      const failure = failures.shift();
      if (failure) throw new PlatformError(platform, failure.failure, failure.message);
      return { values: { views: input.post.id.length * 10 + calls.length, likes: 3 }, ...(platform === 'tiktok' ? { details: { retention: [{ second: 0, percentage: 100 }] } } : {}) };
    },
  };
  return {
    analytics,
    calls,
    /** The account metrics the next reads answer. */
    setLevel(n: number) { level = n; },
    failNext(failure: PlatformFailure, message = 'refused') { failures.push({ failure, message }); },
    /** `adapter` with this analytics capability. */
    /** `adapter` with this capability, and the analytics facts of the network it stands for (live post metrics). */
    on(adapter: PlatformAdapter): PlatformAdapter {
      const facts = NETWORKS.find((n) => n.id === platform)?.descriptor.analytics;
      return { ...adapter, descriptor: { ...adapter.descriptor, ...(facts ? { analytics: facts } : {}) }, analytics };
    },
  };
}
