import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { timingSafeEqual } from 'node:crypto';

/** One readiness check: resolves true when the dependency answers. */
export type ReadinessCheck = () => Promise<boolean>;

/** Runs every check (each bounded by `timeoutMs`; a check that throws or hangs is not ready). */
export async function readiness(checks: Record<string, ReadinessCheck>, timeoutMs = 3_000): Promise<{ ok: boolean; checks: Record<string, boolean> }> {
  const results = await Promise.all(Object.entries(checks).map(async ([name, check]) => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => { timer = setTimeout(() => resolve(false), timeoutMs); });
    const ok = await Promise.race([check().then(Boolean, () => false), timeout]);
    clearTimeout(timer);
    return [name, ok] as const;
  }));
  const out = Object.fromEntries(results);
  return { ok: results.every(([, ok]) => ok), checks: out };
}

/** The JSON bodies of /healthz and /readyz, the same on the operator port and on a daemon's public port. */
export const livenessBody = () => ({ success: true, status: 'alive' });
export function readinessBody(result: { ok: boolean; checks: Record<string, boolean> }): Record<string, unknown> {
  return result.ok ? { success: true, status: 'ready', checks: result.checks }
    : {
      success: false, status: 'not_ready', error_code: 'not_ready', checks: result.checks,
      message: `Not ready: ${Object.keys(result.checks).filter((k) => !result.checks[k]).join(', ')} unreachable.`,
    };
}

export interface OpsServerOptions {
  host: string;
  /** 0: any free port. */
  port: number;
  checks: Record<string, ReadinessCheck>;
  /** The exposition text of every metrics source of the process (prom-client, the Temporal SDK). */
  metrics: () => Promise<{ contentType: string; text: string }>;
  /** When set, /metrics asks for `Authorization: Bearer <token>`. */
  token?: string;
}

export interface OpsServer {
  server: Server;
  url: string;
  port: number;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: unknown, contentType = 'application/json; charset=utf-8'): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(text), 'Cache-Control': 'no-store' });
  res.end(text);
}

function tokenMatches(req: IncomingMessage, token: string): boolean {
  const given = Buffer.from(/^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '');
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/**
 * The operator port of a daemon: GET /healthz (liveness: the process answers), GET /readyz (its
 * dependencies answer; 503 naming those that do not) and GET /metrics (Prometheus). Separate from
 * the public port so metrics are never exposed by accident: it listens on loopback unless
 * HERALD_OPS_HOST says otherwise, and HERALD_OPS_TOKEN adds a bearer token on /metrics.
 */
export async function startOpsServer(opts: OpsServerOptions): Promise<OpsServer> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, { success: false, error_code: 'method_not_allowed', message: 'The operator port answers GET only.' });
    if (path === '/healthz') return send(res, 200, livenessBody());
    if (path === '/readyz') {
      void readiness(opts.checks).then((r) => send(res, r.ok ? 200 : 503, readinessBody(r)));
      return;
    }
    if (path === '/metrics') {
      if (opts.token && !tokenMatches(req, opts.token)) {
        return send(res, 401, { success: false, error_code: 'unauthenticated', message: 'Send "Authorization: Bearer <HERALD_OPS_TOKEN>".' });
      }
      void opts.metrics().then((m) => send(res, 200, m.text, m.contentType),
        (err: Error) => send(res, 500, { success: false, error_code: 'metrics_failed', message: err.message }));
      return;
    }
    return send(res, 404, { success: false, error_code: 'not_found', message: 'The operator port serves /healthz, /readyz and /metrics.' });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    server,
    port,
    url: `http://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${port}`,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
