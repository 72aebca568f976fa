import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import { createAuthFailureGuard } from '../../adapters/redis/rate-limit';
import { randomIds, sha256KeyHasher, systemClock } from '../../adapters/crypto/node-crypto';
import { createMongoAgentOAuthStore } from '../../adapters/mongo/agent-oauth';
import { agentResourceOf } from '../../core/domain/agent-oauth';
import { deleteExpiredAgentGrants } from '../../core/usecases/agent-oauth';
import { AuthCache } from '../../core/usecases/authenticate';
import { loadConfig, requireSecretKey } from '../shared/config';
import { buildSecretBox, connectMongo, connectRedis, log } from '../shared/compose';
import { onShutdown } from '../shared/shutdown';
import { startObservability } from '../shared/observability';
import { mongoReady, redisReady } from '../shared/readiness';
import { createMcpApp } from './app';
import { mcpServerOptions } from './catalogue-tools';
import { generateTools } from './mcp-server';
import { createUploadHandles } from './uploads';

/** How often expired codes, tokens and upload handles are deleted (FerretDB has no TTL indexes). */
const CLEANUP_EVERY_MS = 10 * 60_000;

/**
 * The MCP daemon (`{mcp_url}` = HERALD_MCP_PUBLIC_URL/mcp): Streamable HTTP, tools generated from
 * the operation catalogue and executed as REST calls to the API with the caller's credential, and
 * the OAuth 2.1 authorization server for agents. It reads the operator accounts, API keys and the
 * auth-failure guard the API reads, so a credential is judged here exactly as there.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const observability = startObservability(config, 'mcp');
  const secretKey = requireSecretKey(config);
  const mongo = await connectMongo(config);
  const redis = connectRedis(config);
  const store = await createMongoAgentOAuthStore(mongo.db);
  const resource = agentResourceOf(config.mcp.publicBaseUrl);
  const oauth = {
    store, hasher: sha256KeyHasher, ids: randomIds, clock: systemClock, resource, apiKeys: mongo.storage.apiKeys,
    ttls: { codeMs: config.mcp.codeTtlMs, accessMs: config.mcp.accessTokenTtlMs, refreshMs: config.mcp.refreshTokenTtlMs },
  };
  const auth = {
    storage: mongo.storage, hasher: sha256KeyHasher, clock: systemClock, agentTokens: { store, resource },
    guard: createAuthFailureGuard(redis, {
      maxFailures: config.rateLimit.authMaxFailures, blockSeconds: config.rateLimit.authBlockSeconds, keyPrefix: `${config.redisKeyPrefix}:authfail`,
    }),
    authCache: new AuthCache(config.api.authCacheMs),
  };
  const uploads = createUploadHandles({
    dir: config.mcp.uploadDir,
    ttlMs: 3600_000, maxBytes: config.media.maxBytes, publicBaseUrl: config.mcp.publicBaseUrl,
  });
  const serverOptions = mcpServerOptions(config);
  const tools = generateTools(serverOptions);
  const publicHost = new URL(config.mcp.publicBaseUrl).hostname;
  const mcp = createMcpApp({ server: serverOptions, tools, oauth, secrets: buildSecretBox(config), auth, uploads, log }, {
    publicBaseUrl: config.mcp.publicBaseUrl,
    allowedHosts: [...new Set([publicHost, config.mcp.host, 'localhost', '127.0.0.1', '[::1]'])],
    trustProxy: config.api.trustProxy,
    // base64 is 4/3 of the bytes, plus the rest of the call.
    jsonLimitBytes: Math.ceil(config.mcp.base64MaxBytes * 4 / 3) + 1024 * 1024,
    // A key of its own derived from the secret key, as the web daemon's CSRF key.
    consentKey: createHmac('sha256', Buffer.from(secretKey, 'base64')).update('herald mcp consent v1').digest('base64'),
    ...(config.mcp.oauthRateLimit ? {} : { oauthRateLimit: false as const }),
  });
  const server = createServer(mcp.app);
  // Tool calls may wait for a synchronous upload (up to a minute); large files take their time.
  server.requestTimeout = config.api.syncTimeoutMs + 10 * 60_000;
  await new Promise<void>((resolve) => server.listen(config.mcp.port, config.mcp.host, resolve));
  log('herald mcp listening', { url: `${config.mcp.publicBaseUrl}/mcp`, api: config.mcp.apiBaseUrl, tools: tools.length });
  await observability.serveOps({ mongodb: mongoReady(mongo.db), redis: redisReady(redis) });

  const cleanup = setInterval(() => {
    Promise.all([deleteExpiredAgentGrants(oauth), uploads.sweep()])
      .then(([grants, files]) => { if (grants || files) log('expired agent grants and uploads deleted', { grants, files }); })
      .catch((err: Error) => log('mcp cleanup failed', { error: err.message }));
  }, CLEANUP_EVERY_MS);
  cleanup.unref();

  onShutdown(config.web.shutdownGraceMs, async () => {
    clearInterval(cleanup);
    server.closeIdleConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await Promise.allSettled([mongo.client.close(), redis.quit(), observability.shutdown()]);
  }, () => server.closeAllConnections());
}

main().catch((err) => {
  log('herald mcp failed to start', { error: (err as Error).message });
  process.exit(1);
});
