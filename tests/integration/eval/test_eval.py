"""The evaluation harness end to end on small fixtures, against the real database."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import graphmem
from graphmem.cli.common import AppContext
from graphmem.cli.main import cli
from graphmem.config import Settings
from graphmem.embed import Embedder
from graphmem.errors import InputError
from graphmem.eval.harness import locomo_metric_names, longmemeval_metric_names
from graphmem.eval.locomo import run_locomo
from graphmem.eval.longmemeval import ABSTENTION, QUESTION_TYPES, run_longmemeval
from graphmem.eval.metrics import CATEGORY_NAMES, bleu1
from graphmem.eval.report import render_markdown
from graphmem.graph.store import GraphStore
from graphmem.memory import Memory
from tests.fakes.openai_server import FakeOpenAIServer, Reply
from tests.paths import FIXTURES

pytestmark = pytest.mark.integration

LOCOMO = FIXTURES / "locomo_eval.json"
LONGMEMEVAL = FIXTURES / "longmemeval_eval.json"
STRATEGIES = ["dense", "fulltext", "hybrid"]
BUDGETS = [50, 2000]  # the smallest budget a query may ask for (graphmem.serving.limits)
LOCOMO_SPACES = ("conv-x", "conv-y")
LONGMEMEVAL_SPACES = ("q-single", "q-multi", "q-temporal_abs")
ADVERSARIAL = ("What did Ben adopt from the shelter?", "What did Di buy in Oslo?")


def _prefix() -> str:
    return f"test-{uuid.uuid4().hex[:10]}"


def _forget(memory: Memory, prefix: str, names: tuple[str, ...]) -> None:
    for name in names:
        memory.forget(f"{prefix}-{name}", missing_ok=True)


def _find(results: list[dict[str, Any]], strategy: str, budget: int) -> dict[str, Any]:
    return next(r for r in results if r["strategy"] == strategy and r["budget"] == budget)


@pytest.fixture(scope="module")
def memory(settings: Settings, store: GraphStore, embedder: Embedder) -> Memory:
    # Not closed here: it shares the session's store.
    return Memory(settings, store=store, embedder=embedder)


@pytest.fixture(scope="module")
def locomo_results(memory: Memory) -> Iterator[list[dict[str, Any]]]:
    prefix = _prefix()
    try:
        yield run_locomo(memory, LOCOMO, STRATEGIES, BUDGETS, space_prefix=prefix, progress=False)
    finally:
        _forget(memory, prefix, LOCOMO_SPACES)


@pytest.fixture(scope="module")
def longmemeval_results(memory: Memory) -> Iterator[list[dict[str, Any]]]:
    prefix = _prefix()
    try:
        yield run_longmemeval(
            memory, LONGMEMEVAL, STRATEGIES, BUDGETS, space_prefix=prefix, progress=False
        )
    finally:
        _forget(memory, prefix, LONGMEMEVAL_SPACES)


# ---------------------------------------------------------------- LoCoMo


def test_locomo_one_result_per_strategy_and_budget(locomo_results: list[dict[str, Any]]) -> None:
    pairs = [(r["strategy"], r["budget"]) for r in locomo_results]
    assert pairs == [(s, b) for s in STRATEGIES for b in BUDGETS]
    expected = [*locomo_metric_names(with_llm=False), "latency_ms", "n"]
    for result in locomo_results:
        assert set(result) == {"strategy", "budget", "overall", "by_category", "meta"}
        assert list(result["overall"]) == expected
        assert list(result["by_category"]) == list(CATEGORY_NAMES.values())
        assert set(result["overall"]["latency_ms"]) == {"p50", "p95", "p99"}
        assert not {"f1", "bleu1", "judge"} & set(result["overall"])  # no LLM, no fake scores


def test_locomo_counts_skip_category_5_and_bad_evidence(
    locomo_results: list[dict[str, Any]],
) -> None:
    for result in locomo_results:
        by_category = result["by_category"]
        # 7 questions of categories 1-4; the 2 adversarial ones are never asked
        assert result["overall"]["n"] == 7
        assert {k: v["n"] for k, v in by_category.items()} == {
            "multi-hop": 1,
            "temporal": 2,
            "open-domain": 1,
            "single-hop": 3,
        }
        meta = dict(result["meta"])
        prepare = meta.pop("prepare_ms")  # one-off per space, kept out of the latencies
        assert set(prepare) == set(STRATEGIES) and all(ms >= 0 for ms in prepare.values())
        # the preset every registered design ran with: a number means nothing without it
        presets = meta.pop("presets")
        assert presets["seem"] == "default" and set(presets) >= {"baselines", "semantic"}
        # and which code: the package imported (a worktree comparison must prove its side)
        code = meta.pop("code")
        assert code["path"] == str(Path(graphmem.__file__).resolve().parent)
        assert code["version"] == graphmem.__version__
        # and the settings given beside the presets: none for any design in this suite;
        # the process's as text, never a secret
        settings = meta.pop("settings")
        assert settings["designs"] == {}
        assert all(isinstance(v, str) for v in settings["process"].values())
        assert not {"neo4j_password", "llm_api_key"} & set(settings["process"])
        assert meta == {
            "dataset": "locomo",
            "n_conversations": 2,
            "skipped_adversarial": 2,
            "n_questions": 7,
            "ignored_evidence_ids": 2,  # D9:99 and D7:7 name no stored turn
            "skipped_no_evidence": 1,  # the Toronto question had only D7:7
            "llm": None,
            "failed": [],  # conversations that failed (none)
            "resumed": 0,  # conversations read from an earlier run's --out (none)
            # what the load left out of the file (nothing here: docs/eval.md, "Input")
            "input_skipped": {
                "empty_turns": 0,
                "repeated_sessions": 0,
                "repeated_turns": 0,
                "places": [],
            },
        }


def test_locomo_lexical_match_is_found_by_fulltext(locomo_results: list[dict[str, Any]]) -> None:
    open_domain = _find(locomo_results, "fulltext", 2000)["by_category"]["open-domain"]
    assert open_domain["evidence_recall_at_5"] == 1.0
    assert open_domain["coverage_at_5"] == 1.0


def test_locomo_budget_limits_the_context(locomo_results: list[dict[str, Any]]) -> None:
    small = _find(locomo_results, "dense", 50)["overall"]
    large = _find(locomo_results, "dense", 2000)["overall"]
    # 2000 tokens hold the whole conversation: every valid gold turn is in the context
    assert large["evidence_recall_at_budget"] == 1.0
    assert small["evidence_recall_at_budget"] < large["evidence_recall_at_budget"]
    # ranking metrics come from the one retrieval call, whatever the budget
    assert small["evidence_recall_at_10"] == large["evidence_recall_at_10"]
    assert small["latency_ms"] == large["latency_ms"]
    # every single-hop gold answer is in the whole conversation
    assert (
        _find(locomo_results, "dense", 2000)["by_category"]["single-hop"][
            "answer_token_recall_at_budget"
        ]
        == 1.0
    )


# ---------------------------------------------------------------- LongMemEval


def test_longmemeval_metrics_and_counts(longmemeval_results: list[dict[str, Any]]) -> None:
    expected = [*longmemeval_metric_names(with_llm=False), "latency_ms", "n"]
    assert len(longmemeval_results) == len(STRATEGIES) * len(BUDGETS)
    for result in longmemeval_results:
        assert list(result["overall"]) == expected
        # the abstention question is reported apart, outside the overall summary
        assert result["overall"]["n"] == 2
        groups = result["by_question_type"]
        assert list(groups) == [*QUESTION_TYPES, ABSTENTION]
        assert {g: groups[g]["n"] for g in groups if groups[g]["n"]} == {
            "single-session-user": 1,
            "multi-session": 1,
            ABSTENTION: 1,
        }
        meta = result["meta"]
        assert meta["skipped_no_evidence"] == 1
        assert meta["skipped_no_answer_sessions"] == 1
        assert meta["n_conversations"] == 3
        # the abstention question has no answer sessions: left out of session recall
        assert groups[ABSTENTION]["recall_any_at_5"] is None


def test_longmemeval_session_recall(longmemeval_results: list[dict[str, Any]]) -> None:
    single = _find(longmemeval_results, "fulltext", 2000)["by_question_type"]
    assert single["single-session-user"]["recall_any_at_5"] == 1.0
    assert single["single-session-user"]["evidence_recall_at_budget"] == 1.0
    for strategy in STRATEGIES:
        multi = _find(longmemeval_results, strategy, 2000)["by_question_type"]["multi-session"]
        # four sessions in that haystack: the top 5 sessions are all of them
        assert multi["recall_all_at_5"] == 1.0


# ---------------------------------------------------------------- CLI


def _invoke(settings: Settings, args: list[str]) -> Any:
    context = AppContext()
    context.settings = settings
    return CliRunner().invoke(cli, args, obj={"app": context})


def test_cli_json_is_one_object_for_one_pair(memory: Memory, settings: Settings) -> None:
    prefix = _prefix()
    try:
        args = ["eval", "locomo", str(LOCOMO), "--strategy", "fulltext", "--budget", "300"]
        result = _invoke(settings, [*args, "--space-prefix", prefix, "--json", "--no-progress"])
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        assert isinstance(data, dict)
        assert (data["strategy"], data["budget"]) == ("fulltext", 300)
        assert data["overall"]["n"] == 7
    finally:
        _forget(memory, prefix, LOCOMO_SPACES)


def test_cli_out_writes_results_and_report(
    memory: Memory, settings: Settings, tmp_path: Path
) -> None:
    prefix = _prefix()
    out = tmp_path / "report"
    try:
        args = ["eval", "locomo", str(LOCOMO), "--strategy", "dense,fulltext", "--strategy"]
        args += ["fulltext", "--budget", "100", "--budget", "300", "--out", str(out)]
        result = _invoke(settings, [*args, "--space-prefix", prefix, "--no-progress"])
        assert result.exit_code == 0, result.output
        saved = json.loads((out / "results.json").read_text(encoding="utf-8"))
        assert [(r["strategy"], r["budget"]) for r in saved] == [
            ("dense", 100),
            ("dense", 300),
            ("fulltext", 100),
            ("fulltext", 300),
        ]
        report = (out / "report.md").read_text(encoding="utf-8")
        assert "## Budget 100 tokens" in report and "## Budget 300 tokens" in report
        assert report.count("### multi-hop") == 2
        assert re.search(r"^\| fulltext \| ", report, re.MULTILINE)
        assert "# LoCoMo evaluation" in result.stdout  # without --json: the report
    finally:
        _forget(memory, prefix, LOCOMO_SPACES)


def test_cli_rejects_unknown_strategy(settings: Settings) -> None:
    result = _invoke(settings, ["eval", "locomo", str(LOCOMO), "--strategy", "nope"])
    assert result.exit_code == 2
    assert "unknown strategy 'nope'" in result.output


# ---------------------------------------------------------------- with an LLM

# The fake model answers from this table and judges by exact match; the multi-hop answer
# is half right on purpose.
CANNED = {
    "What is the name of Ana's kitten?": "Pixel",
    "Which instruments does Ben play?": "cello",
    "Who bought a blue kayak named Zephyr at the harbour market?": "Ana",
    "When did Ben run the Lisbon marathon?": "May 2023",
    "Where is Ana's sister moving?": "Toronto",
    "What did Cy bring back from Oslo?": "a wool sweater",
    "When did Di get engaged?": "31 December 2023",
}
_JUDGE = re.compile(r"Question: (.*)\n+Gold answer: (.*)\n+Generated answer: (.*)\n")
_ANSWER = re.compile(r"Question: (.*)\nAnswer:$")


def _fake_model(body: dict[str, Any]) -> Reply:
    prompt = str(body["messages"][-1]["content"])
    judged = _JUDGE.search(prompt)
    if judged:
        label = "CORRECT" if judged[2] == judged[3] else "WRONG"
        return Reply.json({"reasoning": "compared", "label": label})
    asked = _ANSWER.search(prompt)
    question = asked[1] if asked else ""
    return Reply.json({"answer": CANNED.get(question, "Not mentioned in the conversation.")})


@pytest.fixture
def _no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")


@pytest.mark.usefixtures("_no_proxy")
def test_llm_answer_metrics_from_canned_answers(
    settings: Settings, store: GraphStore, embedder: Embedder, tmp_path: Path
) -> None:
    prefix = _prefix()
    with FakeOpenAIServer(default=_fake_model) as server:
        llm_settings = settings.model_copy(
            update={
                "llm_model": "fake-model",
                "llm_base_url": server.base_url,
                "llm_cache": False,
                "llm_max_retries": 0,
                "cache_dir": tmp_path,
            }
        )
        memory = Memory(llm_settings, store=store, embedder=embedder)
        try:
            results = run_locomo(
                memory, LOCOMO, ["fulltext"], [2000], space_prefix=prefix, progress=False
            )
        finally:
            _forget(memory, prefix, LOCOMO_SPACES)
        prompts = [str(b["messages"][-1]["content"]) for b in server.bodies()]
    (result,) = results
    overall, by_category = result["overall"], result["by_category"]
    assert result["meta"]["llm"] == "fake-model"
    assert len(prompts) == 2 * 7  # one answer and one verdict per question
    assert not any(q in p for q in ADVERSARIAL for p in prompts)
    assert by_category["single-hop"]["f1"] == 1.0
    assert by_category["single-hop"]["judge"] == 1.0
    assert by_category["multi-hop"]["f1"] == 0.5  # "cello" covers one of two gold parts
    assert by_category["multi-hop"]["judge"] == 0.0
    assert overall["judge"] == round(6 / 7, 4)
    assert overall["f1"] == round(6.5 / 7, 4)
    assert overall["bleu1"] == round((6 + bleu1("cello", "cello, piano")) / 7, 4)


def test_a_budget_s_numbers_do_not_depend_on_the_other_budgets_of_the_run(
    memory: Memory,
) -> None:
    """CAST cuts its list to the budget and then reorders it (Algorithm 2), so packing a
    small budget from the largest budget's list would measure something else."""
    prefix = _prefix()
    try:
        both = run_locomo(memory, LOCOMO, ["cast"], [60, 2000], space_prefix=prefix, progress=False)
        alone = run_locomo(memory, LOCOMO, ["cast"], [60], space_prefix=prefix, progress=False)
    finally:
        _forget(memory, prefix, LOCOMO_SPACES)
    small = _find(both, "cast", 60)["overall"]
    for key, value in alone[0]["overall"].items():
        if key.endswith("_at_budget"):  # ranking metrics read the largest budget's list
            assert small[key] == value, key


