"""Answer generation from a packed context (LLM backend only)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from graphmem.eval.metrics import ANSWER_PROMPT
from graphmem.llm import Message, StructuredLLM


class Answer(BaseModel):
    answer: str = Field(description="a short phrase answering the question")


def answer_question(llm: StructuredLLM, question: str, context: str) -> str:
    """The model's short answer; ``LLMItemError`` when it gives no valid one (the eval
    harness scores that as an empty answer, ``graphmem ask`` reports it)."""
    prompt = ANSWER_PROMPT.format(memories=context, question=question)
    messages = [
        Message(role="system", content='Reply with JSON: {"answer": "..."}.'),
        Message(role="user", content=prompt),
    ]
    return llm.generate(messages, Answer).answer
