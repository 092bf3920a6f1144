"""Reading a model's answer as JSON, and the texts that ask it for (corrected) JSON.

Small local models wrap JSON in code fences or prose even in JSON mode; the answer is
cut out of that before validation, so a usable object never costs a repair request.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError

from graphmem.llm.types import Message, T

_ERROR_DETAIL_CHARS = 1500
_SNIPPET_CHARS = 200


def parse_answer(text: str, schema: type[T]) -> T | str:
    """The validated answer, or a one-line description of what is wrong with it."""
    candidates = [strip_fences(text)]
    embedded = _outermost_object(candidates[0])
    if embedded is not None and embedded != candidates[0]:
        candidates.append(embedded)
    problem = "the reply is empty" if not text.strip() else ""
    for candidate in candidates:
        if not candidate:
            continue
        try:
            return schema.model_validate_json(candidate)
        except ValidationError as exc:
            problem = problem or summarize(exc)
    return problem


def strip_fences(text: str) -> str:
    """Drop a ```json ... ``` wrapper."""
    stripped = text.strip()
    if stripped.startswith("```") and stripped.endswith("```") and len(stripped) > 6:
        body = stripped[3:-3]
        newline = body.find("\n")
        # The first line is a language tag ("json") unless the object starts right away.
        return body[newline + 1 :] if newline != -1 and "{" not in body[:newline] else body
    return stripped


def _outermost_object(text: str) -> str | None:
    """The first ``{...}`` that parses as JSON, for answers with prose around the object."""
    start = text.find("{")
    decoder = json.JSONDecoder()
    while start != -1:
        try:
            _, end = decoder.raw_decode(text, start)
        except json.JSONDecodeError:
            start = text.find("{", start + 1)
            continue
        return text[start:end]
    return None


def summarize(exc: ValidationError) -> str:
    lines = []
    for error in exc.errors(include_url=False)[:8]:
        loc = ".".join(str(part) for part in error["loc"]) or "(root)"
        lines.append(f"{loc}: {error['msg']}")
    return "; ".join(lines)[:_ERROR_DETAIL_CHARS]


def snippet(text: str) -> str:
    return text if len(text) <= _SNIPPET_CHARS else text[:_SNIPPET_CHARS] + "…"


def schema_instruction(json_schema: dict[str, Any]) -> str:
    return (
        "Reply with one JSON object and nothing else. It must validate against this "
        f"JSON Schema:\n{json.dumps(json_schema, ensure_ascii=False)}"
    )


def with_schema_instruction(
    messages: Sequence[Message], json_schema: dict[str, Any]
) -> list[Message]:
    """Modes without a schema-carrying ``response_format`` put the schema in the prompt."""
    instruction = schema_instruction(json_schema)
    # Merged into the first system message: some chat templates allow only one.
    if messages and messages[0].role == "system":
        first = Message(role="system", content=f"{messages[0].content}\n\n{instruction}")
        return [first, *messages[1:]]
    return [Message(role="system", content=instruction), *messages]


def repair_prompt(problem: str, json_schema: dict[str, Any], truncated: bool) -> str:
    """The follow-up turn after an invalid answer; it carries the schema, since the first
    request may have had it only in a ``response_format`` the server ignored."""
    cut = " It was cut off at the length limit: keep the new one short." if truncated else ""
    return (
        f"Your previous reply is not valid: {problem}.{cut}\n"
        f"{schema_instruction(json_schema)}\nReply again with only the corrected JSON object."
    )