@pytest.mark.usefixtures("_no_proxy")
def test_eval_reports_this_runs_llm_cost_and_what_the_spaces_cost_over_every_run(
    memory: Memory, settings: Settings, tmp_path: Path
) -> None:
    """`eval --json` charges this run's builds in meta.llm_usage and shows the spaces'
    build ledger in meta.build_cost; a second run over the same spaces builds nothing (0
    build calls this run) and still shows what building them cost; the text report too."""
    prefix = _prefix()
    with FakeOpenAIServer(default=_fake_model) as server:
        llm_settings = settings.model_copy(
            update={
                "llm_model": "fake-model",
                "llm_base_url": server.base_url,
                "llm_cache": False,
                "llm_max_retries": 0,
                "cache_dir": tmp_path,
            }
        )
        args = ["eval", "locomo", str(LOCOMO), "--strategy", "anchormem", "--budget", "300"]
        args += ["--space-prefix", prefix, "--no-progress"]
        try:
            first = _invoke(llm_settings, [*args, "--json"])
            assert first.exit_code == 0, first.output
            built = server.request_count()
            second = _invoke(llm_settings, [*args, "--json"])
            assert second.exit_code == 0, second.output
            text = _invoke(llm_settings, args)
        finally:
            _forget(memory, prefix, LOCOMO_SPACES)
    one, two = json.loads(first.stdout)["meta"], json.loads(second.stdout)["meta"]
    # the fake model answers builders with the wrong schema: every item falls back
    assert one["llm_usage"]["build.anchormem"]["calls"] > 0
    assert one["llm_usage"]["build.anchormem"]["fallbacks"] > 0
    assert (
        one["build_cost"]["anchormem"]["llm_calls"]
        == (one["llm_usage"]["build.anchormem"]["calls"])
    )
    assert one["build_cost"]["anchormem"]["builds"] == len(LOCOMO_SPACES)
    assert two["llm_usage"]["build.anchormem"]["calls"] == 0
    assert two["build_cost"] == one["build_cost"]
    answering = one["llm_usage"]["answer_and_judge"]["calls"]
    assert built == one["build_cost"]["anchormem"]["llm_calls"] + answering
    assert "Building anchormem for these spaces cost, over every run: 2 builds" in text.stdout


