"""Answer generation from a packed context (LLM backend only)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from graphmem.eval.metrics import ANSWER_PROMPT
from graphmem.llm import Message, StructuredLLM


class Answer(BaseModel):
    answer: str = Field(description="a short phrase answering the question")


class ReasonedAnswer(BaseModel):
    """A design's own reader prompt that asks for reasoning first (SEEM's Prompt 3)."""

    thought: str = Field(default="", description="the reasoning")
    answer: str = Field(description="the answer only")


def answer_with(llm: StructuredLLM, messages: list[Message]) -> str:
    """Answer with a design's own reader prompt (``Retriever.answer_messages``)."""
    return llm.generate(messages, ReasonedAnswer).answer


def answer_question(llm: StructuredLLM, question: str, context: str) -> str:
    prompt = ANSWER_PROMPT.format(memories=context, question=question)
    messages = [
        Message(role="system", content='Reply with JSON: {"answer": "..."}.'),
        Message(role="user", content=prompt),
    ]
    return llm.generate(messages, Answer).answer
