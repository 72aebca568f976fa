#!/usr/bin/env bash
# ops/infra.sh up|down|status
# Local infrastructure for Herald: Temporal dev server, FerretDB, Redis.
# TEMPORAL_ADDRESS / MONGODB_URI / REDIS_URL set by the user mean "use that,
# start nothing"; `up` writes the effective values to .herald/env.
set -euo pipefail
# shellcheck source=ops/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

LOCAL_TEMPORAL=127.0.0.1:$HERALD_TEMPORAL_PORT
LOCAL_MONGO=mongodb://127.0.0.1:$HERALD_FERRETDB_PORT/herald
LOCAL_REDIS=redis://127.0.0.1:$HERALD_REDIS_PORT
LOCAL_TEMPORAL_UI=http://127.0.0.1:$HERALD_TEMPORAL_UI_PORT
# FerretDB keeps up to pool_max_conns PostgreSQL connections open. It must stay well above the
# number of concurrent operations all clients send: FerretDB 1.x runs an update with one
# connection for the query and a second for the write, and deadlocks when every connection is held
# by such a query (seen draining a 2,000-upload backlog, and with the accept bench's worker beside
# other test stacks at 40). Herald processes send at most HERALD_MONGO_MAX_POOL_SIZE (10) each and
# ops/start.sh runs four (api, worker, web, mcp): 40 at most, so 80 leaves every update its second
# connection; PostgreSQL's default max_connections (100) keeps 20 for psql and the rest.
PG_URL=postgres://postgres@127.0.0.1:5432/ferretdb?pool_max_conns=${HERALD_FERRETDB_PG_CONNS:-80}

# External = set to something other than what we would start ourselves.
# Comparing with the local value means that sourcing .herald/env into your
# shell does not silently switch local infra off for the next `npm start`.
external() { [ -n "${!1:-}" ] && [ "${!1}" != "$2" ]; }

# External endpoints get a reachability check only: they may need TLS or
# auth that a bare health probe cannot do. Multi-host / SRV URIs are skipped.
check_external() {
  local name=$1 url=$2 default_port=$3
  log "$name: using external $url (starting nothing)"
  [[ $url == *,* || $url == mongodb+srv://* ]] && return 0
  wait_for_tcp "$(url_host "$url")" "$(url_port "$url" "$default_port")" 15 ||
    die "$name: $url is set but not reachable"
}

temporal_healthy() {
  [[ $(timeout 10 "$TOOLS_BIN/temporal" operator cluster health --address "$1" 2>&1) == *SERVING* ]] &&
    # The worker needs the namespace, which start-dev registers after serving.
    timeout 10 "$TOOLS_BIN/temporal" operator namespace describe --address "$1" --namespace default
}

pg_up() { command -v pg_isready >/dev/null && pg_isready -q -h 127.0.0.1 -p 5432; }

ours() { pid_of "$1" >/dev/null && echo "started by herald" || echo "not started by herald, left alone"; }

up_temporal() {
  TEMPORAL_UI_URL=${TEMPORAL_UI_URL:-}
  if external TEMPORAL_ADDRESS "$LOCAL_TEMPORAL"; then
    check_external temporal "$TEMPORAL_ADDRESS" 7233; return
  fi
  TEMPORAL_ADDRESS=$LOCAL_TEMPORAL TEMPORAL_UI_URL=$LOCAL_TEMPORAL_UI
  [ -x "$TOOLS_BIN/temporal" ] || die "temporal CLI missing in $TOOLS_BIN: run ops/install.sh"
  if temporal_healthy "$TEMPORAL_ADDRESS" >/dev/null 2>&1; then
    log "temporal: already healthy on $TEMPORAL_ADDRESS ($(ours temporal))"; return
  fi
  if ! pid_of temporal >/dev/null; then
    # SQLite file => workflows survive restarts; UI on for humans. WAL journal with
    # synchronous=normal: a commit appends to the log and syncs only at checkpoints, instead of
    # syncing the journal and the database file every time: 2.6-2.8x the workflow starts per
    # second (`npm run bench -- temporal-sqlite`). A power cut may lose the last commits; a
    # crashed process loses nothing. Eager activity execution: the activity a workflow task
    # schedules comes back in the answer to that task's completion instead of through the task
    # queue (the SDK asks for it by default, the dev server allows it only when told): the server
    # spent a third less CPU per published upload (`npm run bench -- drain`).
    start_bg temporal "$TOOLS_BIN/temporal" server start-dev \
      --ip 127.0.0.1 --port "$HERALD_TEMPORAL_PORT" \
      --ui-ip 127.0.0.1 --ui-port "$HERALD_TEMPORAL_UI_PORT" \
      --db-filename "$STATE_DIR/temporal.db" \
      --sqlite-pragma journal_mode=wal --sqlite-pragma synchronous=normal \
      --dynamic-config-value system.enableActivityEagerExecution=true --log-level warn
  fi
  wait_healthy temporal 90 temporal_healthy "$TEMPORAL_ADDRESS"
  log "temporal: healthy on $TEMPORAL_ADDRESS, UI $TEMPORAL_UI_URL"
}

up_ferretdb() {
  if external MONGODB_URI "$LOCAL_MONGO"; then
    check_external ferretdb "$MONGODB_URI" 27017; return
  fi
  MONGODB_URI=$LOCAL_MONGO
  if tcp_open 127.0.0.1 "$HERALD_FERRETDB_PORT"; then
    log "ferretdb: already listening on $HERALD_FERRETDB_PORT ($(ours ferretdb))"; return
  fi
  if ! pid_of ferretdb >/dev/null; then
    [ -x "$TOOLS_BIN/ferretdb" ] || die "ferretdb missing in $TOOLS_BIN: run ops/install.sh"
    local handler=${HERALD_FERRETDB_HANDLER:-} args
    [ -n "$handler" ] || { pg_up && handler=postgresql || handler=sqlite; }
    case $handler in
      postgresql)
        pg_up || die "ferretdb: postgresql handler asked for, but nothing answers on 127.0.0.1:5432"
        # The handler creates schemas, not the database itself.
        psql -h 127.0.0.1 -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname='ferretdb'" | grep -q 1 ||
          createdb -h 127.0.0.1 -U postgres ferretdb
        args=(--postgresql-url "$PG_URL") ;;
      sqlite)
        mkdir -p "$STATE_DIR/ferretdb-sqlite"
        args=(--sqlite-url "file:$STATE_DIR/ferretdb-sqlite/") ;;
      *) die "HERALD_FERRETDB_HANDLER must be postgresql or sqlite, not '$handler'" ;;
    esac
    start_bg ferretdb "$TOOLS_BIN/ferretdb" --listen-addr "127.0.0.1:$HERALD_FERRETDB_PORT" \
      --handler "$handler" "${args[@]}" --log-level warn
  fi
  wait_healthy ferretdb 30 tcp_open 127.0.0.1 "$HERALD_FERRETDB_PORT"
  log "ferretdb: healthy on $MONGODB_URI ($(ferretdb_handler) handler)"
}

