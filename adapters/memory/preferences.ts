import type { OperatorPreferences } from '../../core/domain/connect-link';
import type { PreferencesRepository } from '../../core/ports/connect-storage';
import { copy } from './values';

export function createMemoryPreferences(): PreferencesRepository {
  const byAccount = new Map<string, OperatorPreferences>();
  return {
    async get(accountId) {
      const found = byAccount.get(accountId);
      return found ? copy(found) : null;
    },
    async set(accountId, preferences) {
      byAccount.set(accountId, copy(preferences));
    },
  };
}
