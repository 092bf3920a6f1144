"""The ChatGPT export importer: the branch on screen, what it leaves out, times, ids, titles,
detection, and the malformed files it refuses."""

from __future__ import annotations

import json
import zipfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem.errors import InputError
from graphmem.ingest.exports import chatgpt
from graphmem.ingest.exports.bundle import ZipBundle
from graphmem.ingest.formats import ReadLimits, detect_format
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

HERE = FIXTURES / "chatgpt"
WRITTEN = HERE / "written-conversations.json"
ALL_FIXTURES = paths.FIXTURES
T0 = 1709370902.0  # 2024-03-02T09:15:02Z


def node(nid: str, parent: str | None, role: str | None, text: str = "", **extra: Any) -> Any:
    """One mapping node as the export writes it (``role`` None: the root, no message)."""
    message = None
    if role is not None:
        message = {
            "id": nid,
            "author": {"role": role, "name": None, "metadata": {}},
            "create_time": extra.pop("create_time", None),
            "update_time": None,
            "content": extra.pop("content", {"content_type": "text", "parts": [text]}),
            "status": "finished_successfully",
            "end_turn": None,
            "weight": 1.0,
            "metadata": extra.pop("metadata", {}),
            "recipient": extra.pop("recipient", "all"),
            "channel": None,
        }
    return {"id": nid, "message": message, "parent": parent, "children": []}


def conversation(cid: str, title: str, nodes: list[Any], current: object = "last") -> Any:
    mapping = {n["id"]: n for n in nodes}
    for n in nodes:
        if n["parent"] in mapping:
            mapping[n["parent"]]["children"].append(n["id"])
    return {
        "title": title,
        "create_time": T0,
        "update_time": T0,
        "mapping": mapping,
        "moderation_results": [],
        "current_node": nodes[-1]["id"] if current == "last" else current,
        "conversation_id": cid,
        "id": cid,
    }


def linear(cid: str, title: str, said: list[tuple[str, str, float | None]]) -> Any:
    nodes = [node("root", None, None)]
    for i, (role, text, at) in enumerate(said):
        nodes.append(node(f"n{i}", nodes[-1]["id"], role, text, create_time=at))
    return conversation(cid, title, nodes)


def test_written_export_keeps_the_branch_on_screen(load_export: Loader) -> None:
    dataset = load_export(WRITTEN)
    assert [c.conversation_id for c in dataset.conversations] == [
        "aaa1f0c2",
        "bbb2e1d3",
        "ccc3d2e4",
    ]
    assert [c.meta for c in dataset.conversations] == [
        {"format": "chatgpt", "title": "Lisbon trip"},
        {"format": "chatgpt", "title": "Ferry to Cacilhas"},
        {"format": "chatgpt", "title": "What is this tile?"},
    ]
    lisbon = turns(dataset, 0)
    assert lisbon[:3] == [
        (
            "User",
            "We land in Lisbon on Friday 8 March. What should we see first?",
            datetime(2024, 3, 2, 9, 15, 2),
            None,
        ),
        # The regenerated answer, not the first one ("See the Belém tower first.").
        (
            "Assistant",
            "Begin in Alfama: walk up to the castle, then down to the river.",
            datetime(2024, 3, 2, 9, 16, 2),
            None,
        ),
        ("User", "And a whole day plan?", datetime(2024, 3, 2, 9, 19, 2), None),
    ]
    speaker, long_answer, at, _ = lisbon[3]
    assert (speaker, at) == ("Assistant", datetime(2024, 3, 2, 9, 20, 2, 250000))
    assert len(long_answer) > 3000 and long_answer.startswith("Start at the Castelo de São Jorge")
    assert dataset.conversations[0].speakers == ["User", "Assistant"]


def test_written_export_leaves_out_and_counts(load_export: Loader) -> None:
    assert load_export(WRITTEN).skipped.left_out == {
        "hidden messages": 1,  # the custom instructions
        "media-only messages": 1,  # the second photo, sent without words
        "messages of other branches": 1,  # the first, regenerated, answer
        "reasoning messages": 1,
        "system messages": 1,
        "tool messages": 3,  # the browser call, its page and its quote
    }


