import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { mcpAuthRouter, getOAuthProtectedResourceMetadataUrl } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { hostHeaderValidation } from '@modelcontextprotocol/sdk/server/middleware/hostHeaderValidation.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { AGENT_ACCESS_TOKEN_PREFIX, AGENT_SCOPES, isAgentResource } from '../../core/domain/agent-oauth';
import { HeraldError } from '../../core/domain/errors';
import type { SecretBox } from '../../core/ports/system';
import type { AgentOAuthDeps } from '../../core/usecases/agent-oauth';
import { authenticate, type AuthenticateDeps } from '../../core/usecases/authenticate';
import { SECURITY_HEADERS } from '../shared/security-headers';
import { consentRenderer, consentRoutes } from './consent';
import { createHeraldMcpServer, type HeraldMcpOptions, type Principal } from './mcp-server';
import { createAgentOAuthProvider } from './oauth-provider';
import type { GeneratedTool } from './tools';
import { UploadRefused, type UploadHandles } from './uploads';

export interface McpAppOptions {
  /** The daemon's address as agents reach it: the OAuth issuer; the protected resource is `{publicBaseUrl}/mcp` (deps.oauth.resource). */
  publicBaseUrl: string;
  /** Host names the daemon answers to (DNS-rebinding protection). */
  allowedHosts: string[];
  /** Reverse proxies in front whose X-Forwarded-For entries are trusted (HERALD_TRUST_PROXY); 0: none. */
  trustProxy: number;
  /** Largest JSON request on /mcp (inline base64 files make tool calls large). */
  jsonLimitBytes: number;
  /** Signs the consent form's pending request. */
  consentKey: string;
  /** OAuth endpoints' own request limits per client address (the SDK's; false in tests that register many clients). */
  oauthRateLimit?: false;
}

export interface McpAppDeps {
  server: Omit<HeraldMcpOptions, 'principalOf' | 'uploads'>;
  tools: GeneratedTool[];
  oauth: AgentOAuthDeps;
  secrets: SecretBox;
  auth: AuthenticateDeps;
  uploads: UploadHandles;
  log: (message: string, fields: Record<string, unknown>) => void;
}

type AuthedRequest = Request & { auth?: AuthInfo };

function jsonRpcError(res: Response, status: number, code: number, message: string): void {
  res.status(status).json({ jsonrpc: '2.0', error: { code, message }, id: null });
}

/**
 * The MCP daemon's HTTP side: Streamable HTTP at /mcp (stateless), the OAuth 2.1 authorization server (the SDK's handlers over Herald's store), the
 * consent page, upload handles and /healthz.
 */
