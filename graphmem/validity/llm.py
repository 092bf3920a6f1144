"""The LLM's verdict on a candidate pair: one structured call per pair (same, update,
contradiction or unrelated), the offline rules for a pair the LLM gives up on.

Calls go through the Memory's client, so they are cached (the same pair is never asked
twice) and counted; a pair answered offline in an LLM run carries ``fallback``.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, Field

from graphmem.llm import Message, StructuredLLM, map_attempts
from graphmem.validity.detect import judge as offline_judge
from graphmem.validity.types import Candidate, Judgement, Statement, Verdict

_SYSTEM = """You keep a memory of what people said in a conversation. Two statements \
from it follow, the earlier one first, each with the day it was said and who said it. \
Decide how the later statement relates to the earlier one:
- "same": it says the same thing again;
- "update": the value changed over time: the earlier was true, the later is true now \
(a new job, a new address, a better time, a habit stopped or changed);
- "contradiction": the later says the earlier was never true (a correction);
- "unrelated": both can be true at once, or they are about different things.
A plan, a wish or a question replaces nothing. Answer with the verdict and a short reason."""


class PairVerdict(BaseModel):
    """The model's answer for one pair."""

    verdict: Verdict
    reason: str = Field(default="", max_length=300)


def _said(statement: Statement) -> str:
    said = statement.said_at.date().isoformat() if statement.said_at else "date unknown"
    return f"[{said}] {statement.speaker}: {statement.text}"


def messages(pair: Candidate) -> list[Message]:
    """The request for one pair."""
    user = f"Earlier: {_said(pair.earlier)}\nLater: {_said(pair.later)}"
    return [Message(role="system", content=_SYSTEM), Message(role="user", content=user)]


class LLMJudge:
    """``judge(pairs)`` for ``validity.update.refresh``: the LLM's verdict per pair, the
    offline one where it gives up."""

    def __init__(self, llm: StructuredLLM) -> None:
        self._llm = llm

    def __call__(self, pairs: Sequence[Candidate]) -> list[Judgement]:
        backend = f"llm:{self._llm.model_name}"

        def ask(pair: Candidate) -> Judgement:
            out = self._llm.generate(messages(pair), PairVerdict)
            return Judgement(verdict=out.verdict, reason=out.reason.strip(), backend=backend)

        outcomes = map_attempts(self._llm, ask, offline_judge, pairs, what="validity pair")
        return [
            o.value.model_copy(update={"fallback": True}) if o.fallback else o.value
            for o in outcomes
        ]
