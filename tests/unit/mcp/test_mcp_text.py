"""What the MCP tools put in their text content (what most hosts hand the model) and how an
argument error reads, without a server."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel, Field, ValidationError

pytest.importorskip("mcp")
from graphmem.mcp.server import ask_text, plain_validation_message, query_text

DATA: dict[str, Any] = {
    "strategy": "hybrid",
    "budget": 100,
    "tokens": 12,
    "latency_ms": 3.0,
    "citations": ["D1:1", "D2:4"],
    "notes": [],
    "items": [
        {
            "kind": "passage",
            "text": "[D1:1] Ana: hi",
            "source_id": "D1:1",
            "turns": ["D1:1"],
            "strategy": "hybrid",
            "path": ["exact cosine over the space's passages rank 1 score 0.932"],
            "explanation": {"text": "ranked 1st: closest in meaning to the question", "rank": 1},
        }
    ],
    "context": "Conversation excerpts:\n(8 May 2023)\n[D1:1] Ana: hi",
}


def test_query_text_is_the_context_and_explain_adds_the_paths() -> None:
    assert query_text(DATA, explain=False) == DATA["context"]
    explained = query_text(DATA, explain=True)
    assert explained.startswith("# hybrid | 12/100 tokens | 1 item |")
    assert DATA["context"] in explained
    assert "D1:1: ranked 1st: closest in meaning to the question" in explained
    assert query_text({**DATA, "context": ""}, explain=False).startswith("(nothing")


def test_ask_text_gives_the_answer_with_its_citations_or_says_why_not() -> None:
    answered = ask_text({**DATA, "answer": "Toronto", "llm": "m"})
    assert answered == "Toronto\n\ncited turns: D1:1, D2:4"
    assert ask_text({**DATA, "answer": None, "llm": "m"}).startswith("No answer (m gave")
    silent = ask_text({**DATA, "answer": None, "llm": None})
    assert silent.startswith("No answer (no LLM is configured)") and DATA["context"] in silent


class _Args(BaseModel):
    question: str
    budget: int = Field(ge=50)


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ({"budget": 10, "question": "q"}, "budget: input should be greater than or equal to 50"),
        (
            {"budget": "x", "question": "q"},
            "budget: input should be a valid integer, unable to parse string as an integer",
        ),
        ({"budget": 60}, "question is required"),
    ],
)
def test_a_validation_error_is_one_plain_sentence(args: dict[str, Any], expected: str) -> None:
    with pytest.raises(ValidationError) as caught:
        _Args.model_validate(args)
    text = plain_validation_message("query", caught.value)
    assert text == f"Error executing tool query: {expected}."
    assert "\n" not in text and "http" not in text and "input_value" not in text
