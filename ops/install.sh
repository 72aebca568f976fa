#!/usr/bin/env bash
# ops/install.sh: install whatever is missing, touch nothing that is present.
# Safe to run on every start/test; a warm run costs well under a second.
set -euo pipefail
# shellcheck source=ops/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
lock install

t0=$SECONDS
did=()
apt_pkgs=()

step() { local t=$SECONDS; "$@"; did+=("$*: $((SECONDS - t))s"); }

# ---- decide what apt must bring (one apt-get update for all of it) ---------
command -v ffmpeg >/dev/null && command -v ffprobe >/dev/null || apt_pkgs+=(ffmpeg)
# Only when Herald would have to start its own Redis.
if [ -z "${REDIS_URL:-}" ] && ! redis_ping 127.0.0.1 "$HERALD_REDIS_PORT" && ! command -v redis-server >/dev/null; then
  apt_pkgs+=(redis-server)
fi
command -v curl >/dev/null || apt_pkgs+=(curl)   # API health checks
command -v chromium >/dev/null || apt_pkgs+=(chromium)   # the connect page's browser tests (playwright-core drives it)
command -v bwrap >/dev/null || apt_pkgs+=(bubblewrap)   # the media-job sandbox (adapters/media/sandbox.ts)

apt_install() {
  log "apt: installing ${apt_pkgs[*]}"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends "${apt_pkgs[@]}" >/dev/null
}
[ ${#apt_pkgs[@]} -eq 0 ] || step apt_install

# ---- service users --------------------------------------------------------------
# ops/start.sh run by root starts the daemons as HERALD_SERVICE_USER; a root worker's ffmpeg
# runs as HERALD_MEDIA_USER. Neither is ever root, neither can log in.
if [ "$(id -u)" -eq 0 ]; then
  for u in "${HERALD_SERVICE_USER:-herald}" "${HERALD_MEDIA_USER:-herald-media}"; do
    [ "$u" = root ] || id -u "$u" >/dev/null 2>&1 ||
      step useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$u"
  done
fi

# ---- node deps --------------------------------------------------------------
# npm's hidden lockfile is rewritten on every install, so its age tells
# whether node_modules matches package-lock.json.
# The registry this project is built against serves only the linux builds
# of platform packages (@swc/core-*, @unrs/resolver-binding-*), so the lock
# lacks the darwin/win entries and `npm ci` rejects it as out of sync.
# `npm install` honours the same locked versions and skips those optionals.
# The checkout's own files (node_modules, dist/) are no secret: readable by the service user that
# ops/start.sh runs the daemons as, whatever the owner-only umask of ops/lib.sh.
npm_ci() {
  log "npm ci (node_modules missing or older than package-lock.json)"
  local out; out=$(mktemp)
  if ! (cd "$HERALD_ROOT" && umask 022 && npm ci --no-audit --no-fund --loglevel=error) 2>"$out"; then
    grep -q 'in sync' "$out" || { cat "$out" >&2; rm -f "$out"; die "npm ci failed"; }
    warn "npm ci refused the lockfile (platform optionals missing); using npm install"
    (cd "$HERALD_ROOT" && umask 022 && npm install --no-audit --no-fund --loglevel=error)
  fi
  rm -f "$out"
  touch "$HERALD_ROOT/node_modules/.package-lock.json"
}
hidden=$HERALD_ROOT/node_modules/.package-lock.json
if [ ! -f "$hidden" ] || [ "$HERALD_ROOT/package-lock.json" -nt "$hidden" ]; then step npm_ci; fi

# ---- Go-built tools -----------------------------------------------------------
command -v go >/dev/null || die "go not found (expected on PATH or in /usr/local/go/bin): needed to build temporal and ferretdb"
# Static binaries: no libc coupling, and no toolchain download attempts.
export CGO_ENABLED=0 GOTOOLCHAIN=${GOTOOLCHAIN:-local} GOFLAGS=${GOFLAGS:--buildvcs=false}

TEMPORAL_CLI_MODULE=github.com/temporalio/cli
TEMPORAL_CLI_VERSION=v1.5.1   # pinned: bump here only

# `temporal --version` says 0.0.0-DEV for go-installed builds; the module
# version embedded in the binary is the reliable pin check.
temporal_version() { go version -m "$TOOLS_BIN/temporal" 2>/dev/null | awk '$1 == "mod" {print $3}'; }
install_temporal() {
  log "building temporal CLI $TEMPORAL_CLI_VERSION (cold: several minutes; cached: seconds)"
  GOBIN=$TOOLS_BIN go install "$TEMPORAL_CLI_MODULE/cmd/temporal@$TEMPORAL_CLI_VERSION"
}
[ "$(temporal_version)" = "$TEMPORAL_CLI_VERSION" ] || step install_temporal

# ops/ferretdb wraps FerretDB's embeddable package (see its main.go for why).
src=$HERALD_ROOT/ops/ferretdb
build_ferretdb() {
  log "building ferretdb from ops/ferretdb"
  (cd "$src" && go build -o "$TOOLS_BIN/ferretdb.tmp" . && mv -f "$TOOLS_BIN/ferretdb.tmp" "$TOOLS_BIN/ferretdb")
}
if [ ! -x "$TOOLS_BIN/ferretdb" ] ||
  [ -n "$(find "$src" -maxdepth 1 \( -name '*.go' -o -name go.mod -o -name go.sum \) -newer "$TOOLS_BIN/ferretdb")" ]; then
  step build_ferretdb
fi

if [ ${#did[@]} -eq 0 ]; then
  log "install: nothing to do ($((SECONDS - t0))s)"
else
  log "install: done in $((SECONDS - t0))s:"
  printf '  - %s\n' "${did[@]}" >&2
fi
