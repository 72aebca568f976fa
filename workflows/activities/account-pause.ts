import { clearExpiredRestriction } from '../../core/usecases/run-upload';

export type AccountPauseActivityDeps = Parameters<typeof clearExpiredRestriction>[0];

/** The activity of the account pause workflow (its name is recorded in workflow histories). */
export function createAccountPauseActivities(deps: AccountPauseActivityDeps) {
  return {
    clearExpiredRestriction: (input: { connectionId: string }) => clearExpiredRestriction(deps, input),
  };
}

export type AccountPauseActivities = ReturnType<typeof createAccountPauseActivities>;