ferretdb_handler() {
  local pid
  pid=$(pid_of ferretdb) || { echo "unknown"; return; }
  tr '\0' '\n' <"/proc/$pid/cmdline" | grep -A1 -x -- --handler | tail -n 1
}

up_redis() {
  if external REDIS_URL "$LOCAL_REDIS"; then
    check_external redis "$REDIS_URL" 6379; return
  fi
  REDIS_URL=$LOCAL_REDIS
  # The machine image runs its own Redis: reuse it rather than fight for the port.
  if redis_ping 127.0.0.1 "$HERALD_REDIS_PORT"; then
    log "redis: already answering on $HERALD_REDIS_PORT ($(ours redis))"; return
  fi
  if ! pid_of redis >/dev/null; then
    command -v redis-server >/dev/null || die "redis-server missing: run ops/install.sh"
    # Not daemonized, so start_bg owns the pid; nothing persisted (dev cache).
    start_bg redis redis-server --bind 127.0.0.1 --port "$HERALD_REDIS_PORT" --save "" --appendonly no \
      --dir "$STATE_DIR" --daemonize no
  fi
  wait_healthy redis 15 redis_ping 127.0.0.1 "$HERALD_REDIS_PORT"
  log "redis: healthy on $REDIS_URL"
}

cmd_up() {
  lock infra
  local t0=$SECONDS
  up_temporal
  up_ferretdb
  up_redis
  save_env TEMPORAL_ADDRESS MONGODB_URI REDIS_URL TEMPORAL_UI_URL
  log "infra up in $((SECONDS - t0))s; environment ($ENV_FILE):"
  sed 's/^/  export /' "$ENV_FILE"
}

cmd_down() {
  lock infra
  # Only what we started (pid files): the machine's own Redis/PostgreSQL stay.
  stop_pid ferretdb
  stop_pid temporal
  stop_pid redis
  rm -f "$ENV_FILE"
  log "infra down"
}

# status_line NAME ADDRESS HEALTH_CMD...: one line per component.
status_line() {
  local name=$1 addr=$2 state pid; shift 2
  if "$@" >/dev/null 2>&1; then
    if pid=$(pid_of "$name"); then state="up (pid $pid, started by herald)"
    else state="up (not started by herald)"; fi
  else
    state=DOWN; bad=1
  fi
  printf '  %-9s %-40s %s\n' "$name" "$addr" "$state"
}

cmd_status() {
  bad=0
  local t=${TEMPORAL_ADDRESS:-$LOCAL_TEMPORAL} m=${MONGODB_URI:-$LOCAL_MONGO} r=${REDIS_URL:-$LOCAL_REDIS}
  if external TEMPORAL_ADDRESS "$LOCAL_TEMPORAL"; then
    status_line temporal "$t" tcp_open "$(url_host "$t")" "$(url_port "$t" 7233)"
  else status_line temporal "$t" temporal_healthy "$t"; fi
  status_line ferretdb "$m" tcp_open "$(url_host "$m")" "$(url_port "$m" 27017)"
  if pid_of ferretdb >/dev/null; then printf '  %-9s %s\n' "" "handler: $(ferretdb_handler)"; fi
  if external REDIS_URL "$LOCAL_REDIS"; then
    status_line redis "$r" tcp_open "$(url_host "$r")" "$(url_port "$r" 6379)"
  else status_line redis "$r" redis_ping 127.0.0.1 "$HERALD_REDIS_PORT"; fi
  [ -f "$ENV_FILE" ] && echo "  env file: $ENV_FILE" || echo "  env file: (none; run ops/infra.sh up)"
  return "$bad"
}

case ${1:-} in
  up) cmd_up ;;
  down) cmd_down ;;
  status) cmd_status ;;
  *) echo "usage: $0 up|down|status" >&2; exit 2 ;;
esac
