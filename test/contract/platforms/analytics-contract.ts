/**
 * The analytics part of the shared platform contract: the catalogue is consistent, account and
 * post metrics carry exactly the catalogue's names, and every figure equals the simulator's own
 * (the harness computes it from the simulator's model), before and after one more post, with the
 * simulator's analytics clock frozen so figures hold still while they are compared.
 */
import { PlatformError, type PlatformFailure } from '../../../core/domain/errors';
import {
  ACCOUNT_METRICS, POST_METRICS, postRefOf, type AccountMetrics, type AccountMetricsRequest, type PlatformCredentials,
  type PostMetrics, type PublishOutcome, type VerifiedConnection,
} from '../../../core/ports/platform';
import type { PlatformHarness } from './shared-contract';

/** What the analytics contract needs from one network. */
export interface HarnessAnalytics {
  /** Freezes the simulator's analytics clock (undefined: back to the system clock). */
  freeze(at: Date | undefined): void;
  /** Extra fields of the account request for this connection (Facebook page, LinkedIn organization). */
  request?(connection: VerifiedConnection): Partial<AccountMetricsRequest>;
  /**
   * The simulator's own figures for the connected account over the window (inclusive UTC days,
   * ending on the frozen clock's day), as the adapter must report them; checked with toMatchObject.
   */
  account(connection: VerifiedConnection, window: { since: string; until: string; days: number }): Promise<Partial<AccountMetrics>> | Partial<AccountMetrics>;
  /**
   * The simulator's own figures for a published post (at the frozen clock); absent for a network
   * without per-post metrics (an empty `post` catalogue), whose `post` must refuse as unsupported.
   */
  post?(connection: VerifiedConnection, outcome: PublishOutcome): Promise<Partial<PostMetrics>> | Partial<PostMetrics>;
  /** How this section publishes (default: the contract's first publishable kind). LinkedIn measures organization posts. */
  publish?(credentials: PlatformCredentials): Promise<PublishOutcome>;
  /** A failure the next analytics call meets, and what the adapter must make of it. */
  failure: { arm(): void; expect: Partial<PlatformFailure> };
}

const DAY_MS = 86_400_000;
const day = (at: Date) => at.toISOString().slice(0, 10);

export function analyticsContract(
  h: PlatformHarness, a: HarnessAnalytics, publishDefault: (credentials: PlatformCredentials) => Promise<{ outcome: PublishOutcome }>,
): void {
  const publish = async (credentials: PlatformCredentials) => ({ outcome: a.publish ? await a.publish(credentials) : (await publishDefault(credentials)).outcome });
  describe('analytics', () => {
    afterEach(() => a.freeze(undefined));

    it('the catalogue names spec metrics, once each, with labels and a primary impressions field among them', () => {
      const c = h.adapter.analytics!.catalogue;
      expect(['reach', 'views', 'impressions', 'score']).toContain(c.metricType);
      const account = c.account.map((m) => m.name);
      const post = c.post.map((m) => m.name);
      expect(new Set(account).size).toBe(account.length);
      expect(new Set(post).size).toBe(post.length);
      expect(account.filter((n) => !(ACCOUNT_METRICS as readonly string[]).includes(n))).toEqual([]);
      expect(post.filter((n) => !(POST_METRICS as readonly string[]).includes(n))).toEqual([]);
      expect(account).toContain(c.primaryImpressionsField);
      if (post.length) expect(post).toContain(c.postPrimaryImpressionsField);
      expect(Boolean(a.post)).toBe(post.length > 0);
      for (const m of [...c.account, ...c.post]) expect(m.label.trim()).not.toBe('');
    });

    const accountAt = async (connection: VerifiedConnection, at: Date, days = 30) => {
      const got = await h.adapter.analytics!.account({ credentials: connection.credentials }, { until: at, days, ...a.request?.(connection) });
      const window = { since: day(new Date(at.getTime() - (days - 1) * DAY_MS)), until: day(at), days };
      return { got, expected: await a.account(connection, window) };
    };

    it('account metrics: exactly the catalogue names, equal to the simulator figures, and they follow new posts', async () => {
      const connection = await h.connect();
      await publish(connection.credentials);
      const at = new Date(Date.now() + 2 * DAY_MS);
      a.freeze(at);
      const first = await accountAt(connection, at);
      expect(Object.keys(first.got.values).sort()).toEqual(h.adapter.analytics!.catalogue.account.map((m) => m.name).sort());
      for (const [name, value] of Object.entries(first.got.values)) expect({ name, ok: value === null || Number.isFinite(value) }).toEqual({ name, ok: true });
      expect(first.got).toMatchObject(first.expected);
      if (first.got.reachTimeseries) {
        const dates = first.got.reachTimeseries.map((p) => p.date);
        expect(dates.at(-1)).toBe(day(at));
        expect([...dates].sort()).toEqual(dates);
      }
      await publish(connection.credentials);
      const second = await accountAt(connection, at);
      expect(second.got).toMatchObject(second.expected);
      expect(second.expected).not.toEqual(first.expected);
    });

    const expectPost = a.post;
    if (expectPost) {
      it('post metrics: exactly the catalogue names, equal to the simulator figures', async () => {
        const connection = await h.connect();
        const { outcome } = await publish(connection.credentials);
        a.freeze(new Date(Date.now() + 3 * DAY_MS));
        const got = await h.adapter.analytics!.post({ credentials: connection.credentials }, { post: postRefOf(outcome) });
        expect(Object.keys(got.values).sort()).toEqual(h.adapter.analytics!.catalogue.post.map((m) => m.name).sort());
        expect(got).toMatchObject(await expectPost(connection, outcome));
      });
    } else {
      it('post metrics: the network has none, refused as unsupported', async () => {
        const connection = await h.connect();
        const { outcome } = await publish(connection.credentials);
        await expect(h.adapter.analytics!.post({ credentials: connection.credentials }, { post: postRefOf(outcome) }))
          .rejects.toMatchObject({ platform: h.name, failure: { kind: 'unsupported' } });
      });
    }

    it(`a refusal of the network is a PlatformError (${a.failure.expect.kind})`, async () => {
      const connection = await h.connect();
      a.failure.arm();
      let err: unknown;
      try {
        await h.adapter.analytics!.account({ credentials: connection.credentials }, { until: new Date(), days: 30, ...a.request?.(connection) });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(PlatformError);
      expect(err).toMatchObject({ platform: h.name, failure: expect.objectContaining(a.failure.expect) });
    });
  });
}
