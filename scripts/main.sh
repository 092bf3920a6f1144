#!/usr/bin/env bash
# The main job on the embedded default: local Neo4j 5.26 + GDS, schema, doctor, then the
# sample conversation ingested and a question answered from memory (offline backend).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/bootstrap.sh
source .venv/bin/activate
export HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false

graphmem server start
graphmem init
graphmem doctor
