import { OPERATIONS, documentPath } from '../api/catalogue';
import type { HeraldConfig } from '../shared/config';
import type { HeraldMcpOptions } from './mcp-server';

/** The spec's API version (Versioning): the MCP server reports it as its own. */
export const HERALD_API_VERSION = '1.0.0';

/** What both entries (HTTP daemon, stdio) build their server from: the catalogue and the API's address. */
export function mcpServerOptions(config: HeraldConfig): Pick<HeraldMcpOptions, 'version' | 'operations' | 'namespace' | 'pathOf' | 'apiBaseUrl' | 'base64MaxBytes'> {
  return {
    version: HERALD_API_VERSION,
    operations: OPERATIONS,
    namespace: config.namespace,
    pathOf: (op) => documentPath(op, config.namespace),
    apiBaseUrl: config.mcp.apiBaseUrl,
    base64MaxBytes: config.mcp.base64MaxBytes,
  };
}
