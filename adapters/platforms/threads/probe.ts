import type { AccountProbe } from '../../../core/ports/platform';
import type { ThreadsClient } from './client';

export function createThreadsProbe(client: ThreadsClient): AccountProbe {
  return {
    // The profile read of the connect flow: a checkpointed user answers 190/459 to every call.
    async probe(ctx) {
      const { token } = client.account(ctx.credentials);
      await client.graphCall('GET', '/me', { fields: 'id' }, token, 'the profile', ctx.signal);
    },
  };
}
