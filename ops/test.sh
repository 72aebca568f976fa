#!/usr/bin/env bash
# ops/test.sh: the one test command (`npm test`; extra args go to jest).
# install -> infra up -> typecheck+build -> lint -> jest. Non-zero on any failure.
set -euo pipefail
OPS=$(dirname "${BASH_SOURCE[0]}")
# shellcheck source=ops/lib.sh
. "$OPS/lib.sh"
t0=$SECONDS

bash "$OPS/install.sh"
bash "$OPS/infra.sh" up
load_env            # tests reach the infra through TEMPORAL_ADDRESS/MONGODB_URI/REDIS_URL
ensure_secret_key   # e2e tests spawn dist daemons that need it
cd "$HERALD_ROOT"

# One emitting tsc both typechecks (same diagnostics as --noEmit, non-zero on
# any error) and builds the dist/ daemons the e2e tests spawn: half the time.
log "typecheck + build (npx tsc -p tsconfig.json)"
(umask 022; npx tsc -p tsconfig.json)   # dist/ is read by the service user (ops/install.sh)
log "lint (npm run lint)"
npm run lint --silent
# Every jest project in package.json in one run: unit, contract, replay, workflow (each workflow
# on the dev server with in-process workers and fake activities) and e2e (the dist daemons).
log "jest"
results="$STATE_DIR/jest-results.json"
rm -f "$results"
status=0
npx jest --ci --json --outputFile="$results" "$@" || status=$?
# One plain closing line that CI can read, whatever jest printed above it.
if [ -f "$results" ]; then
  node -e 'const r=require(process.argv[1]); console.log(`jest: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests} skipped`)' "$results"
fi
[ "$status" -eq 0 ] || die "tests failed (jest exit $status)"
log "all green in $((SECONDS - t0))s"
