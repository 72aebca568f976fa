import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode, DefaultLogger, Runtime, Worker, type WorkflowBundle } from '@temporalio/worker';
import { WORKFLOW_TYPES } from '../../core/ports/workflow-names';
import * as publishWorkflows from '../../workflows/index';
import * as mediaWorkflows from '../../workflows/media-job.workflow';
import * as notifyWorkflows from '../../workflows/notification-channel.workflow';
import * as analyticsWorkflows from '../../workflows/analytics-snapshots.workflow';
import { historyFromJSON } from './history-json';

jest.setTimeout(180_000);

/**
 * The replay tier: every history under test/replay/histories (recorded from real runs on the
 * Temporal dev server by test/replay/record.ts, one folder per recording) is replayed against
 * today's workflow code. A change to a workflow's command sequence that is not behind
 * `patched()` fails here, before it can break the runs in flight (a scheduled post waits up to
 * a year). No server needed.
 */
const HISTORIES = path.join(__dirname, 'histories');
const files = readdirSync(HISTORIES, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.json'))
  .sort();

const historyOf = (file: string) => historyFromJSON(readFileSync(path.join(HISTORIES, file), 'utf8'));
const workflowTypeOf = (file: string) =>
  historyOf(file).events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name ?? undefined;

/**
 * The worker pools' bundles (apps/worker/pools/*): a history replays against every bundle that
 * exports its workflow type (the channel workflow is in the publish bundle too, for the runs
 * started there before the notify pool).
 */
const BUNDLES = [
  { pool: 'publish', path: require.resolve('../../workflows/index'), exports: publishWorkflows as Record<string, unknown> },
  { pool: 'media', path: require.resolve('../../workflows/media-job.workflow'), exports: mediaWorkflows as Record<string, unknown> },
  { pool: 'notify', path: require.resolve('../../workflows/notification-channel.workflow'), exports: notifyWorkflows as Record<string, unknown> },
  { pool: 'analytics', path: require.resolve('../../workflows/analytics-snapshots.workflow'), exports: analyticsWorkflows as Record<string, unknown> },
];
const bundlesOf = (type: string | undefined) => BUNDLES.filter((b) => type !== undefined && typeof b.exports[type] === 'function');

describe('replay', () => {
  const workflowBundles = new Map<string, WorkflowBundle>();

  beforeAll(async () => {
    Runtime.install({ logger: new DefaultLogger('WARN') });
    // One bundle per pool for every history (bundling is the slow part).
    for (const b of BUNDLES) workflowBundles.set(b.pool, await bundleWorkflowCode({ workflowsPath: b.path, logger: quietLogger }));
  });

  /** Workflow types with no recorded history yet; a new type cannot go unrecorded unnoticed. */
  const UNRECORDED: readonly string[] = [];

  it('has recorded histories of every workflow type, each exported by a pool\'s bundle under its name', () => {
    const types = new Set(files.map(workflowTypeOf));
    for (const type of Object.values(WORKFLOW_TYPES).filter((t) => !UNRECORDED.includes(t))) {
      expect(types).toContain(type);
      expect(bundlesOf(type).map((b) => b.pool)).not.toEqual([]);
    }
  });

  it.each(files)('%s replays deterministically', async (file) => {
    const bundles = bundlesOf(workflowTypeOf(file));
    expect(bundles).not.toEqual([]);
    for (const b of bundles) await Worker.runReplayHistory({ workflowBundle: workflowBundles.get(b.pool)! }, historyOf(file), `${file} (${b.pool})`);
  });
});

/** Bundler chatter stays out of the test output; warnings and errors still show. */
const quietLogger = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: (message: string) => console.warn(message),
  error: (message: string) => console.error(message),
};
