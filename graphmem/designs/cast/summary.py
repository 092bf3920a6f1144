"""The scene summary phi(s) (paper 3.3.2, Algorithm 1 line 18).

Offline (ours): extractive. The scene's central messages are ranked by how close their
view's topic is to the scene's topic centroid (filler turns such as "haha nice!" last),
taken in that order while they fit ``summary_tokens`` encoder tokens, and shown in
conversation order after a header naming the character, the other participants and the
date: what the encoder sees fits the 128-token inputs it was trained on.

LLM backend: the paper publishes no prompt; ``SUMMARY_SYSTEM`` is ours (versioned by
``config.PROMPT_VERSION``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from pydantic import BaseModel, Field

from graphmem.llm import Message

SUMMARY_SYSTEM = """\
You summarise one scene of a conversation for a memory system. A scene is a run of \
messages close in time, place and topic, seen from one character's point of view.
Write 1-3 sentences in the third person that say who did or said what, when and where, \
using the names given (never "I" or "you"). Keep every name, place, date, number and title \
that appears; resolve relative dates ("yesterday", "last week") against the date given. \
Do not add anything the messages do not say.
Answer with JSON: {"summary": "..."}."""


class SceneSummary(BaseModel):
    summary: str = Field(min_length=1)


@dataclass(frozen=True)
class SummaryLine:
    """A scene's central message as the summary may quote it."""

    line: str  # "Speaker: text [shares a photo of ...]"
    tokens: int
    closeness: float  # cosine of its view's topic to the scene centroid
    filler: bool
    order: tuple[int, int]  # (session index, turn index)


def header(owner: str, others: Sequence[str], when: str | None, place: str | None) -> str:
    company = f" with {', '.join(others)}" if others else ""
    where = f" at {place}" if place else ""
    date = f" ({when})" if when else ""
    return f"{owner}{company}{where}{date}:"


def extractive(head: str, head_tokens: int, lines: Sequence[SummaryLine], cap: int) -> str:
    """The header and the most central lines that fit ``cap`` tokens, in conversation
    order; at least one line even when it alone exceeds the cap."""
    room = cap - head_tokens
    ranked = sorted(lines, key=lambda x: (x.filler, -x.closeness, x.order))
    chosen: list[SummaryLine] = []
    for item in ranked:
        if item.tokens <= room or not chosen:
            chosen.append(item)
            room -= item.tokens
    chosen.sort(key=lambda x: x.order)
    return " ".join([head, *(c.line for c in chosen)])


def closeness(topics: np.ndarray, centroid: np.ndarray) -> list[float]:
    """Cosine of each (normalised) view topic to the centroid."""
    norm = float(np.linalg.norm(centroid)) or 1.0
    return [float(x) for x in topics.astype(np.float64) @ (centroid / norm)]


def llm_messages(head: str, lines: Sequence[str], max_lines: int = 80) -> list[Message]:
    """The summarising request for one scene (its first ``max_lines`` messages)."""
    body = "\n".join(lines[:max_lines])
    return [
        Message(role="system", content=SUMMARY_SYSTEM),
        Message(role="user", content=f"Scene: {head}\n{body}"),
    ]
