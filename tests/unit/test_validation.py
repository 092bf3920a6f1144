"""Issue 15 items 2 and 5: input that used to pass validation and crash later (or crash the
parser) is an InputError naming the record and field, before anything is written."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from graphmem.config import Settings
from graphmem.errors import InputError
from graphmem.ingest.formats import load
from graphmem.ingest.jsonl import api_session
from graphmem.ingest.validate import (
    MAX_ID_CHARS,
    check_budget,
    check_question,
    check_space,
    parse_json,
)
from graphmem.memory import Memory


def _message(**over: Any) -> dict[str, Any]:
    return {"conversation": "c1", "session": 1, "speaker": "Ana", "text": "hi", **over}


def _jsonl(tmp_path: Path, *messages: dict[str, Any]) -> Path:
    path = tmp_path / "in.jsonl"
    # ensure_ascii keeps "\udc80" as the JSON escape a real file would hold
    path.write_text("\n".join(json.dumps(m) for m in messages), encoding="utf-8")
    return path


def test_lone_surrogate_escape_is_rejected(tmp_path: Path) -> None:
    path = _jsonl(tmp_path, _message(), _message(text="bad \udc80 byte"))
    with pytest.raises(InputError) as caught:
        load(path)
    assert caught.value.field == "text" and caught.value.record == "line 2"


def test_over_long_conversation_id_is_rejected(tmp_path: Path) -> None:
    path = _jsonl(tmp_path, _message(conversation="c" * 9000))
    with pytest.raises(InputError) as caught:
        load(path)
    assert caught.value.field == "conversation"
    assert f"{MAX_ID_CHARS}" in str(caught.value)


def test_deeply_nested_json_is_an_input_error(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with pytest.raises(InputError, match="nested too deeply"):
        load(path)
    deep_line = tmp_path / "deep.jsonl"
    deep_line.write_text('{"a": ' * 50_000 + "1" + "}" * 50_000, encoding="utf-8")
    with pytest.raises(InputError, match="nested too deeply"):
        load(deep_line)


def test_integer_beyond_the_digit_limit_is_an_input_error(tmp_path: Path) -> None:
    path = tmp_path / "big.jsonl"
    line = json.dumps(_message()).replace('"session": 1', '"session": ' + "9" * 5000)
    path.write_text(line, encoding="utf-8")
    with pytest.raises(InputError):
        load(path)


def test_unicode_line_separator_inside_a_string_is_text_not_a_new_record(tmp_path: Path) -> None:
    path = tmp_path / "sep.jsonl"
    path.write_text(json.dumps(_message(text="one\u2028two"), ensure_ascii=False), "utf-8")
    turn = load(path).conversations[0].sessions[0].turns[0]
    assert turn.text == "one\u2028two"


@pytest.mark.parametrize(
    ("messages", "field"),
    [
        ([{"speaker": "Ana", "text": None}], "text"),
        ([{"text": "hello"}], "speaker"),
        ([{"speaker": "Ana", "text": "x" * 20_001}], "text"),
        ([{"speaker": "Ana", "text": "ok", "timestamp": "yesterday"}], "timestamp"),
        ([{"speaker": "Ana", "text": "\udc80"}], "text"),
        (["just a string"], None),
        ("not a list", "messages"),
        ([], "messages"),
    ],
)
def test_api_messages_are_validated_like_jsonl(messages: Any, field: str | None) -> None:
    with pytest.raises(InputError) as caught:
        api_session("conv", "s1", messages, None, 0)
    assert caught.value.field == field


@pytest.mark.parametrize("space", ["", "   ", "s" * 129, "tab\there", "bad\udc80", None])
def test_bad_space_names(space: Any) -> None:
    with pytest.raises(InputError) as caught:
        check_space(space)
    assert caught.value.field == "space"


@pytest.mark.parametrize("budget", [0, -5, True, 1.5, "100"])
def test_bad_budgets(budget: Any) -> None:
    with pytest.raises(InputError) as caught:
        check_budget(budget)
    assert caught.value.field == "budget"


@pytest.mark.parametrize("question", ["", "  \n ", "q" * 20_001, "bad\udc80", None, 3])
def test_bad_questions(question: Any) -> None:
    with pytest.raises(InputError) as caught:
        check_question(question)
    assert caught.value.field == "question"


def test_an_empty_question_is_refused_before_the_database_is_asked() -> None:
    memory = Memory(Settings(neo4j_uri="bolt://127.0.0.1:1"))  # nothing listens there
    with pytest.raises(InputError, match="must not be empty"):
        memory.query(" ", space="any")


def test_jsonl_read_as_one_document_says_what_it_is() -> None:
    with pytest.raises(InputError) as caught:
        parse_json('{"a": 1}\n{"a": 2}\n', "chat.jsonl")
    assert "Extra data" in str(caught.value) and "JSONL" in (caught.value.hint or "")
    with pytest.raises(InputError) as broken:
        parse_json('{"a": 1,,}', "conv.json")
    assert broken.value.hint is None  # plainly broken JSON: no guess
