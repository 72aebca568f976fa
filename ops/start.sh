#!/usr/bin/env bash
# ops/start.sh: the one start command (`npm start`).
# install -> infra up -> build -> sandbox -> api -> web -> mcp -> worker -> dev account/key.
# Daemons keep running after this returns; `npm run stop` ends them.
# Re-running is idempotent: healthy daemons are left alone (so after a code
# change, `npm run stop` first to pick up the new dist/).
set -euo pipefail
OPS=$(dirname "${BASH_SOURCE[0]}")
# shellcheck source=ops/lib.sh
. "$OPS/lib.sh"
t0=$SECONDS

bash "$OPS/install.sh"
bash "$OPS/infra.sh" up
load_env
ensure_secret_key
cd "$HERALD_ROOT"

log "building TypeScript (npx tsc)"
(umask 022; npx tsc -p tsconfig.json)   # dist/ is read by the service user (ops/install.sh)
# `npx herald-mcp` (the MCP stdio entry, package.json "bin") runs the built file itself.
chmod +x "$HERALD_ROOT/dist/apps/mcp/stdio.js"

app_js() {
  local f=$HERALD_ROOT/dist/apps/$1/main.js
  [ -f "$f" ] || die "$1: $f not found after tsc (is apps/$1/main.ts written yet?)"
  echo "$f"
}
# Fail before starting anything if a daemon was not built.
for app in sandbox api worker cli; do app_js "$app" >/dev/null; done
app_js web >/dev/null
app_js mcp >/dev/null
# ---- the service user ----------------------------------------------------------
# Started by root, Herald's daemons run as HERALD_SERVICE_USER (default herald, created by
# ops/install.sh; HERALD_SERVICE_USER=root keeps them root): they own .herald/ and only read the
# checkout. Their media jobs' ffmpeg then runs in an unprivileged bubblewrap sandbox.
as_service=()
service_user=${HERALD_SERVICE_USER:-herald}
if [ "$(id -u)" -eq 0 ] && [ "$service_user" != root ]; then
  drop=(setpriv --reuid="$service_user" --regid="$service_user" --init-groups --)
  if id -u "$service_user" >/dev/null 2>&1 &&
    "${drop[@]}" test -r "$(app_js api)" -a -r "$HERALD_ROOT/node_modules/.package-lock.json" 2>/dev/null; then
    chown -R "$service_user:" "$STATE_DIR"
    as_service=("${drop[@]}")
    log "daemons run as $service_user"
  else
    warn "daemons run as root: user $service_user is missing or cannot read $HERALD_ROOT (docs/security/media-jobs.md)"
  fi
fi
# Explicit `|| exit`: callers use `... || start_app`, where set -e is off.
start_app() { local js; js=$(app_js "$1") || exit 1; start_bg "$1" "${as_service[@]}" node --enable-source-maps "$js"; }

