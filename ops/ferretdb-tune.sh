#!/usr/bin/env bash
# ops/ferretdb-tune.sh [database...]
# PostgreSQL indexes that FerretDB 1.x's own queries can use (FerretDB on its PostgreSQL handler
# only). Default: every FerretDB database; with arguments: those databases.
#
# Why: FerretDB pushes an equality filter down as `_jsonb->'field' @> '"value"'`, but the indexes it
# creates for MongoDB's createIndex are btree indexes on `(_jsonb->'field')`, which PostgreSQL
# cannot use for `@>`. Every lookup therefore scans the whole table: measured 41 ms for one upload
# target by _id and 70 ms for one upload by request id at 10,000 uploads, growing with history.
# A GIN index on the same expression serves `@>`: 1.8 ms and ~5 ms for an update at the same size.
# The indexes live beside FerretDB's (it neither lists nor minds them) and go with their table.
# Idempotent; ops/start.sh runs it once the API has created the collections. On real MongoDB
# nothing of this applies: the storage adapter's own indexes are used.
set -euo pipefail
# shellcheck source=ops/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

PGDB=${HERALD_FERRETDB_PG_DATABASE:-ferretdb}
if ! command -v psql >/dev/null; then
  log "ferretdb-tune: psql not found, nothing tuned"; exit 0
fi
PSQL=(psql -h "${PGHOST:-127.0.0.1}" -p "${PGPORT:-5432}" -U "${PGUSER:-postgres}" -d "$PGDB" -v ON_ERROR_STOP=1 -qAt)
if ! "${PSQL[@]}" -c 'SELECT 1' >/dev/null 2>&1; then
  log "ferretdb-tune: PostgreSQL database $PGDB not reachable (SQLite handler?), nothing tuned"; exit 0
fi

# The equality lookups of the repositories in adapters/mongo/ (names: adapters/mongo/collections.ts), per collection.
declare -A FIELDS=(
  [uploads]="requestId jobId hk hs_scheduled hs_pending hs_in_progress hs_completed hs_cancelled xk capk sk pq"
  [list_counters]="_id ck"
  [counter_writers]="_id"
  [upload_targets]="_id requestId postId th"
  [connected_accounts]="_id profileUsername pk"
  [api_keys]="_id hash accountId"
  [operator_accounts]="_id email"
  [profiles]="username accountId"
  [oauth_states]="_id xh"
  [queue_settings]="_id"
  [queue_slots]="_id profileUsername"
  [events]="deliveryKey pk hh _id"
  [delivery_attempts]="_id dk xh deliveryId"
  [hour_sweeps]="_id"
  [media_jobs]="_id accountId jk"
  [media_usage]="_id accountId uk"
  [media_uploads]="_id xk"
  [connect_links]="_id xh"
  [connect_sessions]="_id sessionHash xh"
  [operator_preferences]="_id"
  [agent_oauth_clients]="_id"
  [agent_oauth_codes]="_id xh"
  [agent_oauth_tokens]="_id grantId xh"
  [analytics_snapshots]="_id series xk"
  [analytics_series]="_id xk"
  [post_metrics]="_id lk xk"
)

if [ $# -gt 0 ]; then
  schemas=("$@")
else
  mapfile -t schemas < <("${PSQL[@]}" -c "SELECT table_schema FROM information_schema.tables WHERE table_name = '_ferretdb_database_metadata'")
fi

hgin_count() { "${PSQL[@]}" -c "SELECT count(*) FROM pg_indexes WHERE indexname LIKE 'hgin\_%'"; }
before=$(hgin_count)
sql=""
for schema in "${schemas[@]}"; do
  [[ $schema =~ ^[A-Za-z0-9_-]+$ ]] || { log "ferretdb-tune: skipping odd schema name '$schema'"; continue; }
  known=$("${PSQL[@]}" -c "SELECT 1 FROM information_schema.tables WHERE table_schema = '$schema' AND table_name = '_ferretdb_database_metadata'")
  [ -n "$known" ] || { log "ferretdb-tune: no FerretDB database '$schema' in PostgreSQL (yet)"; continue; }
  while IFS='|' read -r collection table; do
    [ -n "${FIELDS[$collection]:-}" ] || continue
    [[ $table =~ ^[a-z0-9_]+$ ]] || continue
    for field in ${FIELDS[$collection]}; do
      index="hgin_${table}_${field,,}"
      sql+="CREATE INDEX IF NOT EXISTS \"${index:0:63}\" ON \"$schema\".\"$table\" USING gin ((_jsonb->'$field'));"$'\n'
    done
    sql+="ANALYZE \"$schema\".\"$table\";"$'\n'
  done < <("${PSQL[@]}" -c "SELECT _jsonb->>'_id', _jsonb->>'table' FROM \"$schema\"._ferretdb_database_metadata")
done
[ -z "$sql" ] || "${PSQL[@]}" -c "SET client_min_messages = warning; $sql" >/dev/null
log "ferretdb-tune: ${#schemas[@]} database(s), $(( $(hgin_count) - before )) index(es) created"
