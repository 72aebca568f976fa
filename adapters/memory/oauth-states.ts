import { DuplicateKeyError, type OAuthState, type OAuthStateRepository } from '../../core/ports/storage';
import { copy } from './values';

/** Pending OAuth authorizations by `state` id. */
export function createMemoryOAuthStates(): OAuthStateRepository {
  const states = new Map<string, OAuthState>();
  return {
    async insert(state) {
      if (states.has(state.id)) throw new DuplicateKeyError('oauth state');
      states.set(state.id, copy(state));
    },
    async take(id, now) {
      const found = states.get(id);
      states.delete(id);
      return found && found.expiresAt > now ? copy(found) : null;
    },
    async deleteExpired(now) {
      let n = 0;
      for (const [id, state] of states) {
        if (state.expiresAt <= now) {
          states.delete(id);
          n += 1;
        }
      }
      return n;
    },
  };
}