def test_longmemeval_reports_what_the_load_skipped_and_strict_refuses(
    memory: Memory, tmp_path: Path
) -> None:
    """An empty turn before the evidence and a later copy of a session: the haystack is
    evaluated with the evidence id unchanged, ``meta.input_skipped`` and the report count
    them; ``strict=True`` refuses the file before any space is written."""
    data = json.loads((FIXTURES / "longmemeval_tiny.json").read_text(encoding="utf-8"))
    item = data[0]
    item["haystack_sessions"][1].insert(0, {"role": "user", "content": "\u200b"})
    item["haystack_session_ids"].append("s-1")
    item["haystack_dates"].append("2023/05/30 (Tue) 08:00")
    item["haystack_sessions"].append(item["haystack_sessions"][0])
    path = tmp_path / "lme.json"
    path.write_text(json.dumps(data[:1]), encoding="utf-8")
    prefix = _prefix()
    with pytest.raises(InputError, match="text has no visible character"):
        run_longmemeval(memory, path, ["fulltext"], [2000], space_prefix=prefix, strict=True)
    assert memory.store.read("core.space_counts", space=f"{prefix}-q-001") == []
    try:
        (result,) = run_longmemeval(
            memory, path, ["fulltext"], [2000], space_prefix=prefix, progress=False
        )
    finally:
        _forget(memory, prefix, ("q-001",))
    skipped = result["meta"]["input_skipped"]
    assert (skipped["empty_turns"], skipped["repeated_sessions"], skipped["repeated_turns"]) == (
        1,
        1,
        2,
    )
    # the evidence is answer_s-2:1 now (the empty turn 0 counted): found at 2,000 tokens
    assert result["overall"]["evidence_recall_at_budget"] == 1.0
    assert "skipped 1 empty turn, 1 repeated session, 2 repeated turns" in render_markdown([result])
