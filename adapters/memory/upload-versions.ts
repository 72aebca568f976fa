import type { UploadVersions } from '../../core/ports/upload-versions';

/** The stamps in one process (unit tests: API instances sharing one in-memory store share these too). */
export function createMemoryUploadVersions(): UploadVersions {
  const stamps = new Map<string, number>();
  return {
    async current(accountId) {
      return String(stamps.get(accountId) ?? 0);
    },
    async advance(accountId) {
      stamps.set(accountId, (stamps.get(accountId) ?? 0) + 1);
    },
  };
}
