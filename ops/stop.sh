#!/usr/bin/env bash
# ops/stop.sh (`npm run stop`): stop what ops/start.sh started, then the infra.
# Only processes recorded in .herald/run are touched.
set -euo pipefail
OPS=$(dirname "${BASH_SOURCE[0]}")
# shellcheck source=ops/lib.sh
. "$OPS/lib.sh"

# api first so no new work arrives; sandbox last since activities call it.
stop_pid web 30                  # the connect page: it starts OAuth flows, like the api
stop_pid mcp 30                  # agents' tool calls are API calls: stop them before the api
for name in api worker sandbox; do stop_pid "$name" 30; done
rm -f "$STATE_DIR/sandbox.env"   # its URLs are dead now
bash "$OPS/infra.sh" down
