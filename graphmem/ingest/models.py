"""Format-neutral conversation models: every input format is parsed into these.

All models are frozen so a loaded dataset can be shared between stages without copies.
Datetimes are naive: the local wall-clock time of the conversation (see formats.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Turn(_Frozen):
    """One utterance.

    `source_id` is the id the input file uses (LoCoMo `dia_id`, LongMemEval
    `<session id>:<turn index>`, JSONL `id`); evidence lists refer to it.
    `index` is the 0-based position of the turn inside its session.
    """

    source_id: str
    speaker: str
    text: str
    timestamp: datetime | None
    caption: str | None = None
    image_query: str | None = None
    index: int


class SessionIn(_Frozen):
    """One session in conversation order.

    `index` is the 0-based position in `ConversationIn.sessions`; `source_id` is the
    session's name in the input (LoCoMo `session_3`, LongMemEval haystack session id,
    JSONL `session`), which LongMemEval's `answer_session_ids` refer to.
    `source_date` keeps the raw date string the start time was parsed from.
    """

    index: int
    source_id: str
    started_at: datetime | None
    turns: list[Turn]
    source_date: str | None = None


class ConversationIn(_Frozen):
    conversation_id: str
    speakers: list[str]
    sessions: list[SessionIn]
    meta: dict[str, Any]


class QAItem(_Frozen):
    """A benchmark question.

    `evidence` holds normalised turn source ids; `raw_evidence` the strings as found in
    the file, so annotation errors stay inspectable. `answer` is None for LoCoMo's
    adversarial category 5, which has no gold answer.
    """

    question: str
    answer: str | None
    category: int | None
    evidence: list[str]
    raw_evidence: list[str]
    question_id: str | None = None
    answer_session_ids: list[str] = []


# How many places of skipped input a load reports (the counts are complete).
MAX_SKIP_PLACES = 5


# The nouns an importer counts what it leaves out in ("media-only messages").
_COUNTED_NOUN = re.compile(r"\b(message|block|conversation|event)s\b")


def _counted(kind: str, n: int) -> str:
    """``kind`` as said of ``n`` things: "1 hidden message", "2 hidden messages"."""
    return _COUNTED_NOUN.sub(r"\1", kind, count=1) if n == 1 else kind


class Skipped(_Frozen):
    """What a load left out of the file (none with ``strict``, which refuses each instead):
    turns with no visible text (``empty_turns``); sessions whose id repeats an earlier
    session of the conversation with the same turns (``repeated_sessions``, LongMemEval's
    haystack session ids); turns left out as repeats, those of the repeated sessions
    included (``repeated_turns``; LoCoMo ``dia_id`` and JSONL ``id`` repeats with the same
    content). ``places``: the first few, as ``"<record>: <why>"``."""

    empty_turns: int = 0
    repeated_sessions: int = 0
    repeated_turns: int = 0
    places: list[str] = []
    # What an app's export holds that is not a conversation's words, left out on purpose
    # and counted by kind ("system messages": 3); never refused, strict or not.
    left_out: dict[str, int] = {}
    # What an importer decided that the user should know ("no date says whether day or month
    # comes first; read day first").
    notes: list[str] = []
    # Each conversation's own, for those with a skip: an evaluation of some conversations of
    # a file reports theirs (``only``).
    by_conversation: dict[str, Skipped] = {}

    @classmethod
    def merged(cls, parts: dict[str, Skipped]) -> Skipped:
        """The sum of per-conversation parts (in file order), which it keeps."""
        return cls(
            empty_turns=sum(p.empty_turns for p in parts.values()),
            repeated_sessions=sum(p.repeated_sessions for p in parts.values()),
            repeated_turns=sum(p.repeated_turns for p in parts.values()),
            places=[place for p in parts.values() for place in p.places][:MAX_SKIP_PLACES],
            by_conversation=parts,
        )

    def only(self, conversations: Iterable[str]) -> Skipped:
        """What was skipped from these conversations."""
        wanted = set(conversations)
        return Skipped.merged(
            {cid: part for cid, part in self.by_conversation.items() if cid in wanted}
        )

    @property
    def total(self) -> int:
        return self.empty_turns + self.repeated_sessions + self.repeated_turns

    def describe(self) -> str:
        """One line for a report: the counts, then the first places; then what an
        export's importer left out."""
        left = ", ".join(f"{n} {_counted(kind, n)}" for kind, n in self.left_out.items())
        if not self.total:
            return f"left out {left}" if left else "nothing skipped"
        if left:
            return f"{self._skips()}; left out {left}"
        return self._skips()

    def _skips(self) -> str:
        counts = ", ".join(
            f"{n} {what}{'' if n == 1 else 's'}"
            for n, what in (
                (self.empty_turns, "empty turn"),
                (self.repeated_sessions, "repeated session"),
                (self.repeated_turns, "repeated turn"),
            )
        )
        return f"skipped {counts} (first: {'; '.join(self.places)})"


class Dataset(_Frozen):
    """Loaded conversations; `qa` has one (possibly empty) list per conversation id;
    `skipped`: what the load left out."""

    conversations: list[ConversationIn]
    qa: dict[str, list[QAItem]]
    skipped: Skipped = Skipped()

    def turn_count(self) -> int:
        return sum(len(s.turns) for c in self.conversations for s in c.sessions)
