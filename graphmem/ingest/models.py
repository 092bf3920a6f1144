"""Format-neutral conversation models: every input format is parsed into these.

All models are frozen so a loaded dataset can be shared between stages without copies.
Datetimes are naive: the local wall-clock time of the conversation (see formats.py).
"""

from __future__ import annotations

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


class Dataset(_Frozen):
    """Loaded conversations; `qa` has one (possibly empty) list per conversation id."""

    conversations: list[ConversationIn]
    qa: dict[str, list[QAItem]]

    def turn_count(self) -> int:
        return sum(len(s.turns) for c in self.conversations for s in c.sessions)
