"""The records of valid time: a statement as the graph holds it, what it claims, a pair of
statements that may be one value replacing another, and the verdict on such a pair."""

from __future__ import annotations

from datetime import date, datetime
from typing import Literal, TypeVar

from pydantic import BaseModel, ConfigDict

from graphmem.validity.values import Said, Value

_V = TypeVar("_V")

# same: the later statement says again what the earlier one said; update: the value
# changed over time (the earlier was true until the later); contradiction: the later
# corrects the earlier (it was never true); unrelated: both may hold.
Verdict = Literal["same", "update", "contradiction", "unrelated"]
SUPERSEDING: frozenset[str] = frozenset({"update", "contradiction"})
# Stored with each claim: a claim read by other rules than graphmem.validity.claim_reader's
# present ones is read again (raise it with any change to those rules).
CLAIM_VERSION = 15
# The value kinds that measure something: an amount (``num``), a time or score (``clock``),
# how often (``freq``).
MEASURED: frozenset[str] = frozenset({"num", "clock", "freq"})
# The extra label of a statement a later one replaced, and how the Browser fades it: its
# own label's rule gives the caption and size, this later rule only the colours.
SUPERSEDED = "Superseded"
FADED = {"color": "#EEEEEE", "border-color": "#C4C4C4", "text-color-internal": "#8C8C8C"}


class Statement(BaseModel):
    """One node of a statement label (``Design.statements``) with its earliest source turn:
    who said it, when, where in the conversation."""

    model_config = ConfigDict(frozen=True)

    label: str
    id: str
    text: str
    key: str = ""  # the design's own topic of it, where it has one (a PREMem fragment's key)
    speaker: str
    # None: the turn has no date (an undated file); such a statement gets no valid time
    # and takes part in no supersession (docs/validity.md, "Undated turns").
    said_at: datetime | None
    session_index: int
    turn_index: int
    turn: str  # the earliest source turn's id as the input gave it (``D1:3``)
    conversation: str

    @property
    def order(self) -> tuple[str, int, int, str]:
        return (self.conversation, self.session_index, self.turn_index, self.id)


class Claim(BaseModel):
    """What a statement says, normalised for comparison (``validity.claim_reader``): whose state
    (``subject``), the verb (``predicate``) and its object's key (``object``), the things it
    is about (``topics``), the values it gives (``values``, typed: ``validity.values``), those of
    them that measure what its verb tells (``measures``) or what its own clauses tell
    (``clause_measures``: "... and spent 5-6 hours on it"), and the cues that qualify it
    (``cues``: ``change``, ``plan``, ``negated``, ``question``, ``begun``, ``ended``, ...).
    ``valid_from`` is when it became true: the date its words resolve to, else the day it
    was said; None when neither gives a date (an undated turn)."""

    model_config = ConfigDict(frozen=True)

    subject: str
    predicate: str
    object: str = ""
    topics: tuple[str, ...]
    values: tuple[Value, ...]
    measures: tuple[Said, ...] = ()
    clause_measures: tuple[Said, ...] = ()
    cues: tuple[str, ...]
    valid_from: date | None

    def has(self, cue: str) -> bool:
        return cue in self.cues

    def said(self, kind: str) -> set[str]:
        """The texts of its :class:`~graphmem.validity.values.Said` values of ``kind``."""
        return {v.said for v in self.values if isinstance(v, Said) and v.kind == kind}

    def of_type(self, kind: type[_V]) -> list[_V]:
        """Its values of one type (``Count``, ``Span``, ...), in their order."""
        return [v for v in self.values if isinstance(v, kind)]


class Candidate(BaseModel):
    """Two statements of one label and one subject sharing a topic, ``earlier`` said before
    ``later`` in another session: the pairs the detector judges."""

    model_config = ConfigDict(frozen=True)

    earlier: Statement
    later: Statement
    earlier_claim: Claim
    later_claim: Claim
    shared: tuple[str, ...]


class Judgement(BaseModel):
    """The verdict on a candidate pair, why, and who gave it (``offline`` or ``llm:<model>``;
    ``fallback`` when the LLM gave none and the offline rules answered)."""

    model_config = ConfigDict(frozen=True)

    verdict: Verdict
    reason: str
    backend: str = "offline"
    fallback: bool = False
