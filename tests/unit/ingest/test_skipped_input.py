"""What a load skips and counts (empty turns, repeated copies of a session or a turn id),
what it still refuses (a repeated id with other content), what ``strict`` refuses as it
always did, and long turns kept whole, in LoCoMo, LongMemEval and JSONL. Synthetic data."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from graphmem.config import Settings
from graphmem.errors import InputError
from graphmem.ingest.formats import MAX_TEXT_CHARS, MAX_TURN_CHARS, ReadLimits, load
from graphmem.ingest.jsonl import api_session
from graphmem.ingest.models import Dataset
from tests.paths import FIXTURES

STRICT = ReadLimits(strict=True)
LONG = "A pasted document. " * 2_200  # 41,800 characters: past the old 20,000 limit


def _fixture(name: str) -> Any:
    return copy.deepcopy(json.loads((FIXTURES / name).read_text(encoding="utf-8")))


def _write(tmp_path: Path, data: Any, name: str = "input.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _ids(data: Dataset, conversation: int = 0) -> list[list[str]]:
    conv = data.conversations[conversation]
    return [[t.source_id for t in s.turns] for s in conv.sessions]


# ---------------------------------------------------------------- LongMemEval


def _lme(tmp_path: Path, change: Any) -> Path:
    data = _fixture("longmemeval_tiny.json")
    change(data[0])
    return _write(tmp_path, data)


def _answer_session(item: dict[str, Any]) -> list[dict[str, Any]]:
    """The fixture's answer session with an empty turn at position 1 and the evidence
    after it (position 2)."""
    turns: list[dict[str, Any]] = item["haystack_sessions"][1]
    turns.insert(1, {"role": "assistant", "content": "\u200b"})
    turns.append({"role": "user", "content": "It is red, by the way.", "has_answer": True})
    return turns


def test_longmemeval_empty_turn_is_skipped_and_evidence_ids_stay(tmp_path: Path) -> None:
    path = _lme(tmp_path, _answer_session)
    data = load(path)
    # positions are the file's: the empty turn 1 is gone, turn 3 is still answer_s-2:3
    assert _ids(data) == [["s-1:0", "s-1:1"], ["answer_s-2:0", "answer_s-2:2", "answer_s-2:3"]]
    assert [t.index for t in data.conversations[0].sessions[1].turns] == [0, 2, 3]
    assert data.qa["q-001"][0].evidence == ["answer_s-2:0", "answer_s-2:3"]
    skipped = data.skipped
    assert (skipped.empty_turns, skipped.repeated_sessions, skipped.repeated_turns) == (1, 0, 0)
    assert skipped.places == ["question q-001 session answer_s-2 turn 1: no visible text"]
    with pytest.raises(InputError) as caught:
        load(path, limits=STRICT)
    assert str(caught.value) == (
        f"file {path}, record question q-001 session answer_s-2 turn 1, field 'content': "
        "text has no visible character (only controls or blanks)"
    )


def _repeat_first_session(item: dict[str, Any], date: str = "2023/05/30 (Tue) 08:00") -> None:
    """s-1 again at the end of the haystack, the same turns at a later date."""
    item["haystack_session_ids"].append("s-1")
    item["haystack_dates"].append(date)
    item["haystack_sessions"].append(copy.deepcopy(item["haystack_sessions"][0]))


def test_longmemeval_identical_repeated_session_is_skipped(tmp_path: Path) -> None:
    path = _lme(tmp_path, _repeat_first_session)
    data = load(path)
    conv = data.conversations[0]
    assert [s.source_id for s in conv.sessions] == ["s-1", "answer_s-2"]
    assert [s.index for s in conv.sessions] == [0, 1]
    assert conv.sessions[0].source_date == "2023/05/20 (Sat) 02:21"  # the first copy
    assert data.qa["q-001"][0].evidence == ["answer_s-2:0"]
    skipped = data.skipped
    assert (skipped.empty_turns, skipped.repeated_sessions, skipped.repeated_turns) == (0, 1, 2)
    assert skipped.places == [
        "question q-001 session s-1 (haystack position 2, first at 0): repeats an earlier session"
    ]
    assert skipped.describe().startswith(
        "skipped 0 empty turns, 1 repeated session, 2 repeated turns (first: question q-001"
    )
    with pytest.raises(InputError) as caught:  # strict: today's refusal, word for word
        load(path, limits=STRICT)
    assert str(caught.value) == (
        f"file {path}, record question q-001 session s-1 turn 0, "
        "field 'haystack_session_ids': duplicate turn id 's-1:0'"
    )


def test_longmemeval_repeated_session_with_other_turns_is_refused(tmp_path: Path) -> None:
    def change(item: dict[str, Any]) -> None:
        _repeat_first_session(item)
        item["haystack_sessions"][2][1]["content"] = "Try carbonara instead."

    path = _lme(tmp_path, change)
    with pytest.raises(InputError) as caught:
        load(path)
    error = caught.value
    assert (error.path, error.record, error.field) == (
        str(path),
        "question q-001 session s-1",
        "haystack_session_ids",
    )
    assert "given twice in the haystack (sessions 0 and 2) with different turns" in str(error)
    assert error.hint and "would name two turns" in error.hint


def test_longmemeval_a_repeat_does_not_count_its_empty_turns(tmp_path: Path) -> None:
    def change(item: dict[str, Any]) -> None:
        item["haystack_sessions"][0].append({"role": "user", "content": " "})
        _repeat_first_session(item)

    data = load(_lme(tmp_path, change))
    skipped = data.skipped
    assert (skipped.empty_turns, skipped.repeated_sessions, skipped.repeated_turns) == (1, 1, 2)


# ---------------------------------------------------------------- LoCoMo


def _locomo_turns(data: list[Any], session: str) -> list[dict[str, Any]]:
    turns: list[dict[str, Any]] = data[0]["conversation"][session]
    return turns


def test_locomo_empty_turn_is_skipped_and_ids_stay(tmp_path: Path) -> None:
    data = _fixture("locomo_tiny.json")
    _locomo_turns(data, "session_1")[1]["text"] = "  \n"
    loaded = load(_write(tmp_path, data))
    first = loaded.conversations[0].sessions[0]
    assert [(t.source_id, t.index) for t in first.turns] == [("D1:1", 0), ("D1:3", 2)]
    assert loaded.qa["conv-a"][2].evidence == ["D1:3"]  # evidence ids unchanged
    assert loaded.skipped.empty_turns == 1
    assert loaded.skipped.places == ["sample conv-a session_1 turn 1 (D1:2): no visible text"]
    with pytest.raises(InputError, match="text is empty or whitespace only"):
        load(_write(tmp_path, data), limits=STRICT)


def test_locomo_session_of_empty_turns_makes_no_session(tmp_path: Path) -> None:
    data = _fixture("locomo_tiny.json")
    for turn in _locomo_turns(data, "session_2"):
        turn["text"] = ""
    loaded = load(_write(tmp_path, data))
    conv = loaded.conversations[0]
    assert [(s.source_id, s.index) for s in conv.sessions] == [("session_1", 0), ("session_10", 1)]
    assert loaded.skipped.empty_turns == len(_locomo_turns(data, "session_2"))


def test_locomo_identical_repeated_turn_is_skipped_other_refused(tmp_path: Path) -> None:
    data = _fixture("locomo_tiny.json")
    copied = copy.deepcopy(_locomo_turns(data, "session_1")[0])
    _locomo_turns(data, "session_10").append(copied)  # D1:1 again, the same words
    loaded = load(_write(tmp_path, data))
    assert [t.source_id for t in loaded.conversations[0].sessions[2].turns] == ["D10:1", "D10:2"]
    assert (loaded.skipped.repeated_turns, loaded.skipped.repeated_sessions) == (1, 0)
    with pytest.raises(InputError) as strict:
        load(_write(tmp_path, data), limits=STRICT)
    assert "field 'dia_id': duplicate turn id 'D1:1'" in str(strict.value)
    copied["text"] = "Something else entirely."
    with pytest.raises(InputError) as caught:
        load(_write(tmp_path, data))
    assert caught.value.record == "sample conv-a session session_10 turn 2"
    assert caught.value.field == "dia_id" and "duplicate turn id 'D1:1'" in str(caught.value)
    assert caught.value.hint and "would name two turns" in caught.value.hint


# ---------------------------------------------------------------- JSONL


def _jsonl(tmp_path: Path, *messages: dict[str, Any]) -> Path:
    path = tmp_path / "chat.jsonl"
    path.write_text("\n".join(json.dumps(m) for m in messages) + "\n", encoding="utf-8")
    return path


def _msg(text: str, **more: Any) -> dict[str, Any]:
    return {"conversation": "c", "session": 1, "speaker": "Ana", "text": text, **more}


def test_jsonl_empty_message_is_skipped_and_default_ids_stay(tmp_path: Path) -> None:
    path = _jsonl(tmp_path, _msg("one"), _msg("\t"), _msg("three"))
    loaded = load(path)
    assert _ids(loaded) == [["1:0", "1:2"]]
    assert loaded.skipped.empty_turns == 1
    assert loaded.skipped.places == ["line 2: no visible text"]
    with pytest.raises(InputError) as caught:
        load(path, limits=STRICT)
    assert str(caught.value) == (
        f"file {path}, record line 2, field 'text': text is empty or whitespace only"
    )


def test_jsonl_file_of_empty_messages_holds_nothing(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no message with a visible text"):
        load(_jsonl(tmp_path, _msg(" "), _msg("\u200b", session=2)))


def test_jsonl_identical_repeat_is_skipped_other_refused(tmp_path: Path) -> None:
    first = _msg("hello", id="m1")
    path = _jsonl(tmp_path, first, _msg("next", id="m2"), first)
    loaded = load(path)
    assert _ids(loaded) == [["m1", "m2"]]
    assert loaded.skipped.repeated_turns == 1
    with pytest.raises(InputError) as strict:
        load(path, limits=STRICT)
    assert "record line 3, field 'id': duplicate id 'm1', first used on line 1" in str(strict.value)
    other = _jsonl(tmp_path, first, _msg("hello again", id="m1"))
    with pytest.raises(InputError) as caught:
        load(other)
    assert (caught.value.record, caught.value.field) == ("line 2", "id")
    assert caught.value.hint and "would name two turns" in caught.value.hint


def test_the_api_still_refuses_empty_messages() -> None:
    """``add_messages`` is a caller's call, not an export: an empty message is its error."""
    with pytest.raises(InputError) as caught:
        api_session(
            "c", "s", [{"speaker": "Ana", "text": "hi"}, {"speaker": "Ana", "text": " "}], None, 0
        )
    assert (caught.value.record, caught.value.field) == ("message 1", "text")


