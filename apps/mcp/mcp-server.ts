import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema, ErrorCode, ListResourcesRequestSchema, ListResourceTemplatesRequestSchema, ListToolsRequestSchema,
  McpError, ReadResourceRequestSchema, type CallToolResult, type ServerNotification, type ServerRequest, type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { Operation } from '../api/catalogue';
import { callOperation } from './rest-call';
import { generateTool, isToolOperation, type GeneratedTool } from './tools';
import type { UploadHandles } from './uploads';

/** Who is calling: the credential forwarded to the API and the account it authenticated as. */
export interface Principal {
  /** `Apikey hk_…` or `Bearer hma_…`, forwarded as is. */
  authorization: string;
  accountId: string | null;
}

export type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export interface HeraldMcpOptions {
  version: string;
  operations: readonly Operation[];
  /** The `svc` path segment. */
  namespace: string;
  /** An operation's path with the configured namespace (descriptions, log messages). */
  pathOf(op: Operation): string;
  apiBaseUrl: string;
  base64MaxBytes: number;
  /** Upload handles (the HTTP daemon); null in stdio, where files go by URL or base64. */
  uploads: UploadHandles | null;
  principalOf(extra: Extra): Principal;
}

const INSTRUCTIONS = `Herald publishes video, photos and text to many social networks for the profiles (end users) of the signed-in operator account.
Typical flow: list_profiles (which networks each profile has connected) → a publish tool (upload_text, upload_video, upload_photos…) with \`user\` = the profile and \`platform\` = the networks → get_upload_status with the returned request_id until status is "completed" (poll no faster than every 5 seconds) → read per-network results.
Media: pass a public URL, small files as base64, or large files through create_media_upload (PUT the bytes to its upload_url, then pass {upload_id}).
Every tool is one REST call authorized exactly as that call: errors come back as tool errors with the HTTP status, error_code and message.`;

