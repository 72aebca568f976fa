/**
 * One execution at a time per publish call. Temporal runs an activity once at a time, but not
 * exactly: a worker starved past its heartbeat timeout, or a workflow task that timed out while a
 * call ran inside it (local activity), lets a second execution start while the first is still
 * talking to the network. The claim makes the second one wait instead of publishing a duplicate.
 */
export interface DispatchClaims {
  /**
   * Claims the call `callKey` for this execution. `claimed`: nobody held it; `taken_over`: an
   * earlier holder stopped renewing its claim for `ttlMs` (it died mid-call, so the network may
   * already have the post); `busy`: another execution holds it and is alive, come back in
   * `retryInMs`. A claim is renewed in the background until `stop()`.
   */
  claim(callKey: string, opts: { ttlMs: number }): Promise<DispatchClaim>;
}

export type DispatchClaim =
  | { kind: 'claimed' | 'taken_over'; stop(): void }
  | { kind: 'busy'; retryInMs: number };
