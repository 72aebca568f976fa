import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort, ROOT } from '../support/stack';
import { useHerald } from '../support/e2e';

jest.setTimeout(300_000);

const CONFORMANCE = path.join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance 0.1.13) against the MCP
 * daemon, for the server scenarios that apply to Herald. The others exercise fixture tools,
 * prompts, sampling, elicitation and subscriptions of the suite's reference server
 * (`test_simple_text`, `test_prompt_*`, …), which Herald does not have by design.
 *
 * The suite's client sends no credential, and every Herald MCP request needs one: a loopback proxy
 * in front of the daemon adds the operator's API key and passes everything else (Host and Origin
 * included, so the DNS-rebinding scenario reaches the daemon's own check) through unchanged.
 */
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'resources-list', 'logging-set-level', 'dns-rebinding-protection'];

describe('MCP conformance suite (server scenarios)', () => {
  let proxy: Server;
  let proxyUrl: string;
  const out = mkdtempSync(path.join(os.tmpdir(), 'herald-mcp-conformance-'));

  const herald = useHerald({ worker: false, mcp: true, account: { email: 'conformance@herald.dev' } });
  const { stack } = herald;

  beforeAll(async () => {
    const key = herald.key;
    const target = new URL(stack.mcpUrl);
    proxy = createServer((req, res) => {
      const upstream = request({
        host: target.hostname, port: target.port, method: req.method, path: req.url,
        headers: { ...req.headers, authorization: `Apikey ${key}` },
      }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.writeHead(502).end());
      req.pipe(upstream);
    });
    const port = await freePort();
    await new Promise<void>((resolve) => proxy.listen(port, '127.0.0.1', resolve));
    proxyUrl = `http://127.0.0.1:${port}/mcp`;
  });

  afterAll(async () => {
    await new Promise((resolve) => proxy?.close(resolve));
    rmSync(out, { recursive: true, force: true });
  });

  /** checks.json files under `dir`, however the suite names its run directories. */
  const checksIn = (dir: string): Array<{ id: string; status: string; errorMessage?: string }> => readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return checksIn(p);
    return name === 'checks.json' ? JSON.parse(readFileSync(p, 'utf8')) : [];
  });

  it.each(SCENARIOS)('passes %s', async (scenario) => {
    const dir = path.join(out, scenario);
    const run = await promisify(execFile)(process.execPath, [CONFORMANCE, 'server', '--url', proxyUrl, '--scenario', scenario, '-o', dir], { timeout: 120_000 })
      .catch((err: { stdout?: string; stderr?: string; code?: number }) => ({ stdout: err.stdout ?? '', stderr: `${err.stderr ?? ''} (exit ${err.code})` }));
    const checks = checksIn(dir);
    expect(checks.length).toBeGreaterThan(0);
    const failed = checks.filter((c) => c.status !== 'SUCCESS');
    if (failed.length) throw new Error(`${scenario}: ${JSON.stringify(failed, null, 2)}\n${run.stdout}\n${run.stderr}`);
  });
});
