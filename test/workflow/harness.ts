/**
 * The workflow tier's harness: one real workflow at a time on the Temporal dev server
 * (`bash ops/infra.sh up`; TEMPORAL_ADDRESS / TEMPORAL_NAMESPACE from `. ops/lib.sh; load_env`),
 * run by a Worker created in this process over fake activities the test defines, each test on a
 * task queue of its own, over the pools' production bundles (made once per jest run by
 * global-setup.ts). The tests of a file run concurrently (`it.concurrent`): they wait mostly on the dev server's timers, which fire
 * on a one-second tick, not on the machine.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import { bundleWorkflowCode, DefaultLogger, NativeConnection, Runtime, Worker, type WorkflowBundleOption } from '@temporalio/worker';
import { defaultPayloadConverter } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { BUNDLES, BUNDLES_ENV, quietLogger, type Pool } from './bundles';

const address = process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233';
const namespace = process.env.TEMPORAL_NAMESPACE ?? 'default';

export interface WorkflowTier {
  client: Client;
  /**
   * Runs `body` while a worker of `bundle` polls a fresh task queue with `activities`, then shuts
   * the worker down (after `body`, whether it passed or threw).
   */
  withWorker<T>(bundle: Pool, activities: object, body: (taskQueue: string) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** A pool's bundle: the one global-setup.ts made for this jest run, or made now (a file run some other way). */
async function bundleOf(pool: Pool): Promise<WorkflowBundleOption> {
  const dir = process.env[BUNDLES_ENV];
  const codePath = dir ? path.join(dir, `${pool}.js`) : undefined;
  if (codePath && existsSync(codePath)) return { codePath };
  return bundleWorkflowCode({ workflowsPath: BUNDLES[pool], logger: quietLogger });
}

/** Call in `beforeAll`: connects to the dev server and finds the given pools' bundles. */
export async function workflowTier(...pools: Pool[]): Promise<WorkflowTier> {
  try {
    // Errors only: the fakes fail activities on purpose, and a terminated run's last task is refused.
    Runtime.install({ logger: new DefaultLogger('ERROR'), telemetryOptions: { logging: { filter: { core: 'ERROR', other: 'ERROR' }, forward: {} } } });
  } catch {
    // Installed by an earlier test file in this jest worker.
  }
  const bundles = new Map<Pool, WorkflowBundleOption>();
  for (const pool of pools) bundles.set(pool, await bundleOf(pool));
  const native = await NativeConnection.connect({ address });
  const connection = await Connection.connect({ address });
  const client = new Client({ connection, namespace, identity: 'herald-workflow-tier' });
  return {
    client,
    async withWorker(pool, activities, body) {
      const workflowBundle = bundles.get(pool);
      if (!workflowBundle) throw new Error(`bundle ${pool} was not asked for in workflowTier()`);
      const taskQueue = `herald-wf-${pool}-${randomBytes(4).toString('hex')}`;
      const worker = await Worker.create({
        connection: native, namespace, taskQueue, workflowBundle, activities,
        // A test's worker stops at once; nothing of it has to survive.
        shutdownGraceTime: '1 second',
      });
      return worker.runUntil(() => body(taskQueue));
    },
    async close() {
      await connection.close();
      await native.close();
    },
  };
}

/**
 * A describe block's tier: connects in `beforeAll`, closes in `afterAll`. The answer is usable in
 * the tests (not at collection time): `const tier = useWorkflowTier('publish')`.
 */
export function useWorkflowTier(...pools: Pool[]): Omit<WorkflowTier, 'close'> {
  let tier: WorkflowTier | undefined;
  beforeAll(async () => {
    tier = await workflowTier(...pools);
  });
  afterAll(() => tier?.close());
  const open = (): WorkflowTier => {
    if (!tier) throw new Error('the workflow tier is used before beforeAll connected it');
    return tier;
  };
  return {
    get client() { return open().client; },
    withWorker: (pool, activities, body) => open().withWorker(pool, activities, body),
  };
}

/** A unique workflow id per test (the dev server keeps earlier runs). */
export const uniqueId = (prefix: string): string => `${prefix}:wf-tier-${randomBytes(4).toString('hex')}`;

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits until `probe` holds (polled), failing after `timeoutMs`: bounds are generous so a loaded
 * machine is slower, never failing.
 */
export async function eventually(what: string, probe: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`${what}: not seen within ${timeoutMs} ms`);
    await pause(50);
  }
}

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/** The run's history events, by their type name without the prefix (`TimerStarted`, `ActivityTaskScheduled`, …). */
export async function historyOf(handle: WorkflowHandle, runId?: string): Promise<Array<{ type: string; event: HistoryEvent }>> {
  const history = await (runId ? handle.client.getHandle(handle.workflowId, runId) : handle).fetchHistory();
  return (history.events ?? []).map((event) => ({ type: eventTypeName(event), event }));
}

const EVENT_TYPE_NAMES = new Map<number, string>(
  Object.entries(temporal.api.enums.v1.EventType).filter(([, v]) => typeof v === 'number').map(([k, v]) => [v as number, k]),
);

/** `EVENT_TYPE_TIMER_STARTED` → `TimerStarted`. */
function eventTypeName(event: HistoryEvent): string {
  const name = EVENT_TYPE_NAMES.get(Number(event.eventType ?? 0)) ?? String(event.eventType);
  return name.replace(/^EVENT_TYPE_/, '').toLowerCase().replace(/(^|_)([a-z])/g, (_m, _s, c: string) => c.toUpperCase());
}

/** The activity types scheduled in a history, in order. */
export const activitiesIn = (events: Array<{ type: string; event: HistoryEvent }>): string[] =>
  events.filter((e) => e.type === 'ActivityTaskScheduled').map((e) => e.event.activityTaskScheduledEventAttributes?.activityType?.name ?? '?');

/** How many events of `type` a history holds. */
export const countOf = (events: Array<{ type: string }>, type: string): number => events.filter((e) => e.type === type).length;

/** The input the latest run of the workflow started with (after a continue-as-new: the carried one). */
export async function inputOf(handle: WorkflowHandle): Promise<unknown> {
  const [started] = await historyOf(handle);
  const payload = started?.event.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
  return payload ? defaultPayloadConverter.fromPayload(payload) : undefined;
}
