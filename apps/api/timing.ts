import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { MongoClient } from 'mongodb';
import type { ApiDeps } from './deps';

type Spans = Map<string, { ms: number; n: number }>;

/**
 * Where a request's time goes, for benchmarks and profiling (HERALD_DEBUG_TIMING=true): every
 * answer carries a `Server-Timing` header with the request's total and, per dependency call it
 * made (each repository method, the Redis limiters, Temporal), the time spent and the number of
 * calls, plus the MongoDB commands sent. Off by default: the header describes the server's inner
 * workings to every client, and the bookkeeping costs a little per call.
 */
export function createRequestTiming() {
  const current = new AsyncLocalStorage<Spans>();

  const add = (spans: Spans | undefined, name: string, ms: number) => {
    if (!spans) return;
    const span = spans.get(name) ?? { ms: 0, n: 0 };
    span.ms += ms;
    span.n += 1;
    spans.set(name, span);
  };

  /** The same object, with each method's calls timed under `<prefix>.<method>`. */
  function timed<T extends object>(prefix: string, target: T): T {
    return new Proxy(target, {
      get(obj, prop, receiver) {
        const value = Reflect.get(obj, prop, receiver) as unknown;
        if (typeof value !== 'function' || typeof prop !== 'string') return value;
        return (...args: unknown[]) => {
          const spans = current.getStore();
          const t0 = performance.now();
          const result = (value as (...a: unknown[]) => unknown).apply(obj, args);
          if (!(result instanceof Promise)) return result;
          return result.finally(() => add(spans, `${prefix}.${prop}`, performance.now() - t0));
        };
      },
    });
  }

  const format = (spans: Spans, totalMs: number) => [
    `total;dur=${totalMs.toFixed(2)}`,
    ...[...spans].map(([name, s]) => `${name};dur=${s.ms.toFixed(2)};desc="${s.n}"`),
  ].join(', ');

  return {
    /** The API's dependencies with their calls timed (database, limiters, Temporal). */
    instrument(deps: ApiDeps): ApiDeps {
      const storage = Object.fromEntries(Object.entries(deps.storage).map(([name, repo]) => [name, timed(`db.${name}`, repo as object)]));
      return {
        ...deps,
        storage: storage as unknown as ApiDeps['storage'],
        guard: timed('redis.authguard', deps.guard),
        limiter: timed('redis.ratelimit', deps.limiter),
        ...(deps.uploadVersions ? { uploadVersions: timed('redis.uploadstamps', deps.uploadVersions) } : {}),
        runner: timed('temporal', deps.runner),
        mediaStore: timed('media.store', deps.mediaStore),
        // A media job's intake: input storing, ffprobe, the minute ledger, the job record, the workflow start.
        ...(deps.mediaJobs ? {
          mediaJobs: {
            ...deps.mediaJobs,
            mediaJobs: timed('db.mediaJobs', deps.mediaJobs.mediaJobs),
            mediaUsage: timed('db.mediaUsage', deps.mediaJobs.mediaUsage),
            processor: timed('media.ffprobe', deps.mediaJobs.processor),
            runner: timed('temporal.mediaJob', deps.mediaJobs.runner),
          },
        } : {}),
        ...(deps.analyticsHistory ? { analyticsHistory: { ...deps.analyticsHistory, snapshots: timed('db.snapshots', deps.analyticsHistory.snapshots) } } : {}),
      };
    },

    /** Counts the MongoDB commands (round trips) each request sends; the client needs monitorCommands. */
    observe(client: MongoClient): void {
      const done = (e: { duration: number }) => add(current.getStore(), 'mongo.commands', e.duration);
      client.on('commandSucceeded', done);
      client.on('commandFailed', done);
    },

    /** The HTTP handler, with the request's spans collected and sent as Server-Timing. */
    handler(callback: (req: IncomingMessage, res: ServerResponse) => void) {
      return (req: IncomingMessage, res: ServerResponse): void => {
        const spans: Spans = new Map();
        const t0 = performance.now();
        const writeHead = res.writeHead;
        // Every answer passes here (Koa's end() writes the head implicitly), once the body is known.
        res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
          if (!res.headersSent) res.setHeader('Server-Timing', format(spans, performance.now() - t0));
          return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
        } as ServerResponse['writeHead'];
        current.run(spans, () => callback(req, res));
      };
    },
  };
}
