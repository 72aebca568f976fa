import type { AccountProbe } from '../../../core/ports/platform';
import type { InstagramClient } from './client';

export function createInstagramProbe(client: InstagramClient): AccountProbe {
  return {
    // The identity read of the connect flow: a checkpointed account answers 2207050 (or 190/459) to it too.
    async probe(ctx) {
      const { token } = client.account(ctx.credentials);
      await client.meta.graphCall('GET', '/me', { fields: 'user_id' }, token, 'the account', {}, ctx.signal);
    },
  };
}
