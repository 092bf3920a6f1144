"""The Telegram Desktop JSON importer: one chat, the whole export (file, folder, zip),
what is kept and left out, times, names, detection, and malformed files."""

from __future__ import annotations

import contextlib
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem.errors import InputError
from graphmem.ingest.exports import telegram
from graphmem.ingest.formats import detect_format
from graphmem.ingest.models import Dataset
from tests.unit.ingest.exports.conftest import FIXTURES, Loader, claimed, refused, turns

HERE = FIXTURES / "telegram"
PERSONAL = HERE / "written-personal-result.json"
FOLDER = HERE / "written-export"
ZIP = HERE / "written-export.zip"
ROOT = FIXTURES.parent  # the LoCoMo, LongMemEval and JSONL fixtures


def _sessions(dataset: Dataset, cid: str) -> list[tuple[str, int]]:
    conv = next(c for c in dataset.conversations if c.conversation_id == cid)
    return [(s.source_id, len(s.turns)) for s in conv.sessions]


def test_personal_chat(load_export: Loader) -> None:
    data = load_export(PERSONAL)
    [conv] = data.conversations
    assert conv.conversation_id == "Ana Lima"
    assert conv.meta == {"format": "telegram", "title": "Ana Lima"}
    assert conv.speakers == ["Ben Okafor", "Ana Lima"]
    assert turns(data, "Ana Lima") == [
        (
            "Ben Okafor",
            "Did you see the tickets? https://example.org/lisbon",
            datetime(2024, 3, 2, 9, 15, 2),
            None,
        ),
        ("Ana Lima", "Yes! Booked for Friday.", datetime(2024, 3, 2, 9, 16, 40), None),
        ("Ana Lima", "The view from the hotel", datetime(2024, 3, 2, 9, 20, 11), "shared: a photo"),
        (
            "Ben Okafor",
            "Trams run late on Fridays.",
            datetime(2024, 3, 2, 9, 25, 30),
            "forwarded from Lisbon Travel News",
        ),
        ("Ana Lima", "Good to know, thanks", datetime(2024, 3, 2, 9, 26, 2), None),
        ("Ben Okafor", "See you at the airport at 7", datetime(2024, 3, 3, 18, 5), None),
    ]
    assert _sessions(data, "Ana Lima") == [("2024-03-02", 5), ("2024-03-03", 1)]
    # the phone call; the sticker and the voice message
    assert data.skipped.left_out == {"service messages": 1, "media-only messages": 2}


def test_instants_shown_in_the_users_zone(load_export: Loader) -> None:
    """date_unixtime is the instant: in Lisbon (UTC+0 in March) and in Tokyo (UTC+9)."""
    first = turns(load_export(PERSONAL, timezone="Asia/Tokyo"), "Ana Lima")[0]
    assert first[2] == datetime(2024, 3, 2, 18, 15, 2)


def test_date_alone_is_kept_as_written(load_export: Loader, tmp_path: Path) -> None:
    """An older export without date_unixtime: its local date, whatever the zone."""
    chat = _chat([_message(1, "Ana", "hello", unix=False)])
    data = load_export(_write(tmp_path, chat), timezone="Asia/Tokyo")
    assert turns(data, "Ana Lima")[0][2] == datetime(2024, 3, 2, 9, 0)


@pytest.mark.parametrize("path", [FOLDER, ZIP, FOLDER / "result.json"])
def test_whole_export(load_export: Loader, path: Path) -> None:
    data = load_export(path)
    assert [c.conversation_id for c in data.conversations] == [
        "Ana Lima",
        "Lisbon Trip",
        "Saved Messages",
        "Book Club",  # a chat the user left
    ]
    assert [c.meta.get("title") for c in data.conversations] == [
        "Ana Lima",
        "Lisbon Trip",
        "Saved Messages",
        "Book Club",
    ]
    group = data.conversations[1]
    # a deleted account (from null) is its from_id
    assert group.speakers == ["Ben Okafor", "Carla Souza", "Dev Patel", "Ana Lima", "user555"]
    assert turns(data, "Lisbon Trip")[1] == (
        "Carla Souza",
        "Itinerary attached",
        datetime(2024, 3, 1, 20, 2, 30),
        "shared: itinerary.pdf",
    )
    assert turns(data, "Lisbon Trip")[2][1] == "I can drive us to the airport, ping @benokafor"
    assert turns(data, "Lisbon Trip")[5][1] == "Poll: Dinner on Friday? (Seafood, Pizza)"
    assert turns(data, "Saved Messages") == [
        ("Ben Okafor", "Passport is in the blue folder", datetime(2024, 2, 28, 8, 0), None),
        ("Ben Okafor", "Gate code 4471", datetime(2024, 2, 28, 8, 1), None),
    ]
    assert _sessions(data, "Lisbon Trip") == [("2024-03-01", 6)]
    assert data.skipped.left_out == {"service messages": 4, "media-only messages": 3}


