"""A scripted "weak model" for the fake OpenAI server: it answers any structured request
with a minimal instance of the schema it was sent, except that, by a hash of the request's
first user message, some requests get prose instead of JSON: once (the repair turn then
succeeds) or always (the item falls back to the offline backend). Deterministic, so a
re-run sends the same requests and a warm cache answers all of them."""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from tests.fakes.openai_server import Reply

# Designs with LLM steps: their builders must make requests. A registered design not named
# here that makes none (a test-only plug-in, say) is skipped by the LLM tests, not failed.
LLM_DESIGNS = frozenset({"seem", "anchormem", "cast", "premem", "amory"})

_SCHEMA_IN_PROMPT = re.compile(r"JSON Schema:\n(\{.*\})", re.DOTALL)
_NAME = re.compile(r"\b[A-Z][a-z]{2,}\b")


class WeakModel:
    """``FakeOpenAIServer(default=WeakModel())``; ``every`` sets how often it fails."""

    def __init__(self, every: int = 4) -> None:
        self.every = every

    def __call__(self, body: dict[str, Any]) -> Reply:
        messages = body["messages"]
        first_user = next(m["content"] for m in messages if m["role"] == "user")
        bucket = int(hashlib.sha256(first_user.encode()).hexdigest(), 16) % self.every
        is_repair = messages[-1]["role"] == "user" and any(
            m["role"] == "assistant" for m in messages
        )
        if bucket == 0 or (bucket == 1 and not is_repair):
            return Reply.text("I think that is about a dog, maybe.")
        schema = request_schema(body)
        if schema is None:
            return Reply.err(400, "weak model: no schema in the request")
        names = _NAME.findall(first_user) or ["Someone"]
        return Reply.json(instance(schema, schema, names))


def request_schema(body: dict[str, Any]) -> dict[str, Any] | None:
    fmt = body.get("response_format") or {}
    if fmt.get("type") == "json_schema":
        found: dict[str, Any] = fmt["json_schema"]["schema"]
        return found
    if "schema" in fmt:
        found = fmt["schema"]
        return found
    for message in body["messages"]:
        match = _SCHEMA_IN_PROMPT.search(message["content"])
        if match:
            found = json.loads(match.group(1))
            return found
    return None


def instance(node: dict[str, Any], root: dict[str, Any], names: list[str]) -> Any:
    """The smallest value the schema accepts, with names from the prompt as strings."""
    if "$ref" in node:
        return instance(root["$defs"][node["$ref"].split("/")[-1]], root, names)
    if "anyOf" in node:
        options = [o for o in node["anyOf"] if o.get("type") != "null"] or node["anyOf"]
        return instance(options[0], root, names)
    if "enum" in node:
        return node["enum"][0]
    if "const" in node:
        return node["const"]
    kind = node.get("type", "string")
    if kind == "object":
        props = node.get("properties", {})
        # each property gets the next name, so a subject and an object differ
        rotated = [names[i % len(names) :] + names[: i % len(names)] for i in range(len(props))]
        return {k: instance(v, root, r) for (k, v), r in zip(props.items(), rotated, strict=True)}
    if kind == "array":
        return [instance(node.get("items", {}), root, names)]
    if kind == "boolean":
        return False
    if kind in ("integer", "number"):
        return node.get("minimum", 0)
    return names[0]
