#!/usr/bin/env bash
# The test command: lint, type-check, then every test against a real Neo4j + GDS
# (NEO4J_URI when set, else a local server of the tests' own that graphmem starts).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/bootstrap.sh
source .venv/bin/activate
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false

# The tests get a Neo4j of their own: its home inside this checkout and its own ports. A
# user's store (however large, however it was last stopped) and running server are never
# touched, and a fresh clone tests against a fresh store. NEO4J_URI (an external server) or
# an explicit GRAPHMEM_HOME overrides this.
if [ -z "${NEO4J_URI:-}" ] && [ -z "${GRAPHMEM_HOME:-}" ]; then
  export GRAPHMEM_HOME="$PWD/.graphmem-test"
  export GRAPHMEM_BOLT_PORT="${GRAPHMEM_BOLT_PORT:-7697}"
  export GRAPHMEM_HTTP_PORT="${GRAPHMEM_HTTP_PORT:-7484}"
  export GRAPHMEM_API_PORT="${GRAPHMEM_API_PORT:-8494}"
fi

was_running=$(graphmem server status --json | python -c 'import json,sys; print(json.load(sys.stdin)["running"])')
if [ "$was_running" != "True" ]; then
  trap 'graphmem server stop >/dev/null 2>&1 || true' EXIT
fi

ruff check .
ruff format --check .
mypy
pytest "$@"

# Opt-in: the real local model (docs/llm.md). Building llama-cpp-python takes 9-40 minutes on
# 2 cores unless pip's wheel cache already holds it; the tests add about 15 minutes.
if [ "${GRAPHMEM_TEST_LLM:-0}" = "1" ]; then
  CMAKE_ARGS="-DGGML_NATIVE=OFF" python -m pip install -q -e ".[local-llm]"
  pytest -m llm
fi
