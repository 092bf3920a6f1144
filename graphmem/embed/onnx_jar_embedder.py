"""An embedder over one of the ONNX models of ``embed/models.py`` on ONNX Runtime.

Texts get the model's prefix for their side (query, passage, symmetric), are cut into word
pieces by the model's own ``tokenizer.json`` (the HuggingFace ``tokenizers`` library),
grouped by length so that a batch pads to texts of about its own length (sorted, then cut
into batches of ``GRAPHMEM_EMBEDDING_BATCH_SIZE`` on ``GRAPHMEM_EMBEDDING_THREADS`` intra-op
threads; for int8 graphs one text per run, ``GRAPHMEM_EMBEDDING_WORKERS`` runs in parallel
on one thread each, see ``embed``), run through the graph and pooled as the model's card
says (mean over the attention mask, or the [CLS] token), then L2-normalised.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from graphmem.config import Settings
from graphmem.embed.base import (
    Embedder,
    Kind,
    MiniLMEmbedder,
    Vectors,
    normalise,
    passage_windows,
)
from graphmem.embed.models import ModelFiles, ModelSpec, fetch_model, pinned_name
from graphmem.errors import ModelLoadError


class OnnxModelEmbedder(Embedder):
    """``name`` is the model's name, with ``:int8`` for the quantised graph: int8 vectors
    are within cosine 0.99 of float32's, not 0.9999, so a space built with one is not
    queried with the other (``graphmem reembed`` switches)."""

    dim = 384

    def __init__(self, settings: Settings, spec: ModelSpec, precision: str) -> None:
        if precision not in spec.jars:
            raise ModelLoadError(f"{spec.key} has no {precision} graph")
        self.spec = spec
        self.precision = precision
        self.name = pinned_name(spec, precision)
        self._settings = settings
        self._batch = max(1, settings.embedding_batch_size)
        # int8: one text per run, runs spread over a pool of single-threaded workers
        # (ONNX Runtime releases the GIL; one session serves concurrent runs).
        self._workers = max(1, settings.embedding_workers) if precision == "int8" else 1
        self._threads = 1 if precision == "int8" else max(1, settings.embedding_threads)
        self._pool: ThreadPoolExecutor | None = None
        self._files: ModelFiles | None = None
        self._session: Any = None
        self._tokenizer: Any = None
        self._counter: Any = None
        self._splitter: Any = None
        self._lock = threading.Lock()

    def files(self) -> ModelFiles:
        """The checked model files, fetched on first use."""
        if self._files is None:
            self._files = fetch_model(self._settings, self.spec.jars[self.precision])
        return self._files

    def _open(self) -> tuple[Any, Any]:
        with self._lock:
            if self._session is None:
                import onnxruntime as ort
                from tokenizers import Tokenizer

                files = self.files()
                tokenizer = Tokenizer.from_file(str(files.tokenizer))
                tokenizer.enable_truncation(self.spec.max_tokens)
                tokenizer.no_padding()  # each batch pads to its own longest text (_run)
                options = ort.SessionOptions()
                options.intra_op_num_threads = self._threads
                options.inter_op_num_threads = 1
                options.log_severity_level = 3
                try:
                    self._session = ort.InferenceSession(
                        str(files.onnx), options, providers=["CPUExecutionProvider"]
                    )
                except Exception as exc:
                    raise ModelLoadError(f"onnxruntime cannot load {files.onnx}: {exc}") from exc
                self._tokenizer = tokenizer
        return self._session, self._tokenizer

    def identity(self) -> str:
        # The pinned graph's checksum: another graph under the same name is another cache.
        return f"{self.name}@{self.spec.jars[self.precision].onnx_sha256[:16]}"

    def side(self, kind: Kind) -> str:
        return self.prefix(kind)

    def heads(self, texts: Sequence[str], kind: Kind = "passage") -> list[str]:
        if self._splitter is None:
            from graphmem.embed.split import Splitter

            kinds: tuple[Kind, ...] = ("query", "passage", "symmetric")
            prefixes = {kind: self.prefix(kind) for kind in kinds}
            windows = passage_windows(self.spec.max_tokens, self._settings.embedding_passage_tokens)
            self._splitter = Splitter(self.files().tokenizer, windows, prefixes)
        cut: list[str] = self._splitter.heads(texts, kind)
        return cut

    def prefix(self, kind: Kind) -> str:
        spec = self.spec
        return {
            "query": spec.query_prefix,
            "passage": spec.passage_prefix,
            "symmetric": spec.symmetric_prefix,
        }[kind]

    def embed(self, texts: Sequence[str], kind: Kind = "passage") -> Vectors:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        session, tokenizer = self._open()
        head = self.prefix(kind)
        # Tokenising is not thread-safe on one Tokenizer ("Already borrowed"): a lock.
        with self._lock:
            pieces = tokenizer.encode_batch([head + t for t in texts])
        ids = [p.ids for p in pieces]
        order = sorted(range(len(texts)), key=lambda i: len(ids[i]))
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        # The int8 graphs quantise activations per tensor, with a scale taken from the whole
        # batch: a text's vector moved by cosine 0.005 with its batch neighbours (tests).
        # One text per run keeps it a function of the text alone (a fresh ingest, a
        # re-embedding and a cache agree); runs in parallel win the speed back.
        if self.precision == "int8":
            rows = self._map(lambda i: self._run(session, [ids[i]])[0], order)
            for i, row in zip(order, rows, strict=True):
                out[i] = row
            return out
        for start in range(0, len(order), self._batch):
            chosen = order[start : start + self._batch]
            out[chosen] = self._run(session, [ids[i] for i in chosen])
        return out

    def _map(self, run: Callable[[int], Vectors], order: list[int]) -> list[Vectors]:
        """``run`` over ``order`` on the worker pool (made at the first call of more than
        one text; a question alone runs here, without a hand-over)."""
        if self._workers == 1 or len(order) == 1:
            return [run(i) for i in order]
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self._workers, thread_name_prefix="embed")
        return list(self._pool.map(run, order))

    def _run(self, session: Any, rows: list[list[int]]) -> Vectors:
        width = max(len(r) for r in rows)
        ids = np.zeros((len(rows), width), dtype=np.int64)  # 0 is [PAD] in BERT's vocabulary
        mask = np.zeros((len(rows), width), dtype=np.int64)
        for i, row in enumerate(rows):
            ids[i, : len(row)] = row
            mask[i, : len(row)] = 1
        feed = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        hidden = session.run(None, feed)[0]
        if self.spec.pooling == "cls":
            pooled = hidden[:, 0, :]
        else:
            weights = mask[..., None].astype(np.float32)
            pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        return normalise(pooled)

    # Token counting for budgets: one counter for every embedder (embed/base.py).
    def count_tokens(self, text: str) -> int:
        return self._count().count_tokens(text)

    def count_tokens_many(self, texts: Sequence[str]) -> list[int]:
        return self._count().count_tokens_many(texts)

    def _count(self) -> Embedder:
        if self._counter is None:
            self._counter = MiniLMEmbedder(self._settings)
        counter: Embedder = self._counter
        return counter
