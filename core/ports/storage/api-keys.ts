import type { ApiKey } from '../../domain/operator';

export interface ApiKeyRepository {
  insert(key: ApiKey): Promise<void>;
  findByHash(hash: string): Promise<ApiKey | null>;
  listByAccount(accountId: string): Promise<ApiKey[]>;
  /** Returns false when no such unrevoked key exists. */
  revoke(accountId: string, keyId: string, at: Date): Promise<boolean>;
  touch(keyId: string, at: Date): Promise<void>;
}
