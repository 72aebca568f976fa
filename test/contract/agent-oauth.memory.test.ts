import { createMemoryAgentOAuthStore } from '../../adapters/memory/agent-oauth';
import { agentOAuthContract } from './storage/agent-oauth.contract';

agentOAuthContract('memory', async () => ({ repository: createMemoryAgentOAuthStore(), cleanup: async () => {} }));
