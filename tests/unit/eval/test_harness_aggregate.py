"""Pure parts of the evaluation harness: aggregation, evidence checks, report, CLI parsing."""

from __future__ import annotations

import pytest

from graphmem.cli.eval_cmds import parse_strategies
from graphmem.errors import InputError
from graphmem.eval.aggregate import (
    Scored,
    aggregate,
    ranked_sessions,
    select_one_or_all,
    split_evidence,
    summarize,
)
from graphmem.eval.harness import (
    LLM_METRICS,
    Question,
    locomo_metric_names,
    locomo_rank_values,
    longmemeval_metric_names,
    longmemeval_rank_scorer,
)
from graphmem.eval.report import render_markdown, short_name
from graphmem.plugin.retriever import Hit, PassageRef, RetrievalResult
from graphmem.retrieval.registry import strategy_names

NAMES = ["recall", "token_recall"]


def _record(group: str, latency: float, recall: float | None, tokens: float | None) -> Scored:
    return Scored(group, latency, {"recall": recall, "token_recall": tokens})


def test_summarize_averages_defined_values_only() -> None:
    records = [_record("a", 10.0, 1.0, 0.5), _record("a", 20.0, None, 0.25)]
    summary = summarize(records, NAMES)
    assert summary["recall"] == 1.0  # the None is skipped, not counted as 0
    assert summary["token_recall"] == 0.375
    assert summary["n"] == 2
    assert summary["latency_ms"] == {"p50": 15.0, "p95": 19.5, "p99": 19.9}


def test_summarize_of_nothing_is_none_not_zero() -> None:
    summary = summarize([_record("a", 5.0, None, None)], NAMES)
    assert summary["recall"] is None and summary["token_recall"] is None
    empty = summarize([], NAMES)
    assert empty == {"recall": None, "token_recall": None, "latency_ms": None, "n": 0}


def test_aggregate_keeps_group_order_and_empty_groups() -> None:
    records = [
        _record("temporal", 1.0, 0.0, 1.0),
        _record("single-hop", 2.0, 1.0, 1.0),
        _record("single-hop", 3.0, 1.0, 0.0),
        _record("other", 4.0, 0.5, None),
    ]
    overall, groups = aggregate(records, NAMES, ["multi-hop", "temporal", "single-hop"])
    assert list(groups) == ["multi-hop", "temporal", "single-hop", "other"]
    assert groups["multi-hop"]["n"] == 0 and groups["multi-hop"]["recall"] is None
    assert groups["single-hop"]["recall"] == 1.0
    assert groups["single-hop"]["token_recall"] == 0.5
    assert overall["n"] == 4
    assert overall["recall"] == 0.625
    assert overall["token_recall"] == round(2 / 3, 4)


def test_split_evidence_keeps_order_and_reports_unknown_ids() -> None:
    valid, ignored = split_evidence(["D2:1", "D9:99", "D1:3", "D7:7"], {"D1:3", "D2:1"})
    assert valid == ["D2:1", "D1:3"]
    assert ignored == ["D9:99", "D7:7"]


def test_ranked_sessions_first_appearance_and_unknown_turns() -> None:
    session_of = {"a:0": "a", "a:1": "a", "b:0": "b", "c:2": "c"}
    assert ranked_sessions(["b:0", "a:1", "zz:0", "b:0", "a:0", "c:2"], session_of) == [
        "b",
        "a",
        "c",
    ]


def _result(*source_ids: str) -> RetrievalResult:
    hits = [
        Hit(
            node_id=sid,
            label="Passage",
            score=1.0,
            strategy="test",
            passages=[PassageRef(id=sid, source_id=sid, speaker="u", text="t")],
        )
        for sid in source_ids
    ]
    return RetrievalResult(query="q", strategy="test", hits=hits)


