"""Steps 1 and 2 with an LLM: the paper's prompts (``prompts.py``), structured output.

Step 1 is one call per session (the paper's LLM_extract(S_i)); Step 2 one call per connected
pair (LLM_reason(M_p, M_c)). Calls of one batch go out together, ``llm.concurrency`` at a
time. An item the LLM gives up on (invalid after repairs, rejected, timed out), or whose
answer maps to nothing usable (every item names an unknown message, or an inference type
outside the five), takes the offline path for that session or pair only
(``graphmem.llm.map_attempts``), and what it yields is marked as a fallback.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from graphmem.designs.premem import dates
from graphmem.designs.premem.extract import OfflineExtractor, SessionTurns
from graphmem.designs.premem.models import PATTERN_LABELS, Category, Fragment, Insight, Pattern
from graphmem.designs.premem.prompts import (
    ExtendedInsights,
    ExtractedMemories,
    MemoryItem,
    step1_prompt,
    step2_prompt,
)
from graphmem.designs.premem.reasoning import reason_offline
from graphmem.llm import Message, StructuredLLM, map_attempts
from graphmem.plugin import LLMItemError


def _message_line(job: SessionTurns, index: int) -> str:
    turn = job.session.turns[index]
    when = turn.timestamp or job.session.started_at
    stamp = f"({when:%Y-%m-%d %A}) " if when else ""
    photo = f" [shares a photo of {turn.caption}]" if turn.caption else ""
    return f"[{turn.source_id}] {stamp}{turn.speaker}: {turn.text}{photo}"


def render_session(job: SessionTurns) -> str:
    """The session as the paper's Step 1 sees it: ``[message_id] (date weekday) text``."""
    return "\n".join(_message_line(job, i) for i in range(len(job.session.turns)))


def render_fragments(fragments: Sequence[Fragment]) -> str:
    """``[key, date]: value`` lines, as in the paper's Step 2 example."""
    return "\n".join(f"[{f.key}, {f.date}]: {f.value}" for f in fragments)


def pattern_of(inference_type: str) -> Pattern | None:
    """One of the five patterns from however the model spelled it, None if none."""
    low = inference_type.strip().lower()
    for pattern, label in PATTERN_LABELS.items():
        if any(low.startswith(part) for part in label.split("/")):
            return pattern
    return None


class LLMExtractor:
    """Step 1: the paper's extraction prompt, one call per session; a session the LLM gives
    up on is extracted by the offline rules."""

    def __init__(self, llm: StructuredLLM, assistant: tuple[str, str] | None = None) -> None:
        self._llm = llm
        self._assistant = assistant  # (user, assistant) of a user-assistant conversation
        self._skip = frozenset(assistant[1:] if assistant else ())

    def extract(self, sessions: Sequence[SessionTurns]) -> list[list[Fragment]]:
        outcomes = map_attempts(
            self._llm,
            self._extract_session,
            lambda job: OfflineExtractor(self._skip).extract([job])[0],
            sessions,
            what="premem fragments",
        )
        return [[replace(f, fallback=o.fallback) for f in o.value] for o in outcomes]

    def _extract_session(self, job: SessionTurns) -> list[Fragment]:
        prompt = step1_prompt(render_session(job), self._assistant)
        answer = self._llm.generate([Message(role="user", content=prompt)], ExtractedMemories)
        return self._fragments(job, answer)

    def _fragments(self, job: SessionTurns, answer: ExtractedMemories) -> list[Fragment]:
        """The answer's items as fragments of the turns they name; an answer with items of
        which none names a message of the session is garbage (``LLMItemError``)."""
        turns = zip(job.session.turns, job.passage_ids, strict=True)
        by_id = {t.source_id: (t, pid) for t, pid in turns}
        found: dict[str, Fragment] = {}
        lists: tuple[tuple[Category, list[MemoryItem]], ...] = (
            ("factual", answer.factual),
            ("experiential", answer.experiential),
            ("subjective", answer.subjective),
        )
        for category, items in lists:
            for item in items:
                hit = by_id.get(item.message_id.strip())
                if hit is None or not item.value.strip():
                    continue
                turn, pid = hit
                fragment = Fragment(
                    category=category,
                    key=item.key.strip(),
                    value=item.value.strip(),
                    date=item.date.strip(),
                    speaker=turn.speaker,
                    passage_ids=(pid,),
                    order=(job.session.index, turn.index),
                )
                found.setdefault(fragment.id, fragment)
        if not found and any(items for _, items in lists):
            raise LLMItemError("premem extraction: no item names a message of the session")
        return sorted(found.values(), key=lambda f: f.order)


Pair = tuple[Sequence[Fragment], Sequence[Fragment], tuple[str, str]]


class LLMReasoner:
    """Step 2: the paper's pattern prompt, one call per connected pair. The prompt names no
    fragment, so each insight cites the turns beneath both clusters. A pair the LLM gives up
    on is reasoned over by the offline rules (``max_dates`` as offline)."""

    def __init__(self, llm: StructuredLLM, max_dates: int) -> None:
        self._llm = llm
        self._max_dates = max_dates

    def reason(self, pairs: Sequence[Pair]) -> list[list[Insight]]:
        outcomes = map_attempts(
            self._llm,
            self._reason_pair,
            lambda pair: reason_offline(*pair, self._max_dates),
            pairs,
            what="premem reasoning",
        )
        return [[replace(i, fallback=o.fallback) for i in o.value] for o in outcomes]

    def _reason_pair(self, pair: Pair) -> list[Insight]:
        """The answer's insights; one whose every insight has an inference type outside
        the five (or no value) is garbage (``LLMItemError``)."""
        p, c, ids = pair
        prompt = step2_prompt(render_fragments([*p, *c]))
        answer = self._llm.generate([Message(role="user", content=prompt)], ExtendedInsights)
        passages = tuple(dict.fromkeys(pid for f in (*p, *c) for pid in f.passage_ids))
        insights: dict[str, Insight] = {}
        for item in answer.extended_insight:
            pattern = pattern_of(item.inference_type)
            if pattern is None or not item.value.strip():
                continue
            insight = Insight(
                pattern=pattern,
                key=item.key.strip(),
                value=item.value.strip(),
                date=item.date.strip() or dates.date_range([f.date for f in (*p, *c)]),
                earlier=ids[0],
                later=ids[1],
                passage_ids=passages,
            )
            insights.setdefault(insight.id, insight)
        if not insights and answer.extended_insight:
            raise LLMItemError("premem reasoning: no insight of the five inference types")
        return list(insights.values())
