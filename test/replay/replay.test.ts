import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode, DefaultLogger, Runtime, Worker, type WorkflowBundle } from '@temporalio/worker';
import { WORKFLOW_TYPES } from '../../core/ports/workflow-names';
import * as workflows from '../../workflows/index';
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

describe('replay', () => {
  let workflowBundle: WorkflowBundle;

  beforeAll(async () => {
    Runtime.install({ logger: new DefaultLogger('WARN') });
    // One bundle of today's workflows for every history (bundling is the slow part).
    workflowBundle = await bundleWorkflowCode({ workflowsPath: require.resolve('../../workflows/index'), logger: quietLogger });
  });

  /**
   * Bundled apart for its own worker pool (workflows/media-job.workflow.ts) and not recorded yet:
   * the recorder runs one bundle. Listed here so a new workflow type cannot go unrecorded unnoticed.
   */
  const UNRECORDED: readonly string[] = [WORKFLOW_TYPES.mediaJob];

  it('has recorded histories of every workflow type, each exported by the workflow bundle under its name', () => {
    const types = new Set(files.map(workflowTypeOf));
    for (const type of Object.values(WORKFLOW_TYPES).filter((t) => !UNRECORDED.includes(t))) {
      expect(types).toContain(type);
      expect(typeof (workflows as Record<string, unknown>)[type]).toBe('function');
    }
  });

  it.each(files)('%s replays deterministically', async (file) => {
    await Worker.runReplayHistory({ workflowBundle }, historyOf(file), file);
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
