/**
 * Serializes the token refreshes of one connected account across processes (API prechecks,
 * workers, probes): many networks rotate the refresh token (TikTok, X, Pinterest), so two
 * concurrent refreshes with the same token would leave one of them holding a dead token.
 */
export interface CredentialLeases {
  /**
   * Holds the refresh lease of `connectionId`, waiting up to `waitMs` while another holder has it;
   * a lease whose holder died lapses after `ttlMs`. Resolves to the release function; rejects with
   * LeaseBusyError when the wait runs out.
   */
  acquire(connectionId: string, opts: { ttlMs: number; waitMs: number }): Promise<() => Promise<void>>;
}

export class LeaseBusyError extends Error {
  constructor(connectionId: string) {
    super(`another token refresh of connection ${connectionId} is still running`);
    this.name = 'LeaseBusyError';
  }
}
