#!/usr/bin/env bash
# ops/bench-startup.sh: figures, not a test. Times `infra.sh up` cold (our
# infra processes stopped, state kept) and warm (already up), then prints the
# resident memory of every component. Leaves the infra up.
set -euo pipefail
OPS=$(dirname "${BASH_SOURCE[0]}")
# shellcheck source=ops/lib.sh
. "$OPS/lib.sh"

ms() { date +%s%3N; }
timed_up() { local t; t=$(ms); bash "$OPS/infra.sh" up >/dev/null 2>&1 || die "infra.sh up failed"; echo $(($(ms) - t)); }

bash "$OPS/infra.sh" down >/dev/null 2>&1
cold=$(timed_up)
warm=$(timed_up)
printf 'infra.sh up   cold %6d ms   warm %6d ms\n' "$cold" "$warm"

# Components not started by us (the machine's Redis) are found by port.
pid_by_port() { ss -Hltnp "sport = :$1" 2>/dev/null | grep -oE 'pid=[0-9]+' | head -n 1 | cut -d= -f2; }
rss() {
  local name=$1 port=${2:-} pid
  pid=$(pid_of "$name") || pid=$( [ -n "$port" ] && pid_by_port "$port") || true
  if [ -n "$pid" ]; then
    printf '%-9s pid %-7s rss %7d KiB\n' "$name" "$pid" "$(ps -o rss= -p "$pid")"
  else
    printf '%-9s not running\n' "$name"
  fi
}
rss temporal "$HERALD_TEMPORAL_PORT"
rss ferretdb "$HERALD_FERRETDB_PORT"
rss redis "$HERALD_REDIS_PORT"
rss api "$HERALD_API_PORT"
rss worker
rss sandbox