def test_chat_miner_samples(load_export: Loader) -> None:
    """The real (minimal) samples: no name, no id, no date; entities joined as written."""
    single = load_export(HERE / "chatminer-test_single_export.json")
    batch = load_export(HERE / "chatminer-test_batch_export.json")
    expected = [
        ("Author 1", "Minimal Message", datetime(2018, 12, 5, 10, 39, 10), None),
        ("Author 2", "Link:https://telegram.org/", datetime(2018, 12, 5, 10, 49, 24), None),
    ]
    assert turns(single, "Telegram chat") == expected
    assert single.conversations[0].meta == {"format": "telegram"}
    assert turns(batch, "Chatname") == expected


def test_detection() -> None:
    for path in (PERSONAL, FOLDER, ZIP, *HERE.glob("chatminer-test_*.json")):
        assert detect_format(path) == "telegram", path


def _others() -> list[Path]:
    found = [p for p in ROOT.glob("*.json*") if p.name not in ("broken.json",)]
    for app in ("chatgpt", "claude", "discord", "slack", "whatsapp"):
        found += [p for p in (FIXTURES / app).glob("*") if p.suffix in (".json", ".txt", ".zip")]
    found += [FIXTURES / "discord" / "written-server"]
    return [p for p in found if p.exists()]


def test_claims_no_other_format() -> None:
    for path in _others():
        assert not claimed(telegram.IMPORTER, path), path


def test_chats_of_one_name_get_their_ids(load_export: Loader, tmp_path: Path) -> None:
    """Two contacts called Alex, whichever comes first: both named with their id."""
    chats = [
        _chat([_message(1, "Alex", "first Alex")], name="Alex", ident=7),
        _chat([_message(1, "Alex", "second Alex")], name="Alex", ident=9),
        _chat([_message(1, "Ana", "hi")], name="Ana", ident=3),
    ]
    doc = {"about": "", "personal_information": {}, "chats": {"about": "", "list": chats}}
    data = load_export(_write(tmp_path, doc))
    assert [c.conversation_id for c in data.conversations] == ["Alex (7)", "Alex (9)", "Ana"]
    assert [c.meta["title"] for c in data.conversations] == ["Alex", "Alex", "Ana"]


def test_key_order_does_not_matter(load_export: Loader, tmp_path: Path) -> None:
    """A file rewritten with sorted keys has "messages" before "name" and "type"."""
    chat = _chat([_message(1, "Ana", "hello"), _message(2, "Ben", "hi")])
    path = tmp_path / "result.json"
    path.write_text(json.dumps(chat, sort_keys=True))
    data = load_export(path)
    assert [c.conversation_id for c in data.conversations] == ["Ana Lima"]
    assert data.conversations[0].speakers == ["Ana", "Ben"]


def test_emoji_name_keeps_its_id(load_export: Loader, tmp_path: Path) -> None:
    chat = _chat([_message(1, "🌸", "hello")])
    assert load_export(_write(tmp_path, chat)).conversations[0].speakers == ["🌸 (user1)"]


# --- malformed files: one InputError naming the file, the record and the field ---


def test_messages_not_a_list(load_export: Loader, tmp_path: Path) -> None:
    doc = {"about": "", "chats": {"list": [_chat([]) | {"messages": {"id": 1}}]}}
    exc = refused(load_export, _write(tmp_path, doc), "telegram")
    assert (exc.path, exc.record, exc.field) == (
        str(tmp_path / "result.json"),
        "chat 0",
        "messages",
    )


def test_message_without_date(load_export: Loader, tmp_path: Path) -> None:
    message = _message(2, "Ana", "when?")
    del message["date"], message["date_unixtime"]
    exc = refused(
        load_export, _write(tmp_path, _chat([_message(1, "Ana", "ok"), message])), "telegram"
    )
    assert (exc.path, exc.record, exc.field) == (str(tmp_path / "result.json"), "message 1", "date")
    assert "date_unixtime" in str(exc)


def test_unreadable_date(load_export: Loader, tmp_path: Path) -> None:
    message = _message(1, "Ana", "when?") | {"date_unixtime": "soon"}
    exc = refused(load_export, _write(tmp_path, _chat([message])), "telegram")
    assert (exc.record, exc.field) == ("message 0", "date_unixtime")


