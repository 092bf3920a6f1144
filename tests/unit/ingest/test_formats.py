"""Input formats: fixtures parse into the expected models; bad input names file, record, field."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from graphmem.errors import InputError
from graphmem.ingest.formats import (
    MAX_TURN_CHARS,
    ReadLimits,
    detect_format,
    load,
    normalize_evidence,
    parse_timestamp,
)
from graphmem.ingest.models import Dataset
from tests.paths import FIXTURES

LOCOMO_DEV = Path("/work/shared/data/locomo/locomo10-dev.json")


def _fixture(name: str) -> Any:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def _write(tmp_path: Path, data: Any, name: str = "input.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


# ---------------------------------------------------------------- timestamps and evidence


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("1:56 pm on 8 May, 2023", datetime(2023, 5, 8, 13, 56)),
        ("10:37 am on 27 June, 2023", datetime(2023, 6, 27, 10, 37)),
        ("12:09 am on 13 September, 2023", datetime(2023, 9, 13, 0, 9)),
        ("2023/05/20 (Sat) 02:21", datetime(2023, 5, 20, 2, 21)),
        ("2024-03-14T09:30:00", datetime(2024, 3, 14, 9, 30)),
        ("2024-03-14", datetime(2024, 3, 14)),
        ("2024-03-14T09:30:00Z", datetime(2024, 3, 14, 9, 30)),
        ("2024-03-14 09:30+01:00", datetime(2024, 3, 14, 9, 30)),
    ],
)
def test_parse_timestamp(raw: str, expected: datetime) -> None:
    assert parse_timestamp(raw) == expected


@pytest.mark.parametrize("raw", ["yesterday", "32 May 2023", "", "2023/13/01 (Sat) 02:21"])
def test_parse_timestamp_rejects(raw: str) -> None:
    with pytest.raises(ValueError):
        parse_timestamp(raw)


def test_normalize_evidence() -> None:
    raw = ["D8:6; D9:17", "D30:05", " D1:3 ", "D", "D:11:26", "D1:3", "D2:1,D2:2 D2:3"]
    assert normalize_evidence(raw) == [
        "D8:6",
        "D9:17",
        "D30:5",
        "D1:3",
        "D11:26",
        "D2:1",
        "D2:2",
        "D2:3",
    ]


# ---------------------------------------------------------------- LoCoMo


def test_locomo_fixture() -> None:
    path = FIXTURES / "locomo_tiny.json"
    assert detect_format(path) == "locomo"
    data = load(path)
    assert [c.conversation_id for c in data.conversations] == ["conv-a", "conv-b"]
    conv = data.conversations[0]
    assert conv.speakers == ["Ada", "Bo"]
    assert conv.meta == {"format": "locomo"}
    # numeric session order; a date without turns (session_11) makes no session
    assert [s.source_id for s in conv.sessions] == ["session_1", "session_2", "session_10"]
    assert [s.index for s in conv.sessions] == [0, 1, 2]
    last = conv.sessions[2]
    assert last.started_at == datetime(2023, 6, 27, 10, 37)
    assert last.source_date == "10:37 am on 27 June, 2023"
    assert [t.timestamp for t in last.turns] == [last.started_at] * 2
    image_turn = conv.sessions[0].turns[2]
    assert image_turn.source_id == "D1:3"
    assert image_turn.index == 2
    assert image_turn.caption == "a photo of a small brown dog"
    assert image_turn.image_query == "puppy brown"
    assert conv.sessions[0].turns[0].caption is None
    assert data.turn_count() == 9


def test_locomo_qa() -> None:
    data = load(FIXTURES / "locomo_tiny.json")
    assert data.qa["conv-b"] == []
    qa = data.qa["conv-a"]
    assert [q.category for q in qa] == [2, 1, 4, 3, 5]
    assert qa[1].evidence == ["D2:1", "D10:2"]
    assert qa[1].raw_evidence == ["D2:1; D10:2"]
    assert qa[2].evidence == ["D1:3"]
    assert qa[2].raw_evidence == [" D1:03 ", "D"]
    assert qa[3].answer == "2023"  # numeric answers become strings
    assert qa[3].evidence == ["D1:1"]
    assert qa[4].answer is None  # adversarial: no gold answer
    assert qa[0].question_id is None and qa[0].answer_session_ids == []


@pytest.mark.slow
@pytest.mark.skipif(not LOCOMO_DEV.exists(), reason="LoCoMo dev split not available")
def test_locomo_dev_file() -> None:
    data = load(LOCOMO_DEV)
    assert len(data.conversations) == 7
    assert data.turn_count() == 4124
    assert sum(len(items) for items in data.qa.values()) == 1347
    for conv in data.conversations:
        numbers = [int(s.source_id.removeprefix("session_")) for s in conv.sessions]
        assert numbers == sorted(numbers)
        for session in conv.sessions:
            assert session.started_at is not None
            prefix = f"D{int(session.source_id.removeprefix('session_'))}:"
            assert all(t.source_id.startswith(prefix) for t in session.turns)
    assert any(len(c.sessions) >= 10 for c in data.conversations)
    for items in data.qa.values():
        for item in items:
            assert all(":" in e and e.startswith("D") for e in item.evidence)
            if item.category != 5:  # a few adversarial items carry an answer too
                assert item.answer is not None


# ---------------------------------------------------------------- LongMemEval


def test_longmemeval_fixture() -> None:
    path = FIXTURES / "longmemeval_tiny.json"
    assert detect_format(path) == "longmemeval"
    data = load(path)
    assert [c.conversation_id for c in data.conversations] == ["q-001", "q-002_abs"]
    conv = data.conversations[0]
    assert conv.speakers == ["user", "assistant"]
    assert [s.source_id for s in conv.sessions] == ["s-1", "answer_s-2"]
    assert conv.sessions[1].started_at == datetime(2023, 5, 28, 18, 5)
    assert conv.sessions[1].source_date == "2023/05/28 (Sun) 18:05"
    turn = conv.sessions[1].turns[0]
    assert (turn.source_id, turn.speaker, turn.index) == ("answer_s-2:0", "user", 0)
    assert turn.timestamp == datetime(2023, 5, 28, 18, 5)
    assert conv.meta["question_type"] == "single-session-user"
    assert conv.meta["question_date"] == datetime(2023, 6, 1, 10, 0)
    (qa,) = data.qa["q-001"]
    assert qa.question_id == "q-001"
    assert qa.answer == "red"
    assert qa.category is None
    assert qa.evidence == ["answer_s-2:0"]
    assert qa.answer_session_ids == ["answer_s-2"]
    assert data.qa["q-002_abs"][0].answer == "4"


# ---------------------------------------------------------------- JSONL


def _check_jsonl(data: Dataset) -> None:
    assert [c.conversation_id for c in data.conversations] == ["trip", "work"]
    trip = data.conversations[0]
    assert trip.speakers == ["Ana", "Ben"]
    assert [s.source_id for s in trip.sessions] == ["1", "2"]
    first, second = trip.sessions
    assert [t.source_id for t in first.turns] == ["1:0", "m2", "1:2"]
    assert [t.index for t in first.turns] == [0, 1, 2]
    # a session starts at its earliest stamp; the UTC offset is dropped
    assert first.started_at == datetime(2024, 3, 14, 9, 29)
    assert first.turns[1].timestamp == datetime(2024, 3, 14, 9, 31)
    assert second.turns[0].caption == "a tram on a hill"
    assert second.turns[1].timestamp == datetime(2024, 3, 16, 18, 0)  # inherited start
    work = data.conversations[1]
    assert work.sessions[0].started_at is None
    assert work.sessions[0].turns[0].timestamp is None
    assert data.qa == {"trip": [], "work": []}


def test_jsonl_fixture() -> None:
    path = FIXTURES / "messages.jsonl"
    assert detect_format(path) == "jsonl"
    _check_jsonl(load(path))


def test_jsonl_array_fixture() -> None:
    path = FIXTURES / "messages_array.json"
    assert detect_format(path) == "jsonl"
    _check_jsonl(load(path))
    _check_jsonl(load(path, "jsonl"))


def test_jsonl_detected_without_extension(tmp_path: Path) -> None:
    path = tmp_path / "messages.txt"
    path.write_text((FIXTURES / "messages.jsonl").read_text(encoding="utf-8"), encoding="utf-8")
    assert detect_format(path) == "jsonl"


# ---------------------------------------------------------------- bad input


def _assert_error(exc: pytest.ExceptionInfo[InputError], *parts: str) -> None:
    message = str(exc.value)
    for part in parts:
        assert part in message, f"{part!r} missing from {message!r}"


def test_unreadable_file(tmp_path: Path) -> None:
    with pytest.raises(InputError) as exc:
        load(tmp_path / "missing.json")
    _assert_error(exc, "missing.json", "not found")
    with pytest.raises(InputError) as exc:
        load(tmp_path)  # a folder is read only as an app's export
    _assert_error(exc, str(tmp_path), "no export format recognised in this folder")
    with pytest.raises(InputError) as exc:
        load(tmp_path, "jsonl")
    _assert_error(exc, str(tmp_path), "cannot read")
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'[{"text": "caf\xe9"}]')
    with pytest.raises(InputError) as exc:
        load(latin)
    _assert_error(exc, "latin.json", "UTF-8")


def test_broken_json() -> None:
    with pytest.raises(InputError) as exc:
        load(FIXTURES / "broken.json")
    _assert_error(exc, "broken.json", "broken JSON", "line 4 column 1")
    with pytest.raises(InputError) as exc:
        load(FIXTURES / "broken.json", "locomo")
    _assert_error(exc, "broken.json", "line 4 column 1")


def test_broken_jsonl_line() -> None:
    with pytest.raises(InputError) as exc:
        load(FIXTURES / "broken_line.jsonl")
    _assert_error(exc, "broken_line.jsonl", "record line 3", "column 52")


def test_unknown_format(tmp_path: Path) -> None:
    for path in (FIXTURES / "unknown_format.json", _write(tmp_path, [{"a": 1}])):
        with pytest.raises(InputError) as exc:
            load(path)
        _assert_error(exc, path.name, "unknown input format", "hint:")


def test_empty_inputs(tmp_path: Path) -> None:
    with pytest.raises(InputError) as exc:
        load(_write(tmp_path, []), "locomo")
    _assert_error(exc, "input.json", "no LoCoMo samples")
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n\n", encoding="utf-8")
    with pytest.raises(InputError) as exc:
        load(empty)
    _assert_error(exc, "empty.jsonl", "no messages")


def _locomo_case(mutate: Callable[[list[Any]], None]) -> list[Any]:
    data: list[Any] = copy.deepcopy(_fixture("locomo_tiny.json"))
    mutate(data)
    return data


def _turn(data: list[Any], session: str, index: int) -> dict[str, Any]:
    turn: dict[str, Any] = data[0]["conversation"][session][index]
    return turn


LOCOMO_CASES: list[tuple[str, Callable[[list[Any]], None], tuple[str, ...]]] = [
    (
        "missing text",
        lambda d: _turn(d, "session_2", 1).pop("text"),
        ("sample conv-a session_2 turn 1", "'text'", "missing required field"),
    ),
    (
        "wrong type",
        lambda d: _turn(d, "session_10", 0).update(speaker=7),
        ("sample conv-a session_10 turn 0", "'speaker'", "expected a string, got an integer"),
    ),
    (
        "whitespace text",
        lambda d: _turn(d, "session_1", 2).update(text="  \n "),
        ("sample conv-a session_1 turn 2 (D1:3)", "'text'", "empty"),  # index and id
    ),
    (
        "text too long",
        lambda d: _turn(d, "session_1", 0).update(text="x" * (MAX_TURN_CHARS + 1)),
        ("sample conv-a session_1 turn 0", "'text'", "1,000,001 characters"),
    ),
    (
        "bad session date",
        lambda d: d[0]["conversation"].update(session_2_date_time="sometime in May"),
        ("record sample conv-a", "'session_2_date_time'", "sometime in May"),
    ),
    (
        "missing sample id",
        lambda d: d[1].pop("sample_id"),
        ("record sample #1", "'sample_id'", "missing required field"),
    ),
    (
        "conversation not an object",
        lambda d: d[1].update(conversation=[]),
        ("record sample conv-b", "'conversation'", "expected an object, got a list"),
    ),
    (
        "session not a list",
        lambda d: d[1]["conversation"].update(session_1="hello"),
        ("record sample conv-b", "'session_1'", "expected a list"),
    ),
    (
        "evidence not strings",
        lambda d: d[0]["qa"][1].update(evidence=["D1:1", 3]),
        ("record sample conv-a qa 1", "'evidence'", "item 1"),
    ),
    (
        "category not int",
        lambda d: d[0]["qa"][0].update(category="2"),
        ("record sample conv-a qa 0", "'category'", "expected an integer"),
    ),
    (
        "duplicate dia_id",
        lambda d: _turn(d, "session_1", 1).update(dia_id="D1:01"),
        ("sample conv-a session session_1 turn 1", "'dia_id'", "duplicate turn id 'D1:1'"),
    ),
    (
        "duplicate sample",
        lambda d: d[1].update(sample_id="conv-a"),
        ("record sample conv-a", "'sample_id'", "duplicate"),
    ),
]


# Refused only by a strict load (a lenient one skips them), with the message it always had.
STRICT_ONLY = {"whitespace text", "empty content", "duplicate session id", "blank text"}
STRICT_ONLY |= {"duplicate id"}  # JSONL: the same id and content as line 1, a copy
STRICT = ReadLimits(strict=True)


def _limits(name: str) -> ReadLimits:
    return STRICT if name in STRICT_ONLY else ReadLimits()


@pytest.mark.parametrize(
    ("name", "mutate", "parts"), LOCOMO_CASES, ids=[c[0] for c in LOCOMO_CASES]
)
def test_locomo_bad_input(
    tmp_path: Path, name: str, mutate: Callable[[list[Any]], None], parts: tuple[str, ...]
) -> None:
    path = _write(tmp_path, _locomo_case(mutate))
    with pytest.raises(InputError) as exc:
        load(path, limits=_limits(name))
    _assert_error(exc, str(path), *parts)


LME_CASES: list[tuple[str, Callable[[list[Any]], None], tuple[str, ...]]] = [
    (
        "bad haystack date",
        lambda d: d[0]["haystack_dates"].__setitem__(1, "28.05.2023"),
        ("question q-001 session answer_s-2", "'haystack_dates'", "28.05.2023"),
    ),
    (
        "length mismatch",
        lambda d: d[0]["haystack_dates"].pop(),
        ("record question q-001", "'haystack_dates'", "has 1 entries"),
    ),
    (
        "empty content",
        lambda d: d[0]["haystack_sessions"][0][1].update(content=""),
        ("question q-001 session s-1 turn 1", "'content'", "empty"),
    ),
    (
        "missing role",
        lambda d: d[1]["haystack_sessions"][0][0].pop("role"),
        ("question q-002_abs session s-9 turn 0", "'role'", "missing"),
    ),
    (
        "has_answer not bool",
        lambda d: d[0]["haystack_sessions"][1][0].update(has_answer="yes"),
        ("question q-001 session answer_s-2 turn 0", "'has_answer'", "true or false"),
    ),
    (
        "bad question date",
        lambda d: d[1].update(question_date="soon"),
        ("record question q-002_abs", "'question_date'", "soon"),
    ),
    (
        "missing question",
        lambda d: d[1].pop("question"),
        ("record question q-002_abs", "'question'", "missing"),
    ),
    (
        "duplicate session id",
        lambda d: d[0]["haystack_session_ids"].__setitem__(1, "s-1"),
        ("question q-001 session s-1 turn 0", "'haystack_session_ids'", "duplicate"),
    ),
]


@pytest.mark.parametrize(("name", "mutate", "parts"), LME_CASES, ids=[c[0] for c in LME_CASES])
def test_longmemeval_bad_input(
    tmp_path: Path, name: str, mutate: Callable[[list[Any]], None], parts: tuple[str, ...]
) -> None:
    data = copy.deepcopy(_fixture("longmemeval_tiny.json"))
    mutate(data)
    path = _write(tmp_path, data)
    with pytest.raises(InputError) as exc:
        load(path, limits=_limits(name))
    _assert_error(exc, str(path), *parts)


GOOD = {"conversation": "c", "session": 1, "speaker": "A", "text": "hi"}
JSONL_CASES: list[tuple[str, dict[str, Any], tuple[str, ...]]] = [
    ("missing speaker", {"speaker": None}, ("'speaker'",)),
    ("session bool", {"session": True}, ("'session'", "got true or false")),
    ("text not string", {"text": ["hi"]}, ("'text'", "got a list")),
    ("blank text", {"text": "\t"}, ("'text'", "empty")),
    ("long text", {"text": "y" * (MAX_TURN_CHARS + 1)}, ("'text'", "1,000,000 allowed")),
    ("bad timestamp", {"timestamp": "last week"}, ("'timestamp'", "last week")),
    ("empty conversation id", {"conversation": " "}, ("'conversation'", "empty")),
    ("empty session name", {"session": ""}, ("'session'", "empty")),
    ("empty id", {"id": " "}, ("'id'", "empty")),
    ("duplicate id", {"id": "1:0"}, ("'id'", "duplicate id '1:0', first used on line 1")),
]


@pytest.mark.parametrize(("name", "change", "parts"), JSONL_CASES, ids=[c[0] for c in JSONL_CASES])
def test_jsonl_bad_input(
    tmp_path: Path, name: str, change: dict[str, Any], parts: tuple[str, ...]
) -> None:
    bad = {k: v for k, v in {**GOOD, **change}.items() if v is not None}
    path = tmp_path / "chat.jsonl"
    lines = [json.dumps(GOOD), "", json.dumps(bad)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(InputError) as exc:
        load(path, limits=_limits(name))
    _assert_error(exc, str(path), "record line 3", *parts)


def test_jsonl_array_bad_input(tmp_path: Path) -> None:
    path = _write(tmp_path, [GOOD, {**GOOD, "text": ""}])
    with pytest.raises(InputError) as exc:
        load(path, limits=STRICT)
    _assert_error(exc, "input.json", "record message 1", "'text'")


def test_error_carries_fields(tmp_path: Path) -> None:
    path = _write(tmp_path, [{**GOOD, "timestamp": "nope"}])
    with pytest.raises(InputError) as exc:
        load(path)
    assert exc.value.path == str(path)
    assert exc.value.record == "message 0"
    assert exc.value.field == "timestamp"
    assert exc.value.exit_code == 3
