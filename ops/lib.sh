# shellcheck shell=bash
# Sourced by every ops/ script. Holds the paths and conventions the
# TypeScript side relies on, so they are written down exactly once.

# Resolve from this file, not from $PWD: scripts must work from any cwd.
HERALD_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TOOLS_BIN=$HERALD_ROOT/.tools/bin
STATE_DIR=$HERALD_ROOT/.herald
LOG_DIR=$STATE_DIR/logs
RUN_DIR=$STATE_DIR/run
ENV_FILE=$STATE_DIR/env

# Ports of things we start locally; the user may move them.
: "${HERALD_TEMPORAL_PORT:=7233}" "${HERALD_TEMPORAL_UI_PORT:=8233}"
: "${HERALD_FERRETDB_PORT:=27017}" "${HERALD_API_PORT:=8787}" "${HERALD_REDIS_PORT:=6379}"

# Go lives outside the default PATH on the machine image; our own tools first.
PATH=$TOOLS_BIN:$PATH:/usr/local/go/bin
export PATH HERALD_ROOT HERALD_TEMPORAL_PORT HERALD_TEMPORAL_UI_PORT HERALD_FERRETDB_PORT HERALD_API_PORT HERALD_REDIS_PORT

# .herald/ holds the secret key, the databases' files, logs and media: owner-only. Every file
# these scripts and the daemons they start create is 0600, every directory 0700 (umask), and the
# state directories are closed even when an older release made them world-readable
# (docs/security/at-rest.md). Whoever must share a file with another user sets its mode itself.
umask 077
mkdir -p "$TOOLS_BIN"
mkdir -p -m 700 "$STATE_DIR" "$LOG_DIR" "$RUN_DIR"
chmod 700 "$STATE_DIR" "$LOG_DIR" "$RUN_DIR"

log() { printf '\033[1;34m[herald]\033[0m %s\n' "$*" >&2; }
warn() { printf '\033[1;33m[herald] warning:\033[0m %s\n' "$*" >&2; }
die() { printf '\033[1;31m[herald] error:\033[0m %s\n' "$*" >&2; exit 1; }

# Root is not guaranteed (CI images, laptops): use sudo only when needed.
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

# A TCP connect through bash itself, so no nc/ss dependency.
tcp_open() { timeout 1 bash -c ">/dev/tcp/$1/$2" 2>/dev/null; }

# wait_for_tcp HOST PORT TIMEOUT_SECONDS
wait_for_tcp() {
  local deadline=$((SECONDS + $3))
  until tcp_open "$1" "$2"; do
    [ "$SECONDS" -lt "$deadline" ] || return 1
    sleep 0.3
  done
}

# Speak RESP by hand so a PING works without redis-cli; subshell + timeout so
# a black-holed address cannot hang us and the fd never leaks.
redis_ping() {
  # shellcheck disable=SC2016 # expanded by the inner bash, on purpose
  timeout 3 bash -c 'exec 3<>"/dev/tcp/$0/$1" && printf "PING\r\n" >&3 &&
    read -r reply <&3 && [[ $reply == +PONG* ]]' "$1" "$2" 2>/dev/null
}