# ---- sandbox: network simulators --------------------------------------------
# It announces its URLs in sandbox.env; healthy = file written + all ports open.
SANDBOX_ENV=$STATE_DIR/sandbox.env
sandbox_healthy() {
  local url hostport n=0
  [ -s "$SANDBOX_ENV" ] || return 1
  while IFS= read -r url; do
    hostport=${url#http*://}; hostport=${hostport%%/*}
    tcp_open "${hostport%:*}" "${hostport##*:}" || return 1
    n=$((n + 1))
  done < <(grep -oE 'https?://[^[:space:]"]+' "$SANDBOX_ENV")
  [ "$n" -gt 0 ]
}
if pid_of sandbox >/dev/null && sandbox_healthy; then
  log "sandbox: already running"
else
  stop_pid sandbox 5             # a half-dead one would hold ports
  rm -f "$SANDBOX_ENV"           # so we wait for the new run's file
  start_app sandbox
  wait_healthy sandbox 60 sandbox_healthy
  log "sandbox: healthy"
fi
# api and worker must talk to the simulators, not the real networks.
set -a
# shellcheck source=/dev/null
. "$SANDBOX_ENV"
set +a
# The sandbox runs on the developer's machine: webhooks may go to a receiver they run beside it
# (loopback, any port). Deployments keep the default: refused.
export HERALD_WEBHOOK_ALLOW_LOOPBACK=${HERALD_WEBHOOK_ALLOW_LOOPBACK:-true}
# Operator ports (/healthz, /readyz, /metrics) at fixed local addresses.
export HERALD_API_OPS_PORT=${HERALD_API_OPS_PORT:-9464} HERALD_WORKER_OPS_PORT=${HERALD_WORKER_OPS_PORT:-9465}

# ---- data: migrations (docs/storage/migrations.md) ----------------------------
# Before any daemon writes: a migration rebuilds counters from the records. Quick when done already.
api_healthy() { curl -fs -m 2 "http://127.0.0.1:$HERALD_API_PORT/healthz" >/dev/null; }
if api_healthy; then
  log "migrate: skipped while the api runs (ops/stop.sh, then ops/start.sh, to migrate)"
else
  "${as_service[@]}" node --enable-source-maps "$(app_js cli)" migrate >/dev/null ||
    die "migrate failed: see the lines above; the data is unchanged where a step did not finish, run it again"
  log "migrate: stored data is at this version's shape"
fi

# ---- api ----------------------------------------------------------------------
if api_healthy; then
  log "api: already healthy on $HERALD_API_PORT"
else
  pid_of api >/dev/null || start_app api
  wait_healthy api 60 api_healthy
  log "api: healthy on $HERALD_API_PORT"
fi
# FerretDB on PostgreSQL: indexes its lookups can use (the API has created the collections now).
db=${MONGODB_URI##*/}; db=${db%%\?*}
bash "$HERALD_ROOT/ops/ferretdb-tune.sh" "${db:-herald}" ||
  warn "ferretdb-tune failed: Herald works without it, but lookups slow down as history grows"

# ---- web: the hosted connect page and calendar ---------------------------------
: "${HERALD_WEB_PORT:=8788}"
export HERALD_WEB_PORT
web_healthy() { curl -fs -m 2 "http://127.0.0.1:$HERALD_WEB_PORT/healthz" >/dev/null; }
if web_healthy; then
  log "web: already healthy on $HERALD_WEB_PORT"
else
  pid_of web >/dev/null || start_app web
  wait_healthy web 60 web_healthy
  log "web: healthy on $HERALD_WEB_PORT"
fi

# ---- mcp: the agent-protocol server (Streamable HTTP at /mcp, OAuth 2.1) -------
: "${HERALD_MCP_PORT:=8789}"
export HERALD_MCP_PORT
mcp_healthy() { curl -fs -m 2 "http://127.0.0.1:$HERALD_MCP_PORT/healthz" >/dev/null; }
if mcp_healthy; then
  log "mcp: already healthy on $HERALD_MCP_PORT"
else
  pid_of mcp >/dev/null || start_app mcp
  wait_healthy mcp 60 mcp_healthy
  log "mcp: healthy on $HERALD_MCP_PORT"
fi

# ---- worker -------------------------------------------------------------------
# No port to probe: ready when the SDK logs RUNNING, or when it has survived
# long enough (a custom logger may not print that line).
worker_ready() { grep -q RUNNING "$LOG_DIR/worker.log" || [ "$SECONDS" -ge "$worker_settled_at" ]; }
if pid_of worker >/dev/null; then
  log "worker: already running"
else
  worker_settled_at=$((SECONDS + 15))
  start_app worker
  wait_healthy worker 120 worker_ready
  log "worker: running"
fi

# ---- local account + API key -------------------------------------------------
# The raw key is only shown once by the CLI, so keep it; delete the file to
# mint a fresh one.
CLI_JS=$(app_js cli)
cli() { node --enable-source-maps "$CLI_JS" "$@" 2>>"$LOG_DIR/cli.log"; }
cli account ensure --email local@herald.dev --plan business >>"$LOG_DIR/cli.log" ||
  fail_start cli "account ensure failed"
KEY_FILE=$STATE_DIR/dev-api-key
if [ ! -s "$KEY_FILE" ]; then
  key=$(cli key create --email local@herald.dev --name local-dev | tail -n 1) ||
    fail_start cli "key create failed"
  [ -n "$key" ] || fail_start cli "key create printed no key"
  (umask 077; printf '%s\n' "$key" >"$KEY_FILE")
fi
key=$(cat "$KEY_FILE")

# ---- summary --------------------------------------------------------------------
rel() { echo "${1#"$HERALD_ROOT"/}"; }
line() { printf '│ %-12s %s\n' "$1" "$2"; }
echo "┌─────────────────────────────────────────────────────────────────────"
line "" "Herald is running (started in $((SECONDS - t0))s)"
line "API" "http://127.0.0.1:$HERALD_API_PORT/api"
line "API key" "$key   ($(rel "$KEY_FILE"))"
line "Connect page" "${HERALD_WEB_PUBLIC_URL:-http://127.0.0.1:$HERALD_WEB_PORT}/connect   (links: POST /api/herald/users/generate-jwt)"
line "MCP" "${HERALD_MCP_PUBLIC_URL:-http://127.0.0.1:$HERALD_MCP_PORT}/mcp   (stdio: HERALD_API_KEY=<key> npx herald-mcp)"
if [ "$HERALD_WEBHOOK_ALLOW_LOOPBACK" = true ]; then
  line "Webhooks" "loopback receivers allowed (http://127.0.0.1:<port>/…; HERALD_WEBHOOK_ALLOW_LOOPBACK=true, sandbox only)"
fi
line "Temporal UI" "${TEMPORAL_UI_URL:-(external Temporal at $TEMPORAL_ADDRESS)}"
# The sandbox credentials a newcomer needs; the simulators' own URLs and client secrets stay in the file.
line "Simulators" "one per network; their URLs, client ids and sandbox accounts in .herald/sandbox.env"
while IFS= read -r l; do line "Sandbox" "$l"; done < <(grep -E '^SANDBOX_[A-Z0-9_]*=' "$SANDBOX_ENV")
line "Logs" "$(rel "$LOG_DIR")/{api,worker,web,mcp,sandbox,temporal,ferretdb,cli}.log"
line "Env" "set -a; . $(rel "$ENV_FILE"); . $(rel "$SANDBOX_ENV"); set +a"
line "Stop" "npm run stop   (or bash ops/stop.sh)"
echo "└─────────────────────────────────────────────────────────────────────"
