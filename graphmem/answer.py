"""Answer generation from a packed context (LLM backend only)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from pydantic import BaseModel, Field

from graphmem.eval.metrics import ANSWER_PROMPT
from graphmem.llm import Message, StructuredLLM, with_fallback


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


def answer_or_none(llm: StructuredLLM, question: str, context: str) -> str | None:
    """``answer_question``, or None (logged and counted) when the model gives no valid one."""
    ask: Callable[[str], str | None] = partial(answer_question, llm, context=context)
    return with_fallback(llm, ask, _no_answer, question, what="answer")


def _no_answer(_: str) -> str | None:
    return None
