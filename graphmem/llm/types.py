"""The values every LLM module shares: a chat message and the answer-schema type variable.

Kept apart from the client and the cache so that neither imports the other for them.
"""

from __future__ import annotations

from typing import Literal, TypeVar, get_args

from pydantic import BaseModel, ConfigDict

T = TypeVar("T", bound=BaseModel)

# How a request asks for structured output, strongest first (see docs/llm.md):
# json_schema: OpenAI's ``response_format`` with the schema (vLLM, Ollama, OpenAI);
# json_object_schema: ``{"type": "json_object", "schema": ...}`` (llama.cpp's server);
# json_object: JSON mode with the schema in the system prompt;
# prompt: no response_format at all, the schema in the prompt, the answer validated.
FormatMode = Literal["json_schema", "json_object_schema", "json_object", "prompt"]
FORMAT_MODES: tuple[FormatMode, ...] = get_args(FormatMode)


class Message(BaseModel):
    """One chat turn. Frozen so a conversation can be hashed into a cache key safely."""

    model_config = ConfigDict(frozen=True)

    role: Literal["system", "user", "assistant"]
    content: str
