"""Steps 1 and 2 with an LLM: the paper's prompts (``prompts.py``), structured output.

Step 1 is one call per session (the paper's LLM_extract(S_i)); Step 2 one call per connected
pair (LLM_reason(M_p, M_c)). Calls of one batch go out together (``generate_many``).
"""

from __future__ import annotations

from collections.abc import Sequence

from graphmem.designs.premem import dates
from graphmem.designs.premem.extract import SessionTurns
from graphmem.designs.premem.models import PATTERN_LABELS, Category, Fragment, Insight, Pattern
from graphmem.designs.premem.prompts import (
    ExtendedInsights,
    ExtractedMemories,
    MemoryItem,
    step1_prompt,
    step2_prompt,
)
from graphmem.llm import Message, StructuredLLM


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
    """Step 1: the paper's extraction prompt, one call per session."""

    def __init__(self, llm: StructuredLLM) -> None:
        self._llm = llm
        self.dropped = 0  # items naming a message id the session does not have

    def extract(self, sessions: Sequence[SessionTurns]) -> list[list[Fragment]]:
        requests = [
            ([Message(role="user", content=step1_prompt(render_session(job)))], ExtractedMemories)
            for job in sessions
        ]
        answers = self._llm.generate_many(requests)
        return [self._fragments(job, a) for job, a in zip(sessions, answers, strict=True)]

    def _fragments(self, job: SessionTurns, answer: ExtractedMemories) -> list[Fragment]:
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
                    self.dropped += 1
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
        return sorted(found.values(), key=lambda f: f.order)


class LLMReasoner:
    """Step 2: the paper's pattern prompt, one call per connected pair. The prompt names no
    fragment, so each insight cites the turns beneath both clusters."""

    def __init__(self, llm: StructuredLLM) -> None:
        self._llm = llm
        self.dropped = 0  # insights of an inference type outside the five

    def reason(
        self, pairs: Sequence[tuple[Sequence[Fragment], Sequence[Fragment], tuple[str, str]]]
    ) -> list[list[Insight]]:
        requests = [
            (
                [Message(role="user", content=step2_prompt(render_fragments([*p, *c])))],
                ExtendedInsights,
            )
            for p, c, _ in pairs
        ]
        answers = self._llm.generate_many(requests)
        out: list[list[Insight]] = []
        for (p, c, ids), answer in zip(pairs, answers, strict=True):
            passages = tuple(dict.fromkeys(pid for f in (*p, *c) for pid in f.passage_ids))
            insights: dict[str, Insight] = {}
            for item in answer.extended_insight:
                pattern = pattern_of(item.inference_type)
                if pattern is None or not item.value.strip():
                    self.dropped += 1
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
            out.append(list(insights.values()))
        return out
