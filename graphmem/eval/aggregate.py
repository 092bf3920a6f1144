"""Pure helpers of the evaluation harness: per-question scores in, summaries out.

No I/O here. A question's score is a ``Scored`` record (its breakdown group, its retrieval
latency, and one value per metric, None where the metric is undefined for it). Summaries
average the defined values only (``metrics.mean_defined``) and report latency percentiles.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from graphmem.eval.metrics import mean_defined, percentiles

LATENCY_KEY = "latency_ms"
COUNT_KEY = "n"


@dataclass(frozen=True)
class Scored:
    """One question answered by one strategy at one budget."""

    group: str
    latency_ms: float
    values: Mapping[str, float | None]


def summarize(records: Sequence[Scored], metric_names: Sequence[str]) -> dict[str, Any]:
    """Mean of every metric over the records where it is defined (None when none is),
    latency percentiles (None without records) and the record count ``n``."""
    out: dict[str, Any] = {}
    for name in metric_names:
        mean, _ = mean_defined(record.values.get(name) for record in records)
        out[name] = None if mean is None else round(mean, 4)
    latencies = [record.latency_ms for record in records]
    out[LATENCY_KEY] = (
        {key: round(value, 2) for key, value in percentiles(latencies).items()}
        if latencies
        else None
    )
    out[COUNT_KEY] = len(records)
    return out


def aggregate(
    records: Sequence[Scored],
    metric_names: Sequence[str],
    groups: Iterable[str],
    apart: Collection[str] = (),
) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """The overall summary and one summary per group, in the order of ``groups`` (a group
    with no record still gets a summary, with ``n`` 0); groups not listed are appended.
    Groups in ``apart`` get their summary but stay out of the overall one (LongMemEval's
    abstention questions, which its retrieval evaluation leaves out)."""
    ordered = list(dict.fromkeys([*groups, *(r.group for r in records)]))
    by_group = {
        group: summarize([r for r in records if r.group == group], metric_names)
        for group in ordered
    }
    counted = [r for r in records if r.group not in apart]
    return summarize(counted, metric_names), by_group


def split_evidence(evidence: Sequence[str], known: Collection[str]) -> tuple[list[str], list[str]]:
    """Gold evidence ids that name a stored turn, and the ones that do not (annotation
    errors such as "D9:99" in a conversation without session 9), each in input order."""
    valid = [e for e in evidence if e in known]
    ignored = [e for e in evidence if e not in known]
    return valid, ignored


def ranked_sessions(ranked_turn_ids: Iterable[str], session_of: Mapping[str, str]) -> list[str]:
    """Session ids in the order their turns first appear in a ranked turn list; turns of
    unknown sessions are left out."""
    seen: dict[str, None] = {}
    for turn_id in ranked_turn_ids:
        session = session_of.get(turn_id)
        if session is not None:
            seen.setdefault(session, None)
    return list(seen)


def select_one_or_all(results: list[dict[str, Any]]) -> dict[str, Any] | list[dict[str, Any]]:
    """The CLI's JSON shape: one object for one strategy and budget, else the list."""
    return results[0] if len(results) == 1 else results