# ---------------------------------------------------------------- long turns


@pytest.mark.parametrize("fmt", ["locomo", "longmemeval", "jsonl"])
def test_a_long_turn_is_kept_whole(tmp_path: Path, fmt: str) -> None:
    if fmt == "locomo":
        data: Any = _fixture("locomo_tiny.json")
        _locomo_turns(data, "session_1")[0]["text"] = LONG
        path = _write(tmp_path, data)
    elif fmt == "longmemeval":
        data = _fixture("longmemeval_tiny.json")
        data[0]["haystack_sessions"][0][0]["content"] = LONG
        path = _write(tmp_path, data)
    else:
        path = _jsonl(tmp_path, _msg(LONG))
    turn = load(path).conversations[0].sessions[0].turns[0]
    assert turn.text == LONG and len(turn.text) == 41_800


def test_the_longest_jsonl_message_fits_the_line_limit(tmp_path: Path) -> None:
    """A line at the validator's largest (text and caption of characters written as escaped
    surrogate pairs, 12 bytes each) is read: the line limit does not undercut the text one."""
    worst = 12 * (MAX_TURN_CHARS + MAX_TEXT_CHARS) + 4096  # + the other fields
    assert Settings().max_record_bytes >= worst
    emoji = "\U0001f600"
    path = tmp_path / "big.jsonl"
    message = _msg(emoji * MAX_TURN_CHARS, caption=emoji * MAX_TEXT_CHARS)
    path.write_text(json.dumps(message, ensure_ascii=True), encoding="utf-8")
    assert path.stat().st_size > 12 * MAX_TURN_CHARS
    turn = load(path).conversations[0].sessions[0].turns[0]
    assert len(turn.text) == MAX_TURN_CHARS
