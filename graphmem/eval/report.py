"""Markdown rendering of harness results: one section per budget, strategies as rows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from graphmem.eval.aggregate import COUNT_KEY, LATENCY_KEY
from graphmem.eval.metrics import CATEGORY_NAMES, PREMEM_LABELS
from graphmem.ingest.models import Skipped

_TITLES = {"locomo": "LoCoMo", "longmemeval": "LongMemEval", "chat": "Chat"}
_FIXED = {
    "evidence_recall_at_budget": "ER@B",
    "answer_token_recall_at_budget": "ATR@B",
    "memory_coverage_at_budget": "MCov@B",
    "context_compression_at_budget": "Compr@B",
    "f1": "F1",
    "bleu1": "BLEU-1",
    "judge": "J",
}
_PREFIXES = {
    "evidence_recall_at_": "ER@",
    "coverage_at_": "Cov@",
    "recall_any_at_": "Any@",
    "recall_all_at_": "All@",
}
_LEGEND = (
    "Metrics in percent. ER@k: share of gold evidence turns among the top-k ranked source "
    "turns; Cov@k: questions with all gold turns in the top k; ER@B: gold evidence turns "
    "inside the packed context; ATR@B: gold-answer tokens found in the rendered context; "
    "MCov@B: questions with every gold turn in the packed context (Amory's memory coverage); "
    "Compr@B: share of the conversation's tokens the context leaves out (Amory's context "
    "compression rate, mean over questions); "
    "Any@k / All@k: LongMemEval session recall; F1, BLEU-1, J (LLM judge): answers "
    "generated from the packed context. Latency: one retrieval call at the largest budget."
)


def short_name(metric: str) -> str:
    """Column header of a metric ("evidence_recall_at_10" -> "ER@10")."""
    if metric in _FIXED:
        return _FIXED[metric]
    for prefix, short in _PREFIXES.items():
        if metric.startswith(prefix):
            return short + metric[len(prefix) :]
    return metric


def _percent(value: Any) -> str:
    return "–" if value is None else f"{100 * float(value):.1f}"


def breakdown_key(result: dict[str, Any]) -> str:
    """The per-group key of a result ("by_category", "by_question_type")."""
    return next(key for key in result if key.startswith("by_"))


def metric_columns(summary: dict[str, Any]) -> list[str]:
    return [key for key in summary if key not in (LATENCY_KEY, COUNT_KEY)]


def table(rows: Sequence[tuple[str, dict[str, Any]]], metrics: Sequence[str]) -> list[str]:
    """A Markdown table: one row per (label, summary), metric columns then latency and n."""
    header = ["strategy", *(short_name(m) for m in metrics), "p50 ms", "p95 ms", "p99 ms", "n"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for label, summary in rows:
        latency = summary.get(LATENCY_KEY) or {}
        cells = [label, *(_percent(summary.get(m)) for m in metrics)]
        cells += [f"{latency[p]:.1f}" if p in latency else "–" for p in ("p50", "p95", "p99")]
        cells.append(str(summary.get(COUNT_KEY, 0)))
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def _meta_lines(meta: dict[str, Any]) -> list[str]:
    skipped = ", ".join(
        f"{key.replace('_', ' ')}: {value}"
        for key, value in meta.items()
        if key.startswith(("skipped", "ignored"))
    )
    # A LongMemEval item is one question over its own haystack of sessions.
    noun = "haystacks" if meta.get("dataset") == "longmemeval" else "conversations"
    lines = [
        f"{meta.get('n_conversations', 0)} {noun}, {meta.get('n_questions', 0)} "
        f"questions; {skipped}; LLM: {meta.get('llm') or 'none (answer metrics not computed)'}.",
        "",
        _LEGEND,
    ]
    skipped_input = meta.get("input_skipped")
    if skipped_input:
        lines += [
            "",
            f"Input (the evaluated conversations): {Skipped(**skipped_input).describe()}.",
        ]
    if meta.get("resumed"):
        lines += [
            "",
            f"{meta['resumed']} of the {noun} were evaluated by an earlier run "
            "with the same settings (resumed from its output directory).",
        ]
    failed = meta.get("failed") or []
    if failed:
        named = "; ".join(f"{f['conversation']} ({f['error']})" for f in failed)
        lines += [
            "",
            f"**{len(failed)} conversation(s) failed and are not in the scores**: {named}.",
        ]
    for part, spent in meta.get("llm_usage", {}).items():
        lines += [
            "",
            f"LLM {part}: {spent['calls']} calls, {spent['cache_hits']} cache hits, "
            f"{spent['prompt_tokens']} prompt + {spent['completion_tokens']} completion tokens, "
            f"{spent['seconds']} s, {spent['fallbacks']} fallbacks.",
        ]
    for design, spent in meta.get("build_cost", {}).items():
        lines += [
            "",
            f"Building {design} for these spaces cost, over every run: {spent['builds']} "
            f"builds, {spent['llm_calls']} LLM calls, {spent['llm_cache_hits']} cache hits, "
            f"{spent['llm_prompt_tokens']} prompt + {spent['llm_completion_tokens']} "
            f"completion tokens, {spent['llm_seconds']} s in the LLM, {spent['seconds']} s.",
        ]
    given = meta.get("settings", {}).get("designs", {})
    if given:
        shown = "; ".join(
            f"{design}: " + ", ".join(f"{k} = {v}" for k, v in values.items())
            for design, values in given.items()
        )
        lines += ["", f"Design settings given beside the presets: {shown}."]
    prepared = {k: v for k, v in meta.get("prepare_ms", {}).items() if v >= 1}
    if prepared:
        cost = ", ".join(f"{name} {ms / 1000:.1f} s" for name, ms in prepared.items())
        lines += ["", f"One-off preparation per space, not in the latencies (all spaces): {cost}."]
    return lines


def _group_title(group: str, dataset: str) -> str:
    """A LoCoMo category with the file's number and PREMem's label beside it (docs/eval.md);
    any other group (a user's own category of ``eval chat``) as named."""
    number = next((n for n, name in CATEGORY_NAMES.items() if name == group), None)
    if number is None or dataset != "locomo":
        return group
    return f"{group} (file category {number}; PREMem: {PREMEM_LABELS[number]})"


def render_markdown(results: Sequence[dict[str, Any]]) -> str:
    """The whole report: a header, then per budget the overall table and one table per
    breakdown group (category or question type)."""
    if not results:
        return "# Evaluation\n\nNo results.\n"
    meta = results[0]["meta"]
    lines = [f"# {_TITLES.get(meta.get('dataset', ''), 'Evaluation')} evaluation", ""]
    lines += _meta_lines(meta)
    key = breakdown_key(results[0])
    for budget in sorted({r["budget"] for r in results}):
        at_budget = [r for r in results if r["budget"] == budget]
        metrics = metric_columns(at_budget[0]["overall"])
        lines += ["", f"## Budget {budget} tokens", "", "### overall", ""]
        lines += table([(r["strategy"], r["overall"]) for r in at_budget], metrics)
        for group in at_budget[0][key]:
            lines += ["", f"### {_group_title(group, meta.get('dataset', ''))}", ""]
            lines += table([(r["strategy"], r[key][group]) for r in at_budget], metrics)
    return "\n".join(lines) + "\n"
