"""The Claude.ai export importer: texts from content blocks, what it leaves out, attachments,
times, ids, titles, detection, and the malformed files it refuses."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem.errors import InputError
from graphmem.ingest.exports import claude
from graphmem.ingest.formats import detect_format
from tests import paths

from .conftest import (
    FIXTURES,
    Loader,
    any_json,
    assert_read_as_the_file,
    claimed,
    samples_but,
    turns,
)
from .conftest import write_conversations as write

HERE = FIXTURES / "claude"
WRITTEN = HERE / "written-conversations.json"
ALL_FIXTURES = paths.FIXTURES
PLACEHOLDER = "\n```\nThis block is not supported on your current device yet.\n```\n"


def message(sender: str, text: str, at: str | None, **extra: Any) -> Any:
    """One chat message as the export writes it; ``content`` given or one text block."""
    blocks = [{"type": "text", "text": text, "citations": []}] if text else []
    return {
        "uuid": f"m-{sender}-{at}",
        "text": text,
        "content": extra.pop("content", blocks),
        "sender": sender,
        "created_at": at,
        "updated_at": at,
        "attachments": extra.pop("attachments", []),
        "files": extra.pop("files", []),
    }


def conversation(uuid: str, name: str, messages: list[Any]) -> Any:
    return {
        "uuid": uuid,
        "name": name,
        "created_at": "2024-05-10T08:30:00.000000Z",
        "updated_at": "2024-05-10T08:30:00.000000Z",
        "account": {"uuid": "acc"},
        "chat_messages": messages,
    }


def _refused(load_export: Loader, path: Path, **options: Any) -> InputError:
    with pytest.raises(InputError) as caught:
        load_export(path, **options)
    return caught.value


# -- the written fixture -----------------------------------------------------------------


def test_written_export(load_export: Loader) -> None:
    dataset = load_export(WRITTEN)
    assert [c.conversation_id for c in dataset.conversations] == ["5e1a9c04", "9b3f7a21"]
    assert [c.meta for c in dataset.conversations] == [
        {"format": "claude", "title": "Lease renewal"},
        {"format": "claude", "title": "Weather in Porto"},
    ]
    assert dataset.conversations[0].speakers == ["User", "Assistant"]
    assert turns(dataset, 0) == [
        (
            "User",
            "Can you check the notice period in my lease?",
            datetime(2024, 5, 10, 8, 30, 0, 118204),
            "shared: lease.txt",
        ),
        (
            "Assistant",
            "The lease asks for 60 days' written notice, from either side.",
            datetime(2024, 5, 10, 8, 30, 7, 330012),
            None,
        ),
        # The photo sent alone is left out; the one sent with words is named.
        (
            "User",
            "Here is the meter reading. Is it mine to pay?",
            datetime(2024, 5, 10, 8, 41, 2),
            "shared: meter2.jpg",
        ),
        (
            "Assistant",
            "Yes: utilities are the tenant's under clause 4.",
            datetime(2024, 5, 10, 8, 41, 12, 902311),
            None,
        ),
    ]
    assert [s.source_id for s in dataset.conversations[0].sessions] == ["2024-05-10"]


def test_tool_and_thinking_blocks_are_left_out(load_export: Loader) -> None:
    dataset = load_export(WRITTEN)
    assert turns(dataset, 1)[1] == (
        "Assistant",
        "Let me check the forecast.\n\nLight rain is expected in Porto tomorrow afternoon, "
        "about 4 mm.",
        datetime(2024, 5, 11, 18, 0, 21),
        None,
    )
    assert dataset.skipped.left_out == {
        "media-only messages": 1,
        "reasoning blocks": 1,
        "tool blocks": 2,
    }


def test_zip_and_folder_read_as_the_file(load_export: Loader, tmp_path: Path) -> None:
    assert_read_as_the_file(
        load_export, HERE / "written-export.zip", WRITTEN, tmp_path / "unpacked"
    )


def test_times_are_shown_in_the_users_zone(load_export: Loader) -> None:
    got = turns(load_export(WRITTEN, timezone="Europe/Lisbon"))
    assert got[0][2] == datetime(2024, 5, 10, 9, 30, 0, 118204)  # WEST, UTC+1


# -- the real samples --------------------------------------------------------------------


def test_polylogue_samples(load_export: Loader) -> None:
    simple = load_export(HERE / "polylogue-real-claude-simple.json")  # one object, no list
    assert simple.conversations[0].conversation_id == "conv-01H"
    assert simple.conversations[0].meta["title"] == "Simple Claude AI Conversation"
    assert [(s, at) for s, _, at, _ in turns(simple)] == [
        ("User", datetime(2024, 1, 15, 10, 30)),
        ("Assistant", datetime(2024, 1, 15, 10, 31)),
        ("User", datetime(2024, 1, 15, 10, 33)),
        ("Assistant", datetime(2024, 1, 15, 10, 35)),
    ]
    attached = turns(load_export(HERE / "polylogue-real-claude-with-attachments.json"))
    assert attached[0][1] == "Can you review this Python file I've attached?"
    assert attached[0][3] == "shared: utils.py"  # in attachments and files: named once
    tool = load_export(HERE / "polylogue-golden-claude_tool-conversations.json")
    assert turns(tool) == [
        (
            "User",
            "Hello. Please run a command and show the result. Also see attachments.",
            datetime(2024, 1, 1),
            "shared: note.txt, image.svg",
        ),
        ("Assistant", "Done.", datetime(2024, 1, 1, 0, 0, 1), None),
    ]
    assert tool.skipped.left_out == {"tool blocks": 2}


# -- text without content blocks ---------------------------------------------------------


def test_text_field_when_there_are_no_blocks(load_export: Loader, tmp_path: Path) -> None:
    msgs = [
        message("human", "Plan my week", "2024-05-10T08:30:00Z"),
        message("assistant", "Let me look." + PLACEHOLDER + "Monday: gym.", "2024-05-10T08:31:00Z"),
        message("assistant", PLACEHOLDER, "2024-05-10T08:32:00Z"),
        message("assistant", "", "2024-05-10T08:33:00Z", files=[{"file_name": "plan.png"}]),
    ]
    for m in msgs[1:]:
        m["content"] = []
    tool = {"type": "tool_use", "name": "web_search", "input": {"query": "gym"}}
    msgs.append(message("assistant", "ignored", "2024-05-10T08:34:00Z", content=[tool]))
    got = load_export(write(tmp_path, [conversation("00aa11bb-cc", "Week", msgs)]))
    assert [t[1] for t in turns(got)] == ["Plan my week", "Let me look.\n\nMonday: gym."]
    # The last one has blocks, only a tool's: its ``text`` is not read.
    assert got.skipped.left_out == {"media-only messages": 1, "tool blocks": 1, "tool messages": 2}


# -- detection ---------------------------------------------------------------------------


@pytest.mark.parametrize("path", samples_but("claude"), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_claims_no_other_format(path: Path) -> None:
    assert not claimed(claude.IMPORTER, path)


@pytest.mark.parametrize("name", sorted(p.name for p in HERE.glob("*.json")))
def test_detects_every_sample(name: str) -> None:
    assert detect_format(HERE / name) == "claude"


# -- scale -------------------------------------------------------------------------------


def test_a_thousand_conversations_and_a_long_answer(load_export: Loader, tmp_path: Path) -> None:
    answer = "A paragraph on tenancy law in Portugal. " * 300  # 12,000 characters
    convs = [
        conversation(
            f"{i:08x}-1111-4222-8333-444455556666",
            f"Chat {i}",
            [
                message("human", f"question {i}", f"2024-05-{1 + i % 28:02d}T08:00:00Z"),
                message("assistant", answer, f"2024-05-{1 + i % 28:02d}T08:00:09Z"),
            ],
        )
        for i in range(1000)
    ]
    dataset = load_export(write(tmp_path, convs))
    assert len(dataset.conversations) == 1000
    assert dataset.conversations[999].conversation_id == "000003e7"
    assert turns(dataset, 999)[1][1] == answer


# -- malformed files ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "record", "field"),
    [
        (lambda c: c.pop("uuid"), "conversation 1 ('Lease')", "uuid"),
        (lambda c: c.update(chat_messages={}), "conversation 1 ('Lease')", "chat_messages"),
        (
            lambda c: c["chat_messages"][0].update(sender="system"),
            "conversation 1 message 1",
            "sender",
        ),
        (
            lambda c: c["chat_messages"][1].update(created_at="yesterday"),
            "conversation 1 message 2",
            "created_at",
        ),
        (
            lambda c: c["chat_messages"][0].update(content="hi"),
            "conversation 1 message 1",
            "content",
        ),
        (
            lambda c: c["chat_messages"][0].update(attachments="lease.txt"),
            "conversation 1 message 1",
            "attachments",
        ),
        (
            lambda c: c["chat_messages"][0].update(content=[], text=3),
            "conversation 1 message 1",
            "text",
        ),
    ],
)
def test_malformed_fields_are_refused(
    load_export: Loader, tmp_path: Path, change: Any, record: str, field: str
) -> None:
    conv = conversation(
        "5e1a9c04-x",
        "Lease",
        [
            message("human", "hi", "2024-05-10T08:30:00Z"),
            message("assistant", "hello", "2024-05-10T08:30:05Z"),
        ],
    )
    change(conv)
    path = write(tmp_path, [conv])
    exc = _refused(load_export, path, fmt="claude")
    assert (exc.path, exc.record, exc.field) == (str(path), record, field)


def test_a_chatgpt_file_given_as_claude_says_so(load_export: Loader) -> None:
    path = FIXTURES / "chatgpt" / "written-conversations.json"
    exc = _refused(load_export, path, fmt="claude")
    assert exc.record == "conversation 1 ('Lisbon trip')" and exc.field == "chat_messages"
    assert "--format chatgpt" in str(exc)


def test_empty_conversations_are_counted(load_export: Loader, tmp_path: Path) -> None:
    convs = [
        conversation("e0000000-1", "Nothing", []),
        conversation("e0000000-2", "Hi", [message("human", "hi", "2024-05-10T08:30:00Z")]),
    ]
    got = load_export(write(tmp_path, convs))
    # An empty conversation takes no id: the other keeps the short one.
    assert [c.conversation_id for c in got.conversations] == ["e0000000"]
    assert got.skipped.left_out == {"empty conversations": 1}


def test_an_export_of_only_empty_conversations_is_refused(
    load_export: Loader, tmp_path: Path
) -> None:
    path = write(tmp_path, [conversation("e0000000-1", "Nothing", [])])
    exc = _refused(load_export, path)
    assert exc.path == str(path) and "1 empty conversations" in str(exc)


# -- round trip --------------------------------------------------------------------------

_WORDS = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=40).filter(
    lambda s: any(c.isprintable() and not c.isspace() for c in s)
)
_SAID = st.lists(st.tuples(st.sampled_from(["human", "assistant"]), _WORDS), min_size=1, max_size=6)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(chats=st.lists(_SAID, min_size=1, max_size=4), blocks=st.booleans())
def test_round_trip(load_export: Loader, tmp_path: Path, chats: list[Any], blocks: bool) -> None:
    convs = []
    for i, lines in enumerate(chats):
        msgs = [message(s, t, f"2024-05-10T08:{k:02d}:00Z") for k, (s, t) in enumerate(lines)]
        for m in msgs:
            if not blocks:
                m["content"] = []
        convs.append(conversation(f"{i:08d}-x", f"chat {i}", msgs))
    got = load_export(write(tmp_path, convs))
    assert [c.conversation_id for c in got.conversations] == [f"{i:08d}" for i in range(len(chats))]
    for i, lines in enumerate(chats):
        names = {"human": "User", "assistant": "Assistant"}
        assert turns(got, i) == [
            (names[s], t, datetime(2024, 5, 10, 8, k), None) for k, (s, t) in enumerate(lines)
        ]


# -- any shape: a dataset or one InputError, never a crash -------------------------------

_KEYS = [
    "uuid",
    "name",
    "created_at",
    "chat_messages",
    "text",
    "sender",
    "content",
    "type",
    "attachments",
    "files",
    "file_name",
    "extracted_content",
]
_JSON = any_json(_KEYS)


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(doc=st.lists(_JSON, min_size=1, max_size=3))
def test_any_shape_is_a_dataset_or_an_input_error(
    load_export: Loader, tmp_path: Path, doc: Any
) -> None:
    path = write(tmp_path, doc)
    try:
        load_export(path, fmt="claude")
    except InputError as exc:
        assert exc.path is not None
