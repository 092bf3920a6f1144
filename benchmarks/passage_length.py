"""What a passage's length costs the embedder: word pieces per CPU-second of one run, for
runs of 32 to 512 pieces, on the configured ONNX model (``GRAPHMEM_EMBEDDER``,
``GRAPHMEM_EMBEDDING_PRECISION``; e5-small-v2 int8 by default), as int8 ingest runs them:
one text per run on one thread. The ratio column is against the 512-piece run (the whole
window) timed in the same run; ``embed/windows.py`` reads a turn's first 128.

    python -m benchmarks passage-length [--seconds 3] [--rounds 2]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

import numpy as np

from benchmarks.common import fmt, table
from graphmem.config import Settings
from graphmem.embed.factory import build_model
from graphmem.embed.onnx_jar_embedder import OnnxModelEmbedder

LENGTHS = (32, 64, 128, 256, 512)


def _rate(model: OnnxModelEmbedder, length: int, seconds: float) -> float:
    """Pieces per CPU-second of back-to-back runs of one text of ``length`` pieces."""
    session, _ = model._open()
    rng = np.random.default_rng(length)
    row = [int(x) for x in rng.integers(2000, 20000, size=length)]
    model._run(session, [row])  # warm-up: the first run allocates
    runs, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        model._run(session, [row])
        runs += 1
    return runs * length / (time.process_time() - start)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks passage-length")
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU-seconds per length")
    parser.add_argument("--rounds", type=int, default=2, help="interleaved rounds (best kept)")
    args = parser.parse_args(argv)
    model = build_model(Settings())
    if not isinstance(model, OnnxModelEmbedder):
        raise SystemExit("passage-length times the ONNX models (GRAPHMEM_EMBEDDER=e5-small-v2)")
    best = dict.fromkeys(LENGTHS, 0.0)
    for _ in range(args.rounds):  # interleaved, so a busy moment hits every length alike
        for length in LENGTHS:
            best[length] = max(best[length], _rate(model, length, args.seconds))
    print(f"{model.name}: one text per run, one thread")
    rows = [[n, fmt(best[n], 0), fmt(best[n] / best[512], 2)] for n in LENGTHS]
    print("\n".join(table(["pieces a run", "pieces / CPU-s", "x 512-piece run"], rows)))


if __name__ == "__main__":
    main()