def test_locomo_rank_values_at_every_k() -> None:
    ranked = _result(*[f"D1:{i}" for i in range(1, 30)])
    question = Question("q", "a", 1, "multi-hop", ["D1:3", "D1:12"])
    values = locomo_rank_values(question, ranked)
    assert values["evidence_recall_at_5"] == 0.5
    assert values["coverage_at_5"] == 0.0
    assert values["evidence_recall_at_20"] == 1.0
    assert values["coverage_at_10"] == 0.0 and values["coverage_at_20"] == 1.0
    no_evidence = locomo_rank_values(Question("q", "a", 4, "single-hop", []), ranked)
    assert set(no_evidence.values()) == {None}


def test_longmemeval_scorer_maps_turns_to_sessions() -> None:
    session_of = {f"s{i}:{j}": f"s{i}" for i in range(8) for j in range(3)}
    ranked = _result("s0:0", "s0:1", "s1:0", "s2:2", "s3:0", "s4:1", "s5:0", "s6:1")
    question = Question("q", "a", None, "multi-session", ["s5:0"], ["s1", "s5"])
    values = longmemeval_rank_scorer(session_of)(question, ranked)
    # sessions in order: s0 s1 s2 s3 s4 | s5 s6
    assert values["recall_any_at_5"] == 1.0
    assert values["recall_all_at_5"] == 0.0
    assert values["recall_all_at_10"] == 1.0


def test_metric_names_have_llm_keys_only_with_an_llm() -> None:
    for names in (locomo_metric_names, longmemeval_metric_names):
        assert not set(LLM_METRICS) & set(names(False))
        assert names(True)[-3:] == list(LLM_METRICS)
    assert locomo_metric_names(False)[:3] == [
        "evidence_recall_at_5",
        "evidence_recall_at_10",
        "evidence_recall_at_20",
    ]


def test_select_one_or_all() -> None:
    one = [{"strategy": "dense"}]
    assert select_one_or_all(one) == {"strategy": "dense"}
    two = [{"strategy": "dense"}, {"strategy": "hybrid"}]
    assert select_one_or_all(two) == two


def test_parse_strategies_repeat_comma_and_all() -> None:
    assert parse_strategies(["dense, fulltext", "dense", "hybrid"]) == [
        "dense",
        "fulltext",
        "hybrid",
    ]
    assert parse_strategies(["all"]) == strategy_names()
    # the caller's mistake, as on every surface (graphmem.serving.limits): an InputError
    with pytest.raises(InputError, match="unknown strategy 'bm25'"):
        parse_strategies(["dense,bm25"])
    with pytest.raises(InputError, match="no strategy"):
        parse_strategies([" , "])


def test_report_renders_one_section_per_budget() -> None:
    summary = {"evidence_recall_at_5": 0.5, "judge": None, "latency_ms": {"p50": 1.0}, "n": 2}
    results = [
        {
            "strategy": strategy,
            "budget": budget,
            "overall": summary,
            "by_category": {"multi-hop": {**summary, "n": 1}},
            "meta": {"dataset": "locomo", "n_conversations": 1, "n_questions": 2, "llm": None},
        }
        for strategy in ("dense", "hybrid")
        for budget in (1000, 500)
    ]
    text = render_markdown(results)
    assert text.index("## Budget 500 tokens") < text.index("## Budget 1000 tokens")
    assert "| strategy | ER@5 | J | p50 ms | p95 ms | p99 ms | n |" in text
    assert "| hybrid | 50.0 | – | 1.0 | – | – | 2 |" in text
    assert text.count("### multi-hop") == 2
    assert short_name("answer_token_recall_at_budget") == "ATR@B"
    assert "given beside the presets" not in text  # none given
    given = {"designs": {"graphmem": {"family": "{}"}}, "process": {}}
    results[0]["meta"]["settings"] = given
    assert "Design settings given beside the presets: graphmem: family = {}." in (
        render_markdown(results)
    )
    assert short_name("recall_all_at_10") == "All@10"
