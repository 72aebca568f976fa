import { blockIfStillReauth, refreshAhead, type RefreshAheadDeps } from '../../core/usecases/refresh-ahead';

/** The activities of the refresh-ahead workflow (their names are recorded in workflow histories). */
export function createConnectionRefreshActivities(deps: RefreshAheadDeps) {
  return {
    refreshAhead: (input: { connectionId: string; marginMs: number }) => refreshAhead(deps, input),
    blockIfStillReauth: (input: { connectionId: string; generation: string }) => blockIfStillReauth(deps, input),
  };
}

export type ConnectionRefreshActivities = ReturnType<typeof createConnectionRefreshActivities>;
