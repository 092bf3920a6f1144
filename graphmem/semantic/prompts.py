"""The LLM side of the semantic layer: the OpenIE prompt that turns one conversation turn
into entities and (subject, relation, object, time) quadruples, and the schema its answer
must validate against. Bump ``PROMPT_VERSION`` whenever the prompt changes (it is stored
on every fact the LLM backend writes)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from graphmem.llm import Message

PROMPT_VERSION = "semantic-1"


class QuadrupleOut(BaseModel):
    subject: str
    relation: str
    object: str
    time: str | None = Field(default=None, description="when the fact holds, resolved to a date")


class QuadrupleExtraction(BaseModel):
    entities: list[str] = Field(default_factory=list)
    quadruples: list[QuadrupleOut] = Field(default_factory=list)


QUADRUPLE_SYSTEM = """You are an open information extraction system for conversations.
From one conversation turn, extract:
1. "entities": every named entity and salient noun phrase (people, places, organisations,
   objects, activities, events). Replace pronouns with the names they refer to; the speaker
   is the person saying "I".
2. "quadruples": facts as (subject, relation, object, time). Subject and object should be
   entities from your list; the relation is a short verb phrase. "time" is when the fact
   happened or holds, resolved against the turn's date to an absolute date ("2023-05-07",
   "2023-05", "2022") or a bound ("Before 2023-05-08"); null when the turn does not say.
Extract only what the turn states. Reply with strict JSON, no markdown."""


def quadruple_messages(turn: str) -> list[Message]:
    return [
        Message(role="system", content=QUADRUPLE_SYSTEM),
        Message(role="user", content=f"Conversation turn:\n{turn}"),
    ]