def test_tool_calls_leave_the_answer_and_a_pause_splits_sessions(load_export: Loader) -> None:
    ferry = load_export(WRITTEN).conversations[1]
    assert [s.source_id for s in ferry.sessions] == ["2024-03-03", "2024-03-03.2"]
    assert [(t.speaker, t.text) for s in ferry.sessions for t in s.turns] == [
        ("User", "When does the ferry to Cacilhas leave on Sundays?"),
        (
            "Assistant",
            "On Sundays the ferry leaves Cais do Sodré every 20 minutes from 07:00. 【0†ttsl.pt】",
        ),
        ("User", "We missed it. Is there a late one?"),
        ("Assistant", "Yes: the last one leaves at 01:40."),
    ]


def test_an_upload_is_named_once_and_an_undated_answer_stays(load_export: Loader) -> None:
    tile = turns(load_export(WRITTEN), 2)
    assert tile[0] == (
        "User",
        "What pattern is this azulejo?",
        datetime(2024, 3, 4, 10),
        "shared: IMG_2041.jpeg",
    )
    assert tile[1][:2] == (
        "Assistant",
        "A blue and white *ponta de diamante* pattern, 17th century.",
    )
    # No create_time: undated, in the session of the message before it (the load gives an
    # undated turn its session's start).
    assert tile[2][:2] == ("Assistant", "That one is a later copy of the same pattern.")
    assert len(load_export(WRITTEN).conversations[2].sessions) == 1


def test_zip_and_folder_read_as_the_file(load_export: Loader, tmp_path: Path) -> None:
    assert_read_as_the_file(
        load_export, HERE / "written-export.zip", WRITTEN, tmp_path / "unpacked"
    )


def test_times_are_shown_in_the_users_zone(load_export: Loader) -> None:
    dataset = load_export(WRITTEN, timezone="America/New_York")
    assert turns(dataset)[0][2] == datetime(2024, 3, 2, 4, 15, 2)
    assert dataset.conversations[0].sessions[0].source_id == "2024-03-02"


# -- the real samples --------------------------------------------------------------------


def test_librechat_sample(load_export: Loader) -> None:
    dataset = load_export(HERE / "librechat-chatgpt-modern-export.json")
    # The "Corrupted entry" without a mapping is counted, not refused; the third
    # conversation shares its first 8 characters with the first, so it keeps its full id.
    assert [c.conversation_id for c in dataset.conversations] == [
        "6b0f0d9c",
        "6b0f0d9c-0000-4000-8000-000000000003",
    ]
    assert dataset.skipped.left_out == {"empty conversations": 1, "hidden messages": 1}
    assert turns(dataset, 1) == [
        ("User", "Something with anchovies?", datetime(2025, 8, 24, 2, 3, 21), None),
        ("Assistant", "Puttanesca.", datetime(2025, 8, 24, 2, 3, 22), None),
    ]


def test_polylogue_sample_a_single_conversation_object(load_export: Loader) -> None:
    path = HERE / "polylogue-native-conversation-v1.json"
    assert detect_format(path) == "chatgpt"
    dataset = load_export(path)
    assert dataset.conversations[0].meta["title"] == "Privacy-safe ChatGPT native fixture"
    assert dataset.skipped.left_out == {
        "messages of other branches": 1,
        "reasoning messages": 2,
        "system messages": 1,
        "tool messages": 2,
    }
    got = turns(dataset)
    assert got[0] == (
        "User",
        "Analyze the attached fixture and create an artifact.",
        datetime.fromtimestamp(1784164540.0, UTC).replace(tzinfo=None),
        "shared: input.txt, an image",
    )
    assert got[1][0] == "Assistant" and got[1][1].startswith("Final answer.")
    assert got[1][3] == "shared: an image"


# -- detection ---------------------------------------------------------------------------


