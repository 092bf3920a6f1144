"""``graphmem eval chat``'s questions: each checked against the turns of the input before
anything is built, a bad line one InputError naming it and its field."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from graphmem.errors import InputError
from graphmem.eval.chat import space_name, with_questions
from graphmem.ingest.formats import load
from tests.paths import FIXTURES

GROUP = FIXTURES / "exports" / "whatsapp" / "written-group.txt"
QUESTIONS = FIXTURES / "questions" / "whatsapp-group.jsonl"


def _write(tmp_path: Path, rows: list[Any]) -> Path:
    path = tmp_path / "questions.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_the_questions_join_their_conversation_and_categories() -> None:
    dataset, names = with_questions(load(GROUP), QUESTIONS)
    items = dataset.qa["written-group"]
    assert [q.evidence for q in items] == [["2024-03-02:4"], ["2024-03-02:5"], ["2024-03-02:7"]]
    assert [names[q.category or 0] for q in items] == ["single-hop", "single-hop", "poll"]
    assert items[1].answer == "Ben's friend"


@pytest.mark.parametrize(
    ("row", "field", "said"),
    [
        ({"question": "Q?", "evidence": ["2099-01-01:0"]}, "evidence", "no turn"),
        ({"question": "Q?", "evidence": []}, "evidence", "is empty"),
        ({"question": " ", "evidence": ["2024-03-02:4"]}, "question", "empty"),
        (
            {"conversation": "Bob", "question": "Q?", "evidence": ["x"]},
            "conversation",
            "no conversation",
        ),
        ({"question": "Q?", "evidence": "2024-03-02:4"}, "evidence", "expected a list"),
    ],
)
def test_a_bad_question_names_its_line_and_field(
    row: dict[str, Any], field: str, said: str, tmp_path: Path
) -> None:
    good = {"question": "Which dates?", "evidence": ["2024-03-02:4"]}
    with pytest.raises(InputError) as caught:
        with_questions(load(GROUP), _write(tmp_path, [good, row]))
    assert (caught.value.record, caught.value.field) == ("line 2", field)
    assert said in str(caught.value)


def test_broken_json_and_no_question_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "q.jsonl"
    path.write_text('{"question": \n')
    with pytest.raises(InputError, match="broken JSON"):
        with_questions(load(GROUP), path)
    path.write_text("\n\n")
    with pytest.raises(InputError, match="holds no question"):
        with_questions(load(GROUP), path)


def test_a_space_name_holds_no_character_of_the_conversation_id() -> None:
    name = space_name("chat", "Ana Lima, Ben / #general")
    assert name.startswith("chat-") and len(name) == len("chat-") + 12
    assert name == space_name("chat", "Ana Lima, Ben / #general")
