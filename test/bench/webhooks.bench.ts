/**
 * Webhooks: `BENCH_EVENTS` events (1,000) written into the notification outbox at once (as upload
 * activities and the connect page write them), fanned out by the worker's dispatcher to the
 * breaker workflows of `BENCH_WEBHOOK_ACCOUNTS` accounts (10), each with its webhook on one
 * loopback receiver that answers 200 at once. Printed: deliveries per second (first event written
 * to last delivery received) and the latency from the event being written to its receipt
 * (p50/p90/p99/max). Every delivery must arrive, signed, with a distinct delivery id.
 *
 * Knobs: BENCH_EVENTS (1000), BENCH_WEBHOOK_ACCOUNTS (10), BENCH_WEBHOOK_TIMEOUT_S (900).
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { MongoClient } from 'mongodb';
import { toOutboxEventDoc } from '../../adapters/mongo/notifications/outbox';
import { verifyWebhook } from '../../adapters/notifications/signature';
import type { HeraldEvent } from '../../core/ports/notifications';
import { startWebhookReceiver } from '../support/webhook-receiver';
import { describeEnvironment, envInt, harness, heading, ms, onCleanup, runMain, say, summarize, table } from './support';

const { apiClient, startStack } = harness;

const EVENTS = envInt('BENCH_EVENTS', 1000);
const ACCOUNTS = envInt('BENCH_WEBHOOK_ACCOUNTS', 10);
const TIMEOUT_MS = envInt('BENCH_WEBHOOK_TIMEOUT_S', 900) * 1000;

async function main(): Promise<void> {
  heading('webhooks: outbox events fanned out to signed webhook deliveries');
  say(describeEnvironment());
  say(`events ${EVENTS} over ${ACCOUNTS} accounts (one webhook channel each), one loopback receiver answering 200 at once`);
  const receiver = await startWebhookReceiver();
  onCleanup(() => receiver.close());
  const stack = await startStack({ HERALD_WEBHOOK_ALLOW: `127.0.0.1:${receiver.port}`, HERALD_NOTIFY_POLL_MS: '100' });
  onCleanup(() => stack.stop());
  await stack.startWorker();

  const accounts: { id: string; secret: string }[] = [];
  for (let i = 0; i < ACCOUNTS; i += 1) {
    const api = apiClient(stack.apiUrl, await stack.newApiKey(`bench-webhooks-${i}@herald.dev`));
    const me = await api.get('/api/herald/me');
    const saved = await api.post('/api/herald/users/notifications', { webhook_url: receiver.url(`/a${i}`) });
    if (saved.status !== 200) throw new Error(`saving the webhook answered ${saved.status}: ${JSON.stringify(saved.body)}`);
    accounts.push({ id: me.body.account_id as string, secret: saved.body.notifications.webhook_secret as string });
  }

  const mongo = await MongoClient.connect(stack.env.MONGODB_URI!);
  onCleanup(() => mongo.close());
  const events = mongo.db().collection('events');
  const writtenAt = new Map<string, number>();
  const run = randomBytes(3).toString('hex');
  const docs = Array.from({ length: EVENTS }, (_, i) => {
    const account = accounts[i % ACCOUNTS]!;
    const name = `bench-${run}-${i}`;
    return {
      deliveryKey: `social_account_connected:${account.id}:${name}`,
      event: { event: 'social_account_connected', status: 'connected', account_id: account.id, user_email: 'bench@herald.dev', platform: 'x', account_name: name, created_at: '' },
      createdAt: new Date(),
      deliveredAt: null,
    };
  });
  const started = performance.now();
  const startedWall = Date.now();
  // In batches of 100, as a busy worker's activities would write them.
  for (let i = 0; i < docs.length; i += 100) {
    const batch = docs.slice(i, i + 100).map((d) => ({ ...d, createdAt: new Date(), event: { ...d.event, created_at: new Date().toISOString() } }));
    for (const d of batch) writtenAt.set(d.event.account_name, Date.now());
    // The documents the outbox writes (with the pending hour key the dispatcher reads by).
    await events.insertMany(batch.map((d) => toOutboxEventDoc(d.event as HeraldEvent, d.deliveryKey, d.createdAt)));
  }
  const written = performance.now();
  await receiver.waitFor((all) => all.length >= EVENTS, TIMEOUT_MS, 'webhook deliveries');
  const elapsed = performance.now() - started;

  const latencies: number[] = [];
  const ids = new Set<string>();
  let unsigned = 0;
  for (const d of receiver.received) {
    const account = accounts[Number(d.path.slice(2))]!;
    if (!verifyWebhook(account.secret, String(d.headers['x-herald-timestamp']), d.raw, String(d.headers['x-herald-signature']))) unsigned += 1;
    ids.add(String(d.headers['x-herald-delivery']));
    latencies.push(d.at - writtenAt.get(d.json.account_name)!);
  }
  if (unsigned) throw new Error(`${unsigned} deliveries failed signature verification`);
  if (ids.size !== EVENTS) throw new Error(`${ids.size} distinct delivery ids for ${EVENTS} events (duplicates: ${receiver.received.length - ids.size})`);
  const l = summarize(latencies);
  say(`\nwritten ${EVENTS} events in ${ms(written - started)} ms (from ${new Date(startedWall).toISOString()}); all delivered after ${(elapsed / 1000).toFixed(1)} s`);
  say(table(['deliveries', 'deliveries/s', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms'], [[
    receiver.received.length, (receiver.received.length / (elapsed / 1000)).toFixed(1), ms(l.p50), ms(l.p90), ms(l.p99), ms(l.max),
  ]]));
}

runMain('webhooks', main);