const CREATE_UPLOAD: Tool = {
  name: 'create_media_upload',
  title: 'Create an upload handle for a large file',
  description: 'Use for files too large for inline base64 (videos): answers `upload_id` and a single-use `upload_url`. PUT the raw bytes to upload_url (e.g. `curl -T clip.mp4 "<upload_url>"`, no other header needed), then pass `{"upload_id": "…"}` as the file argument of a publish or media-job tool. The handle expires at `expires_at` and works only for this account. Errors: 400 a missing filename.',
  inputSchema: {
    type: 'object',
    properties: {
      filename: { type: 'string', description: 'File name with its extension (clip.mp4): networks and probes read the type from it.' },
      content_type: { type: 'string', description: 'MIME type (video/mp4, image/jpeg…).' },
    },
    required: ['filename'],
  },
  annotations: { title: 'Create an upload handle', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
};

/** Resources: the operator's profiles and recent uploads, read through the same REST operations. */
const RESOURCE_OPS = {
  profiles: { method: 'get', path: '/svc/users' },
  profile: { method: 'get', path: '/svc/users/{username}' },
  history: { method: 'get', path: '/svc/history' },
  status: { method: 'get', path: '/svc/status' },
} as const;

export function generateTools(options: Pick<HeraldMcpOptions, 'operations' | 'pathOf'>): GeneratedTool[] {
  const tools = options.operations.filter(isToolOperation).map((op) => generateTool(op, options.pathOf(op)));
  const seen = new Set<string>();
  for (const t of tools) {
    if (seen.has(t.tool.name)) throw new Error(`two catalogue operations make the tool "${t.tool.name}": set mcp.name on one of them`);
    seen.add(t.tool.name);
  }
  return tools;
}

/** One MCP server (one per request over HTTP, which is stateless; one per process over stdio). */
export function createHeraldMcpServer(options: HeraldMcpOptions, tools: GeneratedTool[]): Server {
  const server = new Server({ name: 'herald', title: 'Herald social publishing', version: options.version }, {
    capabilities: { tools: { listChanged: false }, resources: { listChanged: false }, logging: {} },
    instructions: INSTRUCTIONS,
  });
  const byName = new Map(tools.map((t) => [t.tool.name, t]));
  const opFor = (key: keyof typeof RESOURCE_OPS) => {
    const want = RESOURCE_OPS[key];
    return tools.find((t) => t.operation.method === want.method && t.operation.path === want.path) ?? null;
  };

  const call = async (generated: GeneratedTool, args: Record<string, unknown>, extra: Extra): Promise<CallToolResult> => {
    const principal = options.principalOf(extra);
    const started = Date.now();
    const result = await callOperation(generated, args, {
      apiBaseUrl: options.apiBaseUrl, namespace: options.namespace, authorization: principal.authorization,
      accountId: principal.accountId, uploads: options.uploads, base64MaxBytes: options.base64MaxBytes, signal: extra.signal,
    });
    // The REST call behind the tool, as a log message the client may subscribe to (logging/setLevel).
    const status = result.isError ? Number(result.structuredContent?.status ?? 0) : 200;
    // Sent in the request's own response stream (there is no session stream over stateless HTTP).
    await extra.sendNotification({
      method: 'notifications/message',
      params: {
        level: result.isError ? 'warning' : 'info', logger: 'herald',
        data: { tool: generated.tool.name, rest: `${generated.operation.method.toUpperCase()} ${options.pathOf(generated.operation)}`, ...(result.isError ? { status, error_code: result.structuredContent?.error_code } : {}), ms: Date.now() - started },
      },
    }).catch(() => undefined);
    return result;
  };

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [...tools.map((t) => t.tool), ...(options.uploads ? [CREATE_UPLOAD] : [])],
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    if (request.params.name === CREATE_UPLOAD.name && options.uploads) {
      const principal = options.principalOf(extra);
      if (typeof args.filename !== 'string' || !args.filename.trim() || !principal.accountId) {
        return { isError: true, content: [{ type: 'text', text: 'HTTP 400 invalid_request: filename is required.' }], structuredContent: { status: 400, success: false, error_code: 'invalid_request', message: 'filename is required.' } };
      }
      const { handle, uploadUrl } = await options.uploads.create(principal.accountId, args.filename, typeof args.content_type === 'string' ? args.content_type : '');
      const body = { success: true, upload_id: handle.id, upload_url: uploadUrl, method: 'PUT', expires_at: handle.expiresAt };
      return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
    }
    const generated = byName.get(request.params.name);
    if (!generated) throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${request.params.name}": call tools/list for the tools this server has.`);
    return call(generated, args, extra);
  });

  /** A resource's JSON, or an MCP error carrying the REST error. */
  const read = async (generated: GeneratedTool | null, args: Record<string, unknown>, uri: string, extra: Extra) => {
    if (!generated) throw new McpError(ErrorCode.InvalidParams, `Resource ${uri} is not available on this server.`);
    const result = await call(generated, args, extra);
    const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
    if (result.isError) throw new McpError(ErrorCode.InvalidParams, text.split('\n')[0] ?? 'The read failed.', result.structuredContent);
    return { contents: [{ uri, mimeType: 'application/json', text }] };
  };

  server.setRequestHandler(ListResourcesRequestSchema, async (_request, extra) => {
    const statics = [
      { uri: 'herald://profiles', name: 'profiles', title: 'Profiles', description: 'Every profile of the account with its connected social accounts, the plan and its profile limit.', mimeType: 'application/json' },
      { uri: 'herald://uploads/recent', name: 'recent-uploads', title: 'Recent uploads', description: 'The 20 most recent uploads with their per-network results.', mimeType: 'application/json' },
    ];
    const list = opFor('profiles');
    if (!list) return { resources: statics };
    const result = await call(list, {}, extra);
    const profiles = (result.structuredContent?.profiles ?? []) as Array<{ username: string }>;
    return {
      resources: [...statics, ...profiles.map((p) => ({
        uri: `herald://profiles/${encodeURIComponent(p.username)}`, name: `profile-${p.username}`, title: `Profile ${p.username}`,
        description: `Profile "${p.username}" with its connected social accounts.`, mimeType: 'application/json',
      }))],
    };
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [
      { uriTemplate: 'herald://profiles/{username}', name: 'profile', title: 'A profile', description: 'One profile with its connected social accounts.', mimeType: 'application/json' },
      { uriTemplate: 'herald://uploads/{request_id}', name: 'upload', title: 'An upload', description: 'The status and per-network results of one upload, by request id.', mimeType: 'application/json' },
    ],
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const uri = request.params.uri;
    if (uri === 'herald://profiles') return read(opFor('profiles'), {}, uri, extra);
    if (uri === 'herald://uploads/recent') return read(opFor('history'), { limit: 20 }, uri, extra);
    const profile = /^herald:\/\/profiles\/([^/]+)$/.exec(uri);
    if (profile) return read(opFor('profile'), { username: decodeURIComponent(profile[1]!) }, uri, extra);
    const upload = /^herald:\/\/uploads\/([^/]+)$/.exec(uri);
    if (upload) return read(opFor('status'), { request_id: decodeURIComponent(upload[1]!) }, uri, extra);
    throw new McpError(ErrorCode.InvalidParams, `Unknown resource ${uri}: resources/list and resources/templates/list name the ones available.`);
  });

  return server;
}