# host/port of a URL like redis://user:pw@host:port/db (single host only).
url_host() { local h=${1#*://}; h=${h##*@}; h=${h%%/*}; echo "${h%:*}"; }
url_port() { local h=${1#*://}; h=${h##*@}; h=${h%%/*}; [[ $h == *:* ]] && echo "${h##*:}" || echo "$2"; }

# ---- pid files -------------------------------------------------------------
# A pid file holds "PID STARTTIME": the start time (from /proc) guards against
# a recycled pid after a reboot making us signal an unrelated process.
proc_start() { awk '{print $22}' "/proc/$1/stat" 2>/dev/null; }

# pid_of NAME: prints the pid if our process NAME is alive.
pid_of() {
  local pid start
  read -r pid start 2>/dev/null <"$RUN_DIR/$1.pid" || return 1
  [ -n "$pid" ] && [ "$(proc_start "$pid")" = "$start" ] && echo "$pid"
}

# start_bg NAME CMD...: detach CMD into its own session (so Ctrl-C or a CI
# trap on the caller does not take it down), log to logs/NAME.log.
start_bg() {
  local name=$1; shift
  local logf=$LOG_DIR/$name.log pidf=$RUN_DIR/$name.pid
  [ -f "$logf" ] && mv -f "$logf" "$logf.1"   # keep the previous run for post-mortems
  rm -f "$pidf"
  # The inner shell records its own pid, then execs: that pid is the daemon.
  # shellcheck disable=SC2016 # expanded by the inner bash, on purpose
  setsid bash -c 'echo "$$ $(awk "{print \$22}" /proc/$$/stat)" >"$0"; exec "$@"' "$pidf" "$@" \
    >"$logf" 2>&1 </dev/null 9>&- &   # fd 9 is our flock: daemons must not hold it
  for _ in 1 2 3 4 5 6 7 8 9 10; do [ -s "$pidf" ] && break; sleep 0.1; done
  [ -s "$pidf" ] || die "$name: could not start ($*)"
}

# fail_start NAME WHY: show the log tail and stop the whole script.
fail_start() {
  local logf=$LOG_DIR/$1.log
  printf '\033[1;31m[herald] error:\033[0m %s: %s\n' "$1" "$2" >&2
  if [ -f "$logf" ]; then
    echo "---- last 30 lines of $logf ----" >&2
    tail -n 30 "$logf" >&2
    echo "----" >&2
  fi
  exit 1
}

# wait_healthy NAME TIMEOUT CMD...: poll CMD; fail fast if our process died.
wait_healthy() {
  local name=$1 limit=$2 deadline=$((SECONDS + $2)); shift 2
  until "$@" >/dev/null 2>&1; do
    if [ -f "$RUN_DIR/$name.pid" ] && ! pid_of "$name" >/dev/null; then
      rm -f "$RUN_DIR/$name.pid"
      fail_start "$name" "exited during startup"
    fi
    [ "$SECONDS" -lt "$deadline" ] || fail_start "$name" "not healthy after ${limit}s"
    sleep 0.3
  done
}

# stop_pid NAME [GRACE_SECONDS]: SIGTERM, wait, then SIGKILL. Only our own.
stop_pid() {
  local name=$1 grace=${2:-30} pid deadline
  if ! pid=$(pid_of "$name"); then rm -f "$RUN_DIR/$name.pid"; return 0; fi
  log "stopping $name (pid $pid)"
  kill -TERM "$pid" 2>/dev/null || true
  deadline=$((SECONDS + grace))
  while [ -e "/proc/$pid" ] && [ "$SECONDS" -lt "$deadline" ]; do sleep 0.2; done
  if [ -e "/proc/$pid" ]; then
    warn "$name did not exit within ${grace}s, sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$RUN_DIR/$name.pid"
}

# ---- .herald/env ------------------------------------------------------------
# Export everything in .herald/env (written by `infra.sh up`) into this shell.
load_env() {
  [ -f "$ENV_FILE" ] || die "$ENV_FILE missing: run ops/infra.sh up first"
  set -a
  # shellcheck source=/dev/null
  . "$ENV_FILE"
  set +a
}

# save_env VAR...: KEY=value lines that work for `set -a; . file`, Node's
# --env-file and dotenv alike: bare when URL-safe, else single-quoted.
save_env() {
  local v val tmp=$ENV_FILE.tmp
  : >"$tmp"
  for v in "$@"; do
    val=${!v}
    if [[ $val =~ ^[A-Za-z0-9_./:@%+,=-]*$ ]]; then printf '%s=%s\n' "$v" "$val"
    else printf "%s='%s'\n" "$v" "${val//\'/\'\\\'\'}"; fi >>"$tmp"
  done
  mv -f "$tmp" "$ENV_FILE"
}

# HERALD_SECRET_KEY encrypts credentials at rest: generate once, keep forever
# (a new key would make every stored credential unreadable).
ensure_secret_key() {
  [ -n "${HERALD_SECRET_KEY:-}" ] && { export HERALD_SECRET_KEY; return; }
  local f=$STATE_DIR/secret-key
  if [ ! -s "$f" ]; then
    (umask 077; openssl rand -base64 32 2>/dev/null >"$f" ||
      node -e 'process.stdout.write(require("crypto").randomBytes(32).toString("base64")+"\n")' >"$f")
    log "generated HERALD_SECRET_KEY into $f"
  fi
  chmod 600 "$f"   # a key file of an older release may be world-readable
  HERALD_SECRET_KEY=$(cat "$f")
  export HERALD_SECRET_KEY
}

# Serialize concurrent runs (npm start while npm test is starting infra).
lock() {
  command -v flock >/dev/null || return 0
  exec 9>"$RUN_DIR/$1.lock"
  flock 9
}
