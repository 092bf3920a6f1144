"""Every design's LLM path against a weak (scripted) model on the sample conversation: it
builds without crashing, items the model fails on degrade to the offline backend (logged
and counted), the accounting equals the server's own request count, and a re-run with a
warm cache makes no request. The same with the real local model: test_llm_local.py."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from graphmem.cli.main import cli
from graphmem.config import Settings
from graphmem.embed import Embedder
from graphmem.eval.harness import Question, budget_values
from graphmem.graph.store import GraphStore
from graphmem.ingest.formats import load
from graphmem.llm.cache import CACHE_FILE_NAME
from graphmem.llm.openai_llm import OpenAIStructuredLLM
from graphmem.memory import Memory
from graphmem.plugin.builder import BuildReport
from graphmem.plugin.registry import builder_names
from tests.fakes.openai_server import FakeOpenAIServer
from tests.fakes.weak_model import LLM_DESIGNS, WeakModel
from tests.integration.helpers import derived_labels
from tests.paths import ROOT

pytestmark = pytest.mark.integration

SAMPLE = ROOT / "examples" / "sample_conversation.jsonl"


@pytest.fixture
def weak_server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAIServer]:
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")
    with FakeOpenAIServer(default=WeakModel(every=4)) as server:
        yield server


def _llm_settings(settings: Settings, server: FakeOpenAIServer, cache_dir: Path) -> Settings:
    return settings.model_copy(
        update={
            "llm_model": "weak-model",
            "llm_base_url": server.base_url,
            "llm_cache": True,
            "llm_max_retries": 0,
            "cache_dir": cache_dir,
        }
    )


@pytest.mark.parametrize("design", builder_names())
def test_weak_model_builds_degrades_per_item_and_accounts_exactly(
    design: str,
    settings: Settings,
    store: GraphStore,
    embedder: Embedder,
    space: str,
    clean_space: str,
    weak_server: FakeOpenAIServer,
    tmp_path: Path,
) -> None:
    dataset = load(SAMPLE)
    with OpenAIStructuredLLM(_llm_settings(settings, weak_server, tmp_path)) as llm:
        memory = Memory(settings, store=store, embedder=embedder, llm=llm)
        reports = memory.ingest_dataset(dataset, space, [design]).builds
        first = BuildReport.total("all", reports)
        if first.llm_calls == 0 and design not in LLM_DESIGNS:
            pytest.skip(f"{design} has no LLM step")
        # every request the server saw is accounted to a design, with its tokens
        assert first.llm_calls == weak_server.request_count() > 0
        assert first.prompt_tokens == weak_server.served_prompt_tokens
        assert first.completion_tokens == weak_server.served_completion_tokens
        assert first.llm.repairs >= 1 and first.llm.fallbacks >= 1
        assert first.llm_seconds > 0 and first.counts["turns"] > 0
        # nodes the offline backend computed after a fallback say so, and only they
        labels = derived_labels(store, space)
        assert {backend for backend, _ in labels} <= {"llm:weak-model", "offline"}
        assert all((backend == "offline") == fallback for backend, fallback in labels)
        assert ("offline", True) in labels

        # the same conversation again, into a fresh space: the warm cache answers everything
        again = memory.ingest_dataset(dataset, clean_space, [design]).builds
        # and a space deleted takes its answers with it (docs/privacy.md)
        memory.forget(space)
        memory.forget(clean_space)
        with sqlite3.connect(tmp_path / CACHE_FILE_NAME) as db:
            assert db.execute("SELECT count(*) FROM responses").fetchone() == (0,)
    second = BuildReport.total("all", again)
    assert second.llm_calls == 0
    assert weak_server.request_count() == first.llm_calls
    # one cache hit per generate: answered ones, the ones that stayed invalid, and the
    # repeats of the first run that its own cache already answered
    generates = first.llm_calls - first.llm.repairs - first.llm.errors + first.llm_cache_hits
    assert second.llm_cache_hits == generates
    assert second.llm.fallbacks == first.llm.fallbacks


def test_ingest_and_ask_commands_report_llm_cost_and_never_crash(
    space: str, weak_server: FakeOpenAIServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for key, value in {
        "GRAPHMEM_LLM_BASE_URL": weak_server.base_url,
        "GRAPHMEM_LLM_MODEL": "weak-model",
        "GRAPHMEM_LLM_MAX_RETRIES": "0",
        "GRAPHMEM_CACHE_DIR": str(tmp_path),
    }.items():
        monkeypatch.setenv(key, value)
    runner = CliRunner()
    out = runner.invoke(cli, ["ingest", str(SAMPLE), "--space", space, "--json"])
    assert out.exit_code == 0, out.output
    built = json.loads(out.output)["builders"]
    assert {b["builder"] for b in built} == set(builder_names())
    keys = ("llm_calls", "llm_cache_hits", "llm_prompt_tokens", "llm_completion_tokens")
    assert all(key in b for b in built for key in (*keys, "llm_seconds", "llm_fallbacks"))
    assert sum(b["llm_calls"] for b in built) == weak_server.request_count()
    # (a design may make none on 19 turns: Amory holds its first T turns before it asks)
    assert sum(b["llm_calls"] for b in built if b["builder"] in LLM_DESIGNS) > 0

    # the weak model answers some questions with prose: `ask` says so instead of failing
    for question in ("What is the name of Maya's dog?", "Where was Biscuit found?"):
        asked = runner.invoke(cli, ["ask", question, "--space", space, "--json"])
        assert asked.exit_code == 0, asked.output
        answer = json.loads(asked.output)["answer"]
        assert answer is None or isinstance(answer, str)


def test_eval_judge_with_a_weak_model_scores_every_question(
    settings: Settings,
    store: GraphStore,
    embedder: Embedder,
    space: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    questions = ["Who is Biscuit?", "What breed is Biscuit?", "Where was he found?"]
    # a weaker model still: every other request fails for good
    with (
        FakeOpenAIServer(default=WeakModel(every=2)) as server,
        OpenAIStructuredLLM(_llm_settings(settings, server, tmp_path)) as llm,
    ):
        memory = Memory(settings, store=store, embedder=embedder, llm=llm)
        memory.ingest_dataset(load(SAMPLE), space, builders=[])
        values = []
        for text in questions * 2:
            found = memory.query(text, space, "hybrid", 300)
            question = Question(text, "a beagle mix", 4, "single-hop", [])
            values.append(budget_values(question, found.context, llm))
        spent = llm.usage.snapshot()
    assert all(v["judge"] in (0.0, 1.0, None) and v["f1"] is not None for v in values)
    assert spent.fallbacks >= 1  # some answers or verdicts stayed prose: scored, not fatal
    assert spent.cache_hits >= len(questions) * 2  # the second round is answered by the cache


def test_stats_shows_what_the_builds_of_a_space_cost_across_runs(
    space: str,
    store: GraphStore,
    weak_server: FakeOpenAIServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The build ledger: `graphmem stats` (text and --json) shows per design what the
    space's builds cost, read from the graph by a new process-level client; re-running the
    ingest adds nothing; the same conversation in a second space with a warm cache costs 0
    calls there; forget deletes the ledger with the space."""
    for key, value in {
        "GRAPHMEM_LLM_BASE_URL": weak_server.base_url,
        "GRAPHMEM_LLM_MODEL": "weak-model",
        "GRAPHMEM_LLM_MAX_RETRIES": "0",
        "GRAPHMEM_CACHE_DIR": str(tmp_path),
    }.items():
        monkeypatch.setenv(key, value)
    runner = CliRunner()
    warm = f"{space}-warm"

    def ingest(target: str) -> dict[str, dict[str, Any]]:
        out = runner.invoke(cli, ["ingest", str(SAMPLE), "--space", target, "--json"])
        assert out.exit_code == 0, out.output
        return {b["builder"]: b for b in json.loads(out.output)["builders"] if b["sessions"]}

    def stats(target: str) -> dict[str, Any]:
        out = runner.invoke(cli, ["stats", "--space", target, "--json"])
        assert out.exit_code == 0, out.output
        cost: dict[str, Any] = json.loads(out.output)["build_cost"]
        return cost

    try:
        built = ingest(space)
        cost = stats(space)
        assert set(cost["designs"]) == set(built) == set(builder_names())
        keys = ("llm_calls", "llm_cache_hits", "llm_prompt_tokens", "llm_completion_tokens")
        for name, design in cost["designs"].items():
            assert design["builds"] == 1 and design["backends"] == ["llm:weak-model"]
            for key in (*keys, "llm_fallbacks", "sessions", "turns"):
                assert design[key] == built[name][key], (name, key)
            assert design["llm_seconds"] == pytest.approx(built[name]["llm_seconds"], abs=0.01)
        assert cost["total"]["llm_calls"] == weak_server.request_count() > 0
        assert cost["total"]["llm_tokens"] == (
            weak_server.served_prompt_tokens + weak_server.served_completion_tokens
        )
        text = runner.invoke(cli, ["stats", "--space", space])
        assert "build_cost:" in text.output and "llm_calls:" in text.output

        assert ingest(space) == {}  # nothing left to build: the ledger stays as it was
        assert stats(space) == cost

        ingest(warm)  # a new space, the same conversation, the cache warm
        again = stats(warm)
        assert again["total"]["llm_calls"] == 0
        assert again["total"]["llm_cache_hits"] > 0
        assert weak_server.request_count() == cost["total"]["llm_calls"]
    finally:
        runner.invoke(cli, ["forget", "--space", warm, "--yes"])
    forgot = runner.invoke(cli, ["forget", "--space", space, "--yes"])
    assert forgot.exit_code == 0
    assert store.read("core.build_costs", space=space) == []