export function createMcpApp(deps: McpAppDeps, options: McpAppOptions): { app: Express } {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', options.trustProxy);
  // Every answer (the consent page sets a page policy of its own).
  app.use((_req, res, next) => { res.set(SECURITY_HEADERS); next(); });
  app.use(hostHeaderValidation(options.allowedHosts));

  // The protected resource, and the audience every token is issued for (core/domain/agent-oauth.ts).
  const mcpUrl = new URL(deps.oauth.resource);
  const resourceMetadataUrl = getOAuthProtectedResourceMetadataUrl(mcpUrl);
  const provider = createAgentOAuthProvider({ ...deps.oauth, secrets: deps.secrets, consent: consentRenderer(options.consentKey) });

  app.get('/healthz', (_req, res) => { res.json({ success: true, status: 'alive' }); });

  // A token is only issued for this server: a resource indicator naming another is refused before consent.
  app.use('/authorize', express.urlencoded({ extended: false }), (req, res, next) => {
    const resource = (req.method === 'POST' ? (req.body as Record<string, unknown> | undefined)?.resource : req.query.resource) as string | undefined;
    if (resource !== undefined && !isAgentResource(resource, mcpUrl.href)) {
      res.status(400).json({ error: 'invalid_target', error_description: `This authorization server issues tokens for ${mcpUrl.href} only.` });
      return;
    }
    next();
  });
  const limits = options.oauthRateLimit === false ? { rateLimit: false as const } : {};
  app.use(mcpAuthRouter({
    provider,
    issuerUrl: new URL(options.publicBaseUrl),
    resourceServerUrl: mcpUrl,
    scopesSupported: [...AGENT_SCOPES],
    resourceName: 'Herald MCP',
    clientRegistrationOptions: { clientIdGeneration: false, ...limits },
    authorizationOptions: { ...limits },
    tokenOptions: { ...limits },
    revocationOptions: { ...limits },
  }));
  // RFC 9728 also at the root path, for clients that look there first.
  app.get('/.well-known/oauth-protected-resource', (_req, res) => {
    res.set('Access-Control-Allow-Origin', '*').json({
      resource: mcpUrl.href, authorization_servers: [new URL(options.publicBaseUrl).href], scopes_supported: [...AGENT_SCOPES],
      bearer_methods_supported: ['header'], resource_name: 'Herald MCP',
    });
  });
  app.use(consentRoutes({ oauth: deps.oauth, auth: deps.auth, key: options.consentKey }));

  // Upload handles: the single-use secret in the URL is the credential.
  app.put('/uploads/:id', async (req, res) => {
    try {
      const handle = await deps.uploads.receive(String(req.params.id), String(req.query.secret ?? ''), req);
      res.status(201).json({ success: true, upload_id: handle.id, size: handle.size, expires_at: handle.expiresAt });
    } catch (err) {
      if (err instanceof UploadRefused) res.status(err.status).json({ success: false, error_code: err.code, message: err.message });
      else throw err;
    }
  });

  /** API key (`Apikey` or `Bearer hk_…`) or access token (`Bearer hma_…`), checked as the API checks it. */
  const authenticateMcp = async (req: AuthedRequest, res: Response, next: NextFunction) => {
    const match = /^(Apikey|Bearer)\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    const challenge = (error?: string, description?: string) => [
      'Bearer', [error ? `error="${error}"` : '', description ? `error_description="${description.replace(/"/g, "'")}"` : '',
        `resource_metadata="${resourceMetadataUrl}"`].filter(Boolean).join(', ')].join(' ');
    const forward = match ? (match[1]!.toLowerCase() === 'bearer' && match[2]!.startsWith(AGENT_ACCESS_TOKEN_PREFIX) ? `Bearer ${match[2]}` : `Apikey ${match[2]}`) : null;
    if (!forward) {
      const message = 'Missing credentials: send "Authorization: Apikey <API_KEY>" (or Bearer <API_KEY>), or an OAuth access token as Bearer.';
      res.status(401).set('WWW-Authenticate', challenge()).json({ success: false, error_code: 'unauthenticated', message, error: 'invalid_request', error_description: message });
      return;
    }
    try {
      const caller = await authenticate(deps.auth, { authorization: forward, address: req.ip ?? 'unknown' });
      req.auth = {
        token: forward.slice(forward.indexOf(' ') + 1), clientId: 'herald', scopes: caller.scope === 'read' ? ['herald:read'] : ['herald'],
        extra: { accountId: caller.account.id, authorization: forward },
      };
      next();
    } catch (err) {
      if (err instanceof HeraldError && err.kind === 'unauthenticated') {
        res.status(401).set('WWW-Authenticate', challenge('invalid_token', err.message))
          .json({ success: false, error_code: 'unauthenticated', message: err.message, error: 'invalid_token', error_description: err.message });
      } else if (err instanceof HeraldError && err.kind === 'too_many_requests') {
        const seconds = Number(err.details.retry_after_seconds ?? 60);
        res.status(429).set('Retry-After', String(seconds)).json({ success: false, error_code: err.errorCode, message: err.message, ...err.details });
      } else next(err);
    }
  };

  const principalOf = (extra: { authInfo?: AuthInfo }): Principal => ({
    authorization: String(extra.authInfo?.extra?.authorization ?? ''),
    accountId: (extra.authInfo?.extra?.accountId as string | undefined) ?? null,
  });

  // Stateless Streamable HTTP: every request is authenticated and served on its own (a server and
  // a transport per request, the tools generated once), so any replica answers any request and
  // no session outlives a process. A tool call's log messages stream in its own response.
  app.post('/mcp', express.json({ limit: options.jsonLimitBytes }), authenticateMcp, async (req: AuthedRequest, res: Response) => {
    const server = createHeraldMcpServer({ ...deps.server, uploads: deps.uploads, principalOf }, deps.tools);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => { void transport.close(); void server.close(); });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  // No sessions: no server-initiated stream to open, none to end.
  app.all('/mcp', authenticateMcp, (_req: Request, res: Response) => {
    res.set('Allow', 'POST');
    jsonRpcError(res, 405, -32000, 'Method not allowed: this server is stateless; send JSON-RPC messages with POST.');
  });

  app.use((req: Request, res: Response) => {
    res.status(404).json({ success: false, error_code: 'not_found', message: `No such endpoint: ${req.method} ${req.path}.` });
  });
  app.use((err: Error, _req: Request, res: Response, _next: NextFunction) => {
    void _next;
    deps.log('mcp request failed', { error: err.message });
    if (res.headersSent) return;
    const status = (err as { status?: number }).status ?? 500;
    res.status(status >= 400 && status < 600 ? status : 500).json({ success: false, error_code: status === 413 ? 'payload_too_large' : status < 500 ? 'invalid_request' : 'internal_error', message: status < 500 ? err.message : 'Internal error.' });
  });

  return { app };
}
