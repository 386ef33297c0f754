#!/usr/bin/env bash
# SIGKILL of the compiled gateway during a stream of registrations and points batches, many times,
# on SQLite and on PostgreSQL (a throw-away cluster of its own). The same check as the security
# suite's faults test (tests/security/faults.test.ts), with more kills.
#   npm run build:gateway && bash scripts/faults/kill-during-writes.sh [KILLS] [sqlite|postgres|both]
set -euo pipefail
kills=${1:-20}; which=${2:-both}
cd "$(dirname "$0")/../.."
# Decision 037: on SIGINT, SIGTERM or a failure, the vitest run (its own process group) and the cluster stop too.
# Bash runs a trap only between commands, so the run goes to the background and the script waits for it.
job=''; dir=''
cleanup() {
  if [ -n "$job" ]; then kill -TERM -- "-$job" 2>/dev/null || true; wait "$job" 2>/dev/null || true; fi
  if [ -n "$dir" ]; then bash scripts/pg-throwaway.sh stop "$dir/cluster"; rm -rf "$dir"; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
run() {
  set -m # a process group of its own
  (FAULT_KILLS=$kills npx vitest run --project security tests/security/faults.test.ts -t 'SIGKILL' 2>&1 | grep -E '^.*faults \(|Tests |FAIL|AssertionError') &
  job=$!
  set +m
  wait "$job"
  job=''
}
if [ "$which" != postgres ]; then run; fi
if [ "$which" != sqlite ]; then
  dir=$(mktemp -d /tmp/pg-kill-XXXXXX); chmod 755 "$dir"
  url=$(bash scripts/pg-throwaway.sh start "$dir/cluster")
  TEST_DATABASE_URL=$url run
fi
