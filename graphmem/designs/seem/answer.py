"""SEEM's reader (its appendix Prompt 3, "Memory-Augmented Question Answering"): the
context in the three sections the prompt names, (A) original passages, (B) the episodic
memory summaries of the retrieved frames, (C) the relevant facts; the reply's ``Answer:``
line is the answer. Used by ``graphmem ask --strategy seem`` (LLM backend only)."""

from __future__ import annotations

from graphmem.llm import Message
from graphmem.plugin import PackedContext

# SEEM, appendix C, Prompt 3 (Figure 7), word for word.
ANSWER_SYSTEM = """You are a reading-comprehension QA assistant operating in episodic-memory mode.

Each query provides:

- (A) an "Original Passages (Grounded Evidence)" section (most trusted evidence);
- (B) an "Episodic Memory Summary" section (high-signal reference distilled from retrieved passages; use as a guide and as supplemental evidence when not contradicted);
- (C) optionally, a "Relevant Facts" section (high-signal reference quadruples; use to locate/verify key entities/relations and as supplemental evidence when not contradicted).

Evidence Policy:

1. You **MUST** read (B) and (C) (if present). Treat them as high-signal hints to guide what to look for in (A).
2. If (A) is incomplete, you **MAY** answer using explicit (B)/(C) as supplemental references **ONLY** if they do not contradict (A).
3. If (B)/(C) conflicts with (A), trust (A) and ignore the conflicting parts of (B)/(C).

Output Format:

Thought: <reasoning>

Answer: <answer only>

(Constraint: The answer must be concise, definitive, and devoid of additional elaborations)"""  # noqa: E501


def sections(context: PackedContext) -> str:
    """(A) the packed turns in conversation order, (B) frame summaries, (C) facts."""
    turns = sorted(context.passages, key=lambda p: (p.session_index, p.turn_index))
    by_id = {i.passage.id: i.text for i in context.items if i.passage is not None}
    frames = [i.text for i in context.items if i.kind == "EventFrame"]
    facts = [i.text for i in context.items if i.kind == "Fact"]
    parts = ["Original Passages (Grounded Evidence):", *(by_id[p.id] for p in turns)]
    parts += ["", "Episodic Memory Summary:", *(f"- {t}" for t in frames)]
    if facts:
        parts += ["", "Relevant Facts:", *(f"- {t}" for t in facts)]
    return "\n".join(parts)


def answer_messages(question: str, context: PackedContext) -> list[Message]:
    return [
        Message(
            role="system",
            # The prompt's Thought/Answer lines as JSON fields (graphmem.llm.answer.ReasonedAnswer).
            content=ANSWER_SYSTEM + '\nReply with JSON: {"thought": "...", "answer": "..."}.',
        ),
        Message(role="user", content=f"{sections(context)}\n\nQuestion: {question}"),
    ]
