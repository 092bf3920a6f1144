"""The LLM side of SEEM's episodic layer: prompts modelled on the papers and the pydantic
schemas the answers must validate against. Bump ``PROMPT_VERSION`` whenever a prompt changes (it is
stored on every node the LLM backend writes)."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, Field

from graphmem.llm import Message

# 2: turns rendered by graphmem.ingest.render; 3: the paper's fusion prompt
PROMPT_VERSION = "seem-3"


# --- schemas ---------------------------------------------------------------------------
class EventSlots(BaseModel):
    participants: list[str] = Field(default_factory=list)
    action: str
    time: str | None = None
    location: str | None = None
    causality: str | None = Field(default=None, description="the reason or purpose, if stated")
    manner: str | None = Field(default=None, description="the method or means, if stated")


class FrameOut(BaseModel):
    summary: str
    events: list[EventSlots] = Field(default_factory=list)


class SameEventVerdict(BaseModel):
    same_event: bool
    reason: str = ""


# --- prompts -----------------------------------------------------------------------------
FRAME_SYSTEM = """You are an expert at extracting episodic memories from conversation turns.
Analyse the conversation turn (it may contain the time, the speaker, image descriptions in
the form [shares a photo of <description>], and the text), identify the distinct events it
mentions and extract for each event (null when not reliably determined):
- participants: the actors, pronouns replaced by names (the speaker is "I").
- action: the substantive action, including its actor: "Subject verb object".
- time: the event's actual time (not only the conversation time), resolved against the
  turn's date; for continuous events give the range.
- location, causality (reason or purpose), manner (method or means): only when stated.
Guidelines: an event is an occurrence with a clear subject, action and temporal context;
resolve coreference; do not extract the act of speaking as an event.
Also write "summary": 1-3 concise sentences in the third person, with resolved dates.
Reply with strict JSON, no markdown."""

JUDGE_SYSTEM = """You decide whether two episodic memories describe the SAME event.
Be conservative:
- Answer true only when both clearly describe the exact same occurrence (for example a
  question about an event and the answer describing it, or two turns continuing the same
  episode).
- A plan and its later execution are different events: false.
- Events at different times are different events: false.
- Merely sharing a person or a topic is not enough: false.
Reply with strict JSON: {"same_event": true|false, "reason": "..."}."""

# SEEM, appendix C, Prompt 2 (Figure 6), word for word; the JSON shape our schema needs
# follows it in FUSE_FORMAT.
FUSE_SYSTEM = """You are an expert at integrating episodic memories. Your task is to combine two episodic memories into a single, comprehensive memory that preserves all important information from both memories.

IMPORTANT: Event Integration Strategy

- **LESS:** When events from both memories describe the same occurrence (merge).
- **EQUAL:** When all events are distinct and unrelated.
- **GREATER:** When integration reveals new event relationships.

Guidelines:

1. **Conservative Merge:** Only merge events that clearly describe the EXACT SAME occurrence. If events are part of a sequence (Plan → Execute), DO NOT merge them.
2. **Entity Alignment:** Unify participant names.
3. **Conflict Resolution:** Highest Priority: Evidence found in “Original Passages”. Use these original sources as the primary reference to cross-verify all episodic attributes and mitigate error propagation.
4. **Summary Synthesis:** Do NOT simply concatenate. Rewrite a single, cohesive narrative describing progression or causal relationships.

CRITICAL: Time Information Handling Rules

1. **Same Event, Different Time:** If one is more specific, prefer it; if complementary, combine into a range.
2. **Sequential Events:** Events at different times **MUST** be kept separate.
3. **Temporal Ordering:** Arrange events in chronological order.

Output Format: Strict JSON ONLY."""  # noqa: E501

FUSE_FORMAT = (
    'JSON fields: {"summary": "...", "events": [{"participants": [...], "action": "...", '
    '"time": ..., "location": ..., "causality": ..., "manner": ...}]}'
)


def frame_messages(turns: Sequence[str]) -> list[Message]:
    body = "\n\n".join(turns)
    return [
        Message(role="system", content=FRAME_SYSTEM),
        Message(role="user", content=f"Conversation turn(s):\n{body}"),
    ]


def judge_messages(new: str, old: str) -> list[Message]:
    return [
        Message(role="system", content=JUDGE_SYSTEM),
        Message(role="user", content=f"Memory A (existing):\n{old}\n\nMemory B (new):\n{new}"),
    ]


def fuse_messages(old: str, new: str, passages: Sequence[str]) -> list[Message]:
    sources = "\n".join(f"- {p}" for p in passages)
    return [
        Message(role="system", content=FUSE_SYSTEM),
        Message(
            role="user",
            content=f"Memory A:\n{old}\n\nMemory B:\n{new}\n\nOriginal Passages:\n{sources}"
            f"\n\n{FUSE_FORMAT}",
        ),
    ]
