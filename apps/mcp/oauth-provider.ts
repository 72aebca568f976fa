import type { Response } from 'express';
import type { OAuthServerProvider, AuthorizationParams } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import {
  InvalidClientMetadataError, InvalidGrantError, InvalidRequestError, InvalidScopeError, InvalidTargetError, InvalidTokenError, InvalidClientError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthClientInformationFull, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { AGENT_CLIENT_PREFIX } from '../../core/domain/agent-oauth';
import { SEALED_FIELDS } from '../../core/domain/sealed-fields';
import type { SecretBox } from '../../core/ports/system';
import {
  AgentOAuthError, challengeForCode, exchangeAuthorizationCode, findLiveAccessToken, parseAgentScopes, refreshAgentTokens,
  registerAgentClient, revokeAgentToken, type AgentOAuthDeps,
} from '../../core/usecases/agent-oauth';

/**
 * The SDK's authorization-server handlers (metadata, registration, authorize, token, revoke:
 * apps/mcp/app.ts mounts them) over Herald's agent OAuth use cases and their MongoDB store. The
 * consent page (apps/mcp/consent.ts) is where the operator signs in and allows the client.
 */
export interface ConsentRenderer {
  render(res: Response, request: { client: OAuthClientInformationFull; params: AuthorizationParams; scopes: string[] }): void;
}

/** Redirect URIs a client may register: https, http on loopback (native apps), or a private-use scheme (`app.example:/cb`). */
function checkRedirectUris(uris: readonly string[]): void {
  for (const raw of uris) {
    let url: URL;
    try { url = new URL(raw); } catch { throw new InvalidClientMetadataError(`redirect_uri ${raw} is not a URL.`); }
    const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
    if (url.hash) throw new InvalidClientMetadataError(`redirect_uri ${raw} must not have a fragment.`);
    if (url.protocol === 'https:' || (url.protocol === 'http:' && loopback)) continue;
    if (['http:', 'javascript:', 'data:', 'file:', 'vbscript:', 'blob:', 'about:'].includes(url.protocol)) {
      throw new InvalidClientMetadataError(`redirect_uri ${raw}: use https, http on a loopback address, or a private-use scheme.`);
    }
  }
}

function mapError(err: unknown): never {
  if (err instanceof AgentOAuthError) {
    switch (err.oauthError) {
      case 'invalid_grant': throw new InvalidGrantError(err.message);
      case 'invalid_scope': throw new InvalidScopeError(err.message);
      case 'invalid_client': throw new InvalidClientError(err.message);
      case 'invalid_target': throw new InvalidTargetError(err.message);
      default: throw new InvalidRequestError(err.message);
    }
  }
  throw err;
}

export function createAgentOAuthProvider(deps: AgentOAuthDeps & { secrets: SecretBox; consent: ConsentRenderer }): OAuthServerProvider {
  const clientsStore: OAuthRegisteredClientsStore = {
    async getClient(clientId) {
      if (!clientId.startsWith(AGENT_CLIENT_PREFIX)) return undefined;
      const client = await deps.store.clients.find(clientId);
      if (!client) return undefined;
      return {
        ...(client.metadata as Omit<OAuthClientInformationFull, 'client_id'>),
        client_id: client.clientId,
        client_id_issued_at: Math.floor(client.createdAt.getTime() / 1000),
        ...(client.sealedSecret ? { client_secret: deps.secrets.open(client.sealedSecret, SEALED_FIELDS.agentClientSecret(client.clientId)) } : {}),
      } as OAuthClientInformationFull;
    },
    async registerClient(client) {
      checkRedirectUris(client.redirect_uris);
      if (client.scope) {
        try { parseAgentScopes(client.scope.split(' ')); } catch (err) { throw new InvalidClientMetadataError((err as Error).message); }
      }
      const { client_secret: secret, ...metadata } = client;
      const clientId = deps.ids.next(AGENT_CLIENT_PREFIX.slice(0, -1));
      const record = await registerAgentClient(deps, { clientId, metadata, sealedSecret: secret ? deps.secrets.seal(secret, SEALED_FIELDS.agentClientSecret(clientId)) : null });
      return { ...client, client_id: clientId, client_id_issued_at: Math.floor(record.createdAt.getTime() / 1000) };
    },
  };

  return {
    get clientsStore() { return clientsStore; },

    async authorize(client, params, res) {
      let scopes: string[];
      try { scopes = parseAgentScopes(params.scopes); } catch (err) {
        // Reported to the client's redirect (the SDK does so for errors thrown here).
        throw new InvalidScopeError((err as Error).message);
      }
      deps.consent.render(res, { client, params, scopes });
    },

    async challengeForAuthorizationCode(client, code) {
      return challengeForCode(deps, client.client_id, code).catch(mapError);
    },

    async exchangeAuthorizationCode(client, code, _verifier, redirectUri, resource): Promise<OAuthTokens> {
      return exchangeAuthorizationCode(deps, {
        clientId: client.client_id, code, ...(redirectUri !== undefined ? { redirectUri } : {}), ...(resource ? { resource: resource.href } : {}),
      }).catch(mapError);
    },

    async exchangeRefreshToken(client, refreshToken, scopes, resource): Promise<OAuthTokens> {
      return refreshAgentTokens(deps, {
        clientId: client.client_id, refreshToken, ...(scopes ? { scopes } : {}), ...(resource ? { resource: resource.href } : {}),
      }).catch(mapError);
    },

    async verifyAccessToken(token): Promise<AuthInfo> {
      const found = await findLiveAccessToken(deps, deps.hasher.hash(token), deps.resource);
      if (!found) throw new InvalidTokenError('Invalid, expired or revoked access token.');
      return {
        token, clientId: found.clientId, scopes: found.scope, expiresAt: Math.floor(found.expiresAt.getTime() / 1000),
        ...(found.resource ? { resource: new URL(found.resource) } : {}), extra: { accountId: found.accountId },
      };
    },

    async revokeToken(client, request) {
      await revokeAgentToken(deps, { clientId: client.client_id, token: request.token });
    },
  };
}
