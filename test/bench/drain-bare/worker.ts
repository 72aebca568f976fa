/**
 * The baseline's worker process (`node dist/test/bench/drain-bare/worker.js`): Temporal's Worker with
 * the options Herald's publish pool uses (200 concurrent activities, the SDK's defaults otherwise),
 * the bare workflow and its one activity. Prints `ready` once it polls; stops on SIGTERM.
 * Environment: TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, BARE_TASK_QUEUE.
 */
import { NativeConnection, Worker } from '@temporalio/worker';
import { createBareActivities } from './activities';

async function main(): Promise<void> {
  const connection = await NativeConnection.connect({ address: process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233' });
  const worker = await Worker.create({
    connection,
    namespace: process.env.TEMPORAL_NAMESPACE ?? 'default',
    taskQueue: process.env.BARE_TASK_QUEUE ?? 'herald-bench-bare',
    maxConcurrentActivityTaskExecutions: 200,
    workflowsPath: require.resolve('./workflow'),
    activities: createBareActivities(),
  });
  process.on('SIGTERM', () => worker.shutdown());
  const running = worker.run();
  process.stdout.write('ready\n');
  await running;
  await connection.close();
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
