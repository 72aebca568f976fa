import { randomBytes } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import { Client, Connection } from '@temporalio/client';
import { withoutAsyncHooksForNamespaceScopes } from '../../adapters/temporal/call-context';

const ADDRESS = process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233';

/** Node 20's AsyncLocalStorage keeps whether it is on (and with it the process's async hooks). */
const enabled = (c: Connection) => (c.callContextStorage as unknown as { enabled: boolean }).enabled;

/**
 * The Temporal client's call scopes on the real dev server: namespaced calls carry their header
 * without turning async hooks on; an abort-signal scope still cancels a long poll, and leaves
 * the hooks off once it has ended.
 */
describe('Temporal call context without async hooks for namespace scopes', () => {
  const headers: string[][] = [];
  let connection: Connection;
  let client: Client;
  const taskQueue = `call-context-${randomBytes(4).toString('hex')}`;
  const started: string[] = [];

  beforeAll(async () => {
    const capture: grpc.Interceptor = (options, nextCall) => new grpc.InterceptingCall(nextCall(options), {
      start(metadata, listener, next) {
        headers.push(metadata.get('temporal-namespace').map(String));
        next(metadata, listener);
      },
    });
    connection = await Connection.connect({ address: ADDRESS, interceptors: [capture] });
    withoutAsyncHooksForNamespaceScopes(connection);
    client = new Client({ connection, namespace: 'default' });
  });
  afterAll(async () => {
    for (const id of started) await client.workflow.getHandle(id).terminate('test over').catch(() => undefined);
    await connection.close();
  });

  it('sends the namespace header on every namespaced call and leaves async hooks off', async () => {
    expect(enabled(connection)).toBe(false);
    headers.length = 0;
    const id = `call-context-${randomBytes(4).toString('hex')}`;
    const handle = await client.workflow.start('NoSuchWorkflow', { taskQueue, workflowId: id, args: [], workflowExecutionTimeout: '1 minute' });
    started.push(id);
    expect((await handle.describe()).status.name).toBe('RUNNING');
    expect(headers.length).toBeGreaterThanOrEqual(2);
    expect(headers.every((h) => h.length === 1 && h[0] === 'default')).toBe(true);
    expect(enabled(connection)).toBe(false);
  });

  it('an abort-signal scope still cancels a long poll, then the hooks are off again', async () => {
    const id = `call-context-${randomBytes(4).toString('hex')}`;
    const handle = await client.workflow.start('NoSuchWorkflow', { taskQueue, workflowId: id, args: [], workflowExecutionTimeout: '1 minute' });
    started.push(id);
    const abort = new AbortController();
    const waiting = client.withAbortSignal(abort.signal, () => handle.result());
    // Inside the scope the real storage is on (the long poll's later calls need the signal).
    expect(enabled(connection)).toBe(true);
    setTimeout(() => abort.abort(), 300);
    const t0 = Date.now();
    await expect(waiting).rejects.toThrow();
    // The workflow runs a minute: only the cancelled poll ends it this early (generous bound).
    expect(Date.now() - t0).toBeLessThan(30_000);
    expect(enabled(connection)).toBe(false);
    // A namespaced call inside a deadline scope keeps the deadline (real storage) and its header.
    headers.length = 0;
    await client.withDeadline(Date.now() + 10_000, () => handle.describe());
    expect(headers).toEqual([['default']]);
    expect(enabled(connection)).toBe(false);
  });
});