@pytest.mark.parametrize("path", samples_but("chatgpt"), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_claims_no_other_format(path: Path) -> None:
    assert not claimed(chatgpt.IMPORTER, path)


def test_claims_a_renamed_export(tmp_path: Path) -> None:
    path = write(tmp_path, [linear("d00d", "t", [("user", "hi", T0)])], "my-chats.json")
    assert detect_format(path) == "chatgpt"


def test_a_zip_without_conversations_json_is_not_claimed(tmp_path: Path) -> None:
    path = tmp_path / "other.zip"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("chat.html", "<html></html>")
    bundle = ZipBundle(path, ReadLimits())
    try:
        assert not chatgpt.IMPORTER.claims(bundle)
    finally:
        bundle.close()


# -- scale -------------------------------------------------------------------------------


def test_a_thousand_conversations_and_a_long_answer(load_export: Loader, tmp_path: Path) -> None:
    answer = "Paragraph about Lisbon trams. " * 400  # 12,000 characters
    convs = [
        linear(
            f"{i:08x}-1111-4222-8333-444455556666",
            f"Chat {i}",
            [("user", f"question {i}", T0 + i * 86400), ("assistant", answer, T0 + i * 86400 + 5)],
        )
        for i in range(1000)
    ]
    dataset = load_export(write(tmp_path, convs))
    assert len(dataset.conversations) == 1000
    assert dataset.conversations[999].conversation_id == "000003e7"
    assert dataset.conversations[999].meta["title"] == "Chat 999"
    assert turns(dataset, 999)[1][1] == answer


# -- malformed files ---------------------------------------------------------------------


def _refused(load_export: Loader, path: Path, **options: Any) -> InputError:
    with pytest.raises(InputError) as caught:
        load_export(path, **options)
    return caught.value


def test_a_cycle_is_refused(load_export: Loader, tmp_path: Path) -> None:
    conv = linear("cafe0001", "Loop", [("user", "a", T0), ("assistant", "b", T0 + 1)])
    conv["mapping"]["root"]["parent"] = "n1"
    path = write(tmp_path, [linear("beef0001", "Fine", [("user", "x", T0)]), conv])
    exc = _refused(load_export, path)
    assert (exc.path, exc.record, exc.field) == (str(path), "conversation 2 ('Loop')", "mapping")
    assert "cycle" in str(exc)


@pytest.mark.parametrize(
    ("current", "said"), [(None, "missing"), ("gone", "'gone', a node the mapping lacks")]
)
def test_a_missing_current_node_is_refused(
    load_export: Loader, tmp_path: Path, current: object, said: str
) -> None:
    conv = linear("cafe0002", "Lost", [("user", "a", T0)])
    conv["current_node"] = current
    path = write(tmp_path, [conv])
    exc = _refused(load_export, path)
    assert (exc.path, exc.record, exc.field) == (
        str(path),
        "conversation 1 ('Lost')",
        "current_node",
    )
    assert said in str(exc)


def test_a_parent_link_to_no_node_is_refused(load_export: Loader, tmp_path: Path) -> None:
    conv = linear("cafe0003", "Orphan", [("user", "a", T0)])
    conv["mapping"]["n0"]["parent"] = "nowhere"
    exc = _refused(load_export, write(tmp_path, [conv]))
    assert (exc.record, exc.field) == ("conversation 1 ('Orphan')", "parent")


@pytest.mark.parametrize(
    ("change", "record", "field"),
    [
        (
            lambda c: c["mapping"]["n0"]["message"].update(create_time="soon"),
            "conversation 1 message 1",
            "create_time",
        ),
        (
            lambda c: c["mapping"]["n0"]["message"].update(content="hi"),
            "conversation 1 message 1",
            "content",
        ),
        (
            lambda c: c["mapping"]["n0"]["message"]["content"].update(parts="hi"),
            "conversation 1 message 1",
            "content.parts",
        ),
        (lambda c: c.update(mapping=["n0"]), "conversation 1 ('T')", "mapping"),
        (
            lambda c: [c.pop("conversation_id"), c.pop("id")],
            "conversation 1 ('T')",
            "conversation_id",
        ),
    ],
)
def test_malformed_fields_are_refused(
    load_export: Loader, tmp_path: Path, change: Any, record: str, field: str
) -> None:
    conv = linear("cafe0004", "T", [("user", "a", T0)])
    change(conv)
    path = write(tmp_path, [conv])
    exc = _refused(load_export, path)
    assert (exc.path, exc.record, exc.field) == (str(path), record, field)


def test_broken_json_names_the_zip_member(load_export: Loader, tmp_path: Path) -> None:
    path = tmp_path / "export.zip"
    text = json.dumps([linear("cafe0005", "T", [("user", "a", T0)])])
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("conversations.json", text[: len(text) // 2])
    exc = _refused(load_export, path)
    assert exc.path == f"{path}:conversations.json" and "broken JSON" in str(exc)


def test_a_claude_file_given_as_chatgpt_says_so(load_export: Loader) -> None:
    exc = _refused(load_export, FIXTURES / "claude" / "written-conversations.json", fmt="chatgpt")
    assert exc.field == "mapping" and "--format claude" in str(exc)


# -- rules at the edges ------------------------------------------------------------------


def test_two_conversations_sharing_8_characters(load_export: Loader, tmp_path: Path) -> None:
    convs = [
        linear("12345678-aaaa", "One", [("user", "a", T0)]),
        linear("12345678-bbbb", "Two", [("user", "b", T0)]),
    ]
    got = load_export(write(tmp_path, convs))
    assert [c.conversation_id for c in got.conversations] == ["12345678", "12345678-bbbb"]


def test_parts_code_and_media(load_export: Loader, tmp_path: Path) -> None:
    image = {"content_type": "image_asset_pointer", "asset_pointer": "file-service://file-x"}
    nodes = [
        node("root", None, None),
        node(
            "u",
            "root",
            "user",
            create_time=T0,
            content={"content_type": "multimodal_text", "parts": ["one", "", image, "two"]},
        ),
        node(
            "a",
            "u",
            "assistant",
            create_time=T0 + 1,
            content={"content_type": "code", "language": "python", "text": "print(1)"},
        ),
        node("e", "a", "user", create_time=T0 + 2, content={"content_type": "text", "parts": [""]}),
    ]
    got = load_export(write(tmp_path, [conversation("cafe0006", "Media", nodes)]))
    assert turns(got) == [
        ("User", "one\n\ntwo", datetime(2024, 3, 2, 9, 15, 2), "shared: an image"),
        ("Assistant", "print(1)", datetime(2024, 3, 2, 9, 15, 3), None),
    ]
    assert got.skipped.empty_turns == 1


# -- round trip --------------------------------------------------------------------------

# Texts a turn keeps: some character shows (an all-blank text is an empty turn, skipped).
_WORDS = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=40).filter(
    lambda s: any(c.isprintable() and not c.isspace() for c in s)
)
_SAID = st.lists(st.tuples(st.sampled_from(["user", "assistant"]), _WORDS), min_size=1, max_size=6)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(chats=st.lists(_SAID, min_size=1, max_size=4), branch=st.booleans())
def test_round_trip(load_export: Loader, tmp_path: Path, chats: list[Any], branch: bool) -> None:
    convs = []
    for i, lines in enumerate(chats):
        conv = linear(
            f"{i:08d}-x", f"chat {i}", [(r, t, T0 + 60 * k) for k, (r, t) in enumerate(lines)]
        )
        if branch:  # an older answer beside the first message: never read
            conv["mapping"]["old"] = node("old", "n0", "assistant", "older", create_time=T0)
        convs.append(conv)
    got = load_export(write(tmp_path, convs))
    assert [c.conversation_id for c in got.conversations] == [f"{i:08d}" for i in range(len(chats))]
    for i, lines in enumerate(chats):
        expected = [
            (
                {"user": "User", "assistant": "Assistant"}[r],
                t,
                datetime.fromtimestamp(T0 + 60 * k, UTC).replace(tzinfo=None),
                None,
            )
            for k, (r, t) in enumerate(lines)
        ]
        assert turns(got, i) == expected
    assert got.skipped.left_out == ({"messages of other branches": len(chats)} if branch else {})


# -- any shape: a dataset or one InputError, never a crash -------------------------------

_KEYS = [
    "title",
    "create_time",
    "mapping",
    "current_node",
    "conversation_id",
    "id",
    "message",
    "parent",
    "children",
    "author",
    "role",
    "content",
    "content_type",
    "parts",
    "text",
    "metadata",
    "recipient",
    "attachments",
    "name",
    "asset_pointer",
    "is_visually_hidden_from_conversation",
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
        load_export(path, fmt="chatgpt")
    except InputError as exc:
        assert exc.path is not None
