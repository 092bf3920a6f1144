#!/usr/bin/env bash
# The test command: lint, type-check, then every test against a real Neo4j + GDS
# (NEO4J_URI when set, else the local server graphmem starts itself).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/bootstrap.sh
source .venv/bin/activate
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false

was_running=$(graphmem server status --json | python -c 'import json,sys; print(json.load(sys.stdin)["running"])')
if [ "$was_running" != "True" ]; then
  trap 'graphmem server stop >/dev/null 2>&1 || true' EXIT
fi

ruff check .
ruff format --check .
mypy
pytest "$@"