def test_truncated_file(load_export: Loader, tmp_path: Path) -> None:
    text = PERSONAL.read_text()
    path = tmp_path / "result.json"
    path.write_text(text[: text.index('"Good to know')])
    exc = refused(load_export, path, "telegram")
    assert exc.path == str(path) and exc.record == "message 6"
    assert "broken JSON" in str(exc)


def test_text_of_wrong_type(load_export: Loader, tmp_path: Path) -> None:
    exc = refused(
        load_export, _write(tmp_path, _chat([_message(1, "Ana", "x") | {"text": 3}])), "telegram"
    )
    assert (exc.record, exc.field) == ("message 0", "text")


def test_in_a_zip_the_record_names_the_member(load_export: Loader, tmp_path: Path) -> None:
    import zipfile

    path = tmp_path / "export.zip"
    bad = _chat([_message(1, "Ana", "x") | {"from": 5}])
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("Export/result.json", json.dumps(bad))
    exc = refused(load_export, path, "telegram")
    assert (exc.path, exc.record, exc.field) == (f"{path}:Export/result.json", "message 0", "from")


# --- generated chats: what is written in Telegram's shape is what is read ---

NAMES = st.text(st.characters(categories=["L", "N"]), min_size=1, max_size=12)
WORDS = st.text(st.characters(categories=["L", "N", "P", "Zs"]), min_size=1, max_size=40).filter(
    str.strip
)
PIECES = st.lists(
    st.one_of(WORDS, st.builds(lambda t: {"type": "bold", "text": t}, WORDS)), min_size=1
)


@settings(max_examples=40, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(
    st.lists(
        st.tuples(NAMES, st.one_of(WORDS, PIECES), st.integers(1_500_000_000, 1_900_000_000)),
        min_size=1,
        max_size=12,
    )
)
def test_round_trip(rows: list[tuple[str, Any, int]]) -> None:
    import tempfile

    from graphmem.ingest.exports import ImportOptions
    from graphmem.ingest.formats import ReadLimits, load

    rows = sorted(rows, key=lambda r: r[2])
    messages = [
        {
            "id": i,
            "type": "message",
            "date": datetime.fromtimestamp(t, UTC).replace(tzinfo=None).isoformat(),
            "date_unixtime": str(t),
            "from": name,
            "from_id": f"user{i}",
            "text": text,
        }
        for i, (name, text, t) in enumerate(rows)
    ]
    with tempfile.TemporaryDirectory() as folder:
        path = _write(Path(folder), _chat(messages))
        data = load(path, "auto", ReadLimits(), ImportOptions(timezone="UTC"))
    got = [
        (t.speaker, t.text, t.timestamp) for s in data.conversations[0].sessions for t in s.turns
    ]
    joined = [t if isinstance(t, str) else "".join(_piece(p) for p in t) for _, t, _ in rows]
    assert got == [
        (name.strip(), text, datetime.fromtimestamp(t, UTC).replace(tzinfo=None))
        for (name, _, t), text in zip(rows, joined, strict=True)
    ]


def _piece(piece: Any) -> str:
    return piece if isinstance(piece, str) else str(piece["text"])


@settings(max_examples=60, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=5),
        lambda inner: (
            st.lists(inner, max_size=3)
            | st.dictionaries(
                st.sampled_from(
                    ["messages", "chats", "list", "text", "from", "date", "type", "name"]
                ),
                inner,
                max_size=4,
            )
        ),
        max_leaves=12,
    )
)
def test_any_shape_is_a_dataset_or_an_input_error(doc: Any) -> None:
    import tempfile

    from graphmem.ingest.formats import load

    with tempfile.TemporaryDirectory() as folder, contextlib.suppress(InputError):
        load(_write(Path(folder), doc), "telegram")


def _message(ident: int, sender: str, text: Any, unix: bool = True) -> dict[str, Any]:
    stamp = {"date": "2024-03-02T09:00:00"} | ({"date_unixtime": "1709370000"} if unix else {})
    return {"id": ident, "type": "message", **stamp, "from": sender, "from_id": "user1"} | {
        "text": text
    }


def _chat(messages: list[dict[str, Any]], name: str = "Ana Lima", ident: int = 222) -> Any:
    return {"name": name, "type": "personal_chat", "id": ident, "messages": messages}


def _write(folder: Path, doc: Any) -> Path:
    path = folder / "result.json"
    path.write_text(json.dumps(doc, ensure_ascii=False, indent=1))
    return path
