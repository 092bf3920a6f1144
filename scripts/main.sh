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
graphmem ingest examples/sample_conversation.jsonl --space demo
graphmem stats --space demo
graphmem query "When did Maya adopt her dog and what is its name?" --space demo --budget 300 --explain
# SEEM: facts as seeds, Personalized PageRank on the space's graph, reverse provenance expansion.
graphmem query "Why did Maya pick her apartment in Porto?" --space demo --strategy seem --budget 300 --explain
graphmem ask "Where is Maya moving, and why did she pick her apartment?" --space demo --budget 300
