"""Answer generation from a packed context (LLM backend only)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from pydantic import BaseModel, Field

from graphmem.llm import Message, StructuredLLM, with_fallback

# The prompt lives here, not in eval/, so answering does not import the eval package.
# Answer generation in the spirit of the Mem0 / Zep LoCoMo setups: memories only, resolve
# relative dates against each memory's timestamp, short phrase. The abstention wording
# matches the phrase LoCoMo's adversarial check looks for.
ANSWER_PROMPT = """\
You answer questions about past conversations using only the memories below.

Instructions:
1. Each memory starts with the date and time it was said. Read all of them carefully.
2. Use only the memories. If they do not contain the answer, reply exactly: \
Not mentioned in the conversation.
3. When a memory uses a relative time ("yesterday", "last year", "two weeks ago"), work \
out the actual date from that memory's timestamp and answer with the date, never the \
relative phrase. Example: a memory from 4 May 2022 saying "I went to India last year" \
means 2021.
4. If memories contradict each other, trust the most recent one.
5. Answer with a short phrase, usually under ten words: no full sentence, no explanation.

Memories:
{memories}

Question: {question}
Answer:"""


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


def own_answer_or_none(llm: StructuredLLM, messages: list[Message]) -> str | None:
    """``answer_with``, or None (logged and counted) when the model gives no valid one."""
    ask: Callable[[list[Message]], str | None] = partial(answer_with, llm)
    return with_fallback(llm, ask, _no_answer, messages, what="answer")


def _no_answer(_: object) -> str | None:
    return None
