"""Query embeddings on ONNX Runtime (``GRAPHMEM_EMBEDDING_RUNTIME``): the same vectors as
torch's for short calls, batches untouched, the exported graph kept private and made again
when it is damaged, and torch whenever the ONNX path cannot be trusted."""

from __future__ import annotations

import logging
import stat
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from graphmem.config import Settings
from graphmem.embed import minilm_onnx
from graphmem.embed.base import MiniLMEmbedder

pytestmark = pytest.mark.slow

TEXTS = [
    "(8 May 2023) Caroline: I went to a LGBTQ support group yesterday and it was so powerful.",
    "When did Caroline go to the support group?",
    "Melanie painted a sunset",
    "ok",
    "(25 May 2023) Melanie: We went camping with the kids at the beach last weekend.",
    "word " * 400,  # past MiniLM's 256 tokens: both runtimes truncate alike
]


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("onnx-cache")


@pytest.fixture(scope="module")
def torch_embedder(cache_dir: Path) -> MiniLMEmbedder:
    return MiniLMEmbedder(Settings(embedding_runtime="torch", cache_dir=cache_dir))


def _graph(cache_dir: Path) -> Path:
    files = list((cache_dir / "onnx").glob("*.onnx"))
    assert len(files) == 1, files
    return files[0]


def test_short_calls_run_on_onnx_with_torchs_vectors(
    cache_dir: Path, torch_embedder: MiniLMEmbedder
) -> None:
    fast = MiniLMEmbedder(Settings(embedding_runtime="onnx", cache_dir=cache_dir))
    assert fast.runtime == "undecided"
    for start in range(0, len(TEXTS), 3):
        chunk = TEXTS[start : start + 3]
        got, want = fast.embed(chunk), torch_embedder.embed(chunk)
        assert got.dtype == np.float32 and got.shape == (len(chunk), 384)
        assert np.abs(got - want).max() < 1e-5
    assert fast.runtime == "onnx"
    assert torch_embedder.runtime == "torch"


def test_the_exported_graph_is_private_and_reused(cache_dir: Path) -> None:
    MiniLMEmbedder(Settings(cache_dir=cache_dir)).embed(["a question"])
    graph = _graph(cache_dir)
    assert stat.S_IMODE(graph.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(graph.stat().st_mode) == 0o600
    before = graph.stat().st_mtime_ns
    again = MiniLMEmbedder(Settings(cache_dir=cache_dir))
    again.embed(["another question"])
    assert again.runtime == "onnx"
    assert graph.stat().st_mtime_ns == before
    assert not list(graph.parent.glob("*.part"))


def test_batches_stay_on_torch(cache_dir: Path, torch_embedder: MiniLMEmbedder) -> None:
    fast = MiniLMEmbedder(Settings(embedding_runtime="onnx", cache_dir=cache_dir))
    # Six texts are a batch: exactly torch's vectors, so what a build stores is unchanged.
    assert np.array_equal(fast.embed(TEXTS), torch_embedder.embed(TEXTS))


def test_a_damaged_graph_is_exported_again(tmp_path: Path, torch_embedder: MiniLMEmbedder) -> None:
    MiniLMEmbedder(Settings(cache_dir=tmp_path)).embed(["warm"])
    graph = _graph(tmp_path)
    graph.write_bytes(b"not an onnx graph")
    fresh = MiniLMEmbedder(Settings(cache_dir=tmp_path))
    got = fresh.embed(TEXTS[:2])
    assert fresh.runtime == "onnx"
    assert graph.stat().st_size > 1_000_000
    assert np.abs(got - torch_embedder.embed(TEXTS[:2])).max() < 1e-5


def test_a_graph_that_disagrees_with_torch_is_not_kept(
    tmp_path: Path,
    torch_embedder: MiniLMEmbedder,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.setattr(minilm_onnx, "_TOLERANCE", -1.0)  # no graph can pass
    strict = MiniLMEmbedder(Settings(cache_dir=tmp_path))
    with caplog.at_level(logging.WARNING, logger="graphmem.embed.base"):
        got = strict.embed(TEXTS[:2])
    assert strict.runtime == "torch"
    assert "query embeddings stay on torch" in caplog.text
    assert np.array_equal(got, torch_embedder.embed(TEXTS[:2]))
    assert not list((tmp_path / "onnx").iterdir())  # neither the graph nor a partial file


def test_token_counts_are_the_models_tokenizers(torch_embedder: MiniLMEmbedder) -> None:
    model_tokenizer = torch_embedder._load().tokenizer
    texts = [*TEXTS, "", "café naïve — “quotes” 🙂", "I'm SO excited!!! #blessed"]
    want = [len(model_tokenizer.encode(t, add_special_tokens=False)) for t in texts]
    assert torch_embedder.count_tokens_many(texts) == want
    assert [torch_embedder.count_tokens(t) for t in texts] == want
    assert want[5] > 256  # counted whole, not cut at the model's input length


def test_a_query_process_never_imports_sentence_transformers(cache_dir: Path) -> None:
    """Once the graph is kept, embedding a question and counting tokens read only the
    tokenizer file and the graph: a one-shot `graphmem query` skips that import (seconds)."""
    MiniLMEmbedder(Settings(cache_dir=cache_dir)).embed(["make sure the graph is kept"])
    script = (
        "import sys\n"
        "from graphmem.config import Settings\n"
        "from graphmem.embed.base import MiniLMEmbedder\n"
        f"e = MiniLMEmbedder(Settings(cache_dir={str(cache_dir)!r}))\n"
        "v = e.embed(['When did Caroline go to the support group?'])\n"
        "n = e.count_tokens('When did Caroline go?')\n"
        "print(e.runtime, v.shape, n, 'sentence_transformers' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=True
    )
    assert done.stdout.split() == ["onnx", "(1,", "384)", "5", "False"]


def test_a_model_of_another_layout_is_refused() -> None:
    class Pooling:
        def get_config_dict(self) -> dict[str, str]:
            return {"pooling_mode": "cls"}

    class Transformer: ...

    class Normalize: ...

    with pytest.raises(minilm_onnx.OnnxUnavailable, match="not mean pooling"):
        minilm_onnx._check_layout([Transformer(), Pooling(), Normalize()])
    with pytest.raises(minilm_onnx.OnnxUnavailable, match="layout"):
        minilm_onnx._check_layout([Transformer(), Pooling()])


def test_a_cache_that_cannot_be_written_leaves_queries_on_torch(
    tmp_path: Path, torch_embedder: MiniLMEmbedder
) -> None:
    blocked = tmp_path / "not-a-directory"
    blocked.write_text("a file where the cache directory would be")
    embedder = MiniLMEmbedder(Settings(cache_dir=blocked))
    got = embedder.embed(TEXTS[:2])
    assert embedder.runtime == "torch"
    assert np.array_equal(got, torch_embedder.embed(TEXTS[:2]))
