"""The DiscordChatExporter JSON importer: one channel, a folder of channels, what is kept
and left out, times, names, detection, and malformed files."""

from __future__ import annotations

import contextlib
import json
import tempfile
import zipfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem.errors import InputError
from graphmem.ingest.exports import ImportOptions, discord
from graphmem.ingest.formats import ReadLimits, detect_format, load
from tests.unit.ingest.exports.conftest import FIXTURES, Loader, claimed, refused, turns

HERE = FIXTURES / "discord"
CHANNEL = HERE / "written-channel.json"
SERVER = HERE / "written-server"
ROOT = FIXTURES.parent


GENERAL = [
    (
        "Maya",
        "Saturday hike: meet at the north gate at 8.",
        datetime(2021, 3, 2, 8, 15, 2, 123000),
        None,
    ),
    (
        "Tom R.",
        "I'll bring the map and the first-aid kit.",
        datetime(2021, 3, 2, 8, 20, 45, 500000),
        None,
    ),
    ("jo_walks", "Here is the route", datetime(2021, 3, 2, 8, 30, 10), "shared: route.gpx"),
    ("Tom R.", "Can't wait!", datetime(2021, 3, 2, 20, 5), None),
]


def test_channel(load_export: Loader) -> None:
    data = load_export(CHANNEL)
    [conv] = data.conversations
    assert conv.conversation_id == "general"
    assert conv.meta == {"format": "discord", "title": "Hiking Club / #general"}
    # nickname first ("Tom R." for tomr), the user name when it is the same
    assert conv.speakers == ["Maya", "Tom R.", "jo_walks"]
    assert turns(data, "general") == GENERAL
    assert [(s.source_id, len(s.turns)) for s in conv.sessions] == [
        ("2021-03-02", 3),
        ("2021-03-02.2", 1),
    ]
    # the join and the pin; TrailBot's forecast; the photo without words
    assert data.skipped.left_out == {
        "system messages": 2,
        "bot messages": 1,
        "media-only messages": 1,
    }


def test_instants_shown_in_the_users_zone(load_export: Loader) -> None:
    first = turns(load_export(CHANNEL, timezone="Europe/Lisbon"), "general")[0]
    assert first[2] == datetime(2021, 3, 2, 8, 15, 2, 123000)  # Lisbon is UTC+0 in March
    first = turns(load_export(CHANNEL, timezone="America/New_York"), "general")[0]
    assert first[2] == datetime(2021, 3, 2, 3, 15, 2, 123000)


@pytest.mark.parametrize("zipped", [False, True])
def test_folder_of_channels(load_export: Loader, tmp_path: Path, zipped: bool) -> None:
    path = SERVER
    if zipped:
        path = tmp_path / "server.zip"
        with zipfile.ZipFile(path, "w") as z:
            for member in sorted(SERVER.rglob("*")):
                if member.is_file():
                    z.write(member, member.relative_to(SERVER).as_posix())
    data = load_export(path)
    assert [c.conversation_id for c in data.conversations] == ["general", "trips"]
    assert [c.meta["title"] for c in data.conversations] == [
        "Hiking Club / #general",
        "Hiking Club / #trips",
    ]
    assert turns(data, "general") == GENERAL
    assert turns(data, "trips") == [
        ("Maya", "The Sintra loop took us five hours.", datetime(2021, 2, 20, 10, 0), None),
        (
            "Tom R.",
            "Worth it for the views",
            datetime(2021, 2, 20, 10, 6),
            "shared: a sticker (Mountain)",
        ),
    ]
    assert data.skipped.left_out == {
        "system messages": 3,
        "bot messages": 1,
        "media-only messages": 1,
    }


def test_channels_of_one_name_get_their_ids(load_export: Loader, tmp_path: Path) -> None:
    for ident, guild in (("111", "Club A"), ("222", "Club B")):
        doc = _channel([_message("1", "hello from " + guild)], ident=ident, guild=guild)
        (tmp_path / f"{guild}.json").write_text(json.dumps(doc))
    data = load_export(tmp_path)
    assert [c.conversation_id for c in data.conversations] == ["general (111)", "general (222)"]
    assert [c.meta["title"] for c in data.conversations] == [
        "Club A / #general",
        "Club B / #general",
    ]


def test_direct_messages_are_titled_by_the_channel(load_export: Loader, tmp_path: Path) -> None:
    doc = _channel([_message("1", "hi")], guild="Direct Messages")
    doc["channel"] |= {"type": "DirectTextChat", "name": "Maya", "category": "Private"}
    path = tmp_path / "dm.json"
    path.write_text(json.dumps(doc))
    assert load_export(path).conversations[0].meta["title"] == "Maya"


def test_detection() -> None:
    assert detect_format(CHANNEL) == "discord"
    assert detect_format(SERVER) == "discord"


def _others() -> list[Path]:
    found = [p for p in ROOT.glob("*.json*") if p.name != "broken.json"]
    for app in ("chatgpt", "claude", "telegram", "slack", "whatsapp"):
        found += [p for p in (FIXTURES / app).iterdir() if p.suffix in (".json", ".txt", ".zip")]
    return [*found, FIXTURES / "telegram" / "written-export"]


def test_claims_no_other_format() -> None:
    for path in _others():
        assert not claimed(discord.IMPORTER, path), path


# --- malformed files: one InputError naming the file, the record and the field ---


def _written(tmp_path: Path, doc: Any, name: str = "general.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(doc, indent=2))
    return path


def test_messages_not_a_list(load_export: Loader, tmp_path: Path) -> None:
    path = _written(tmp_path, _channel([]) | {"messages": {"id": "1"}})
    exc = refused(load_export, path, "discord")
    assert (exc.path, exc.record, exc.field) == (str(path), None, "messages")


def test_message_without_timestamp(load_export: Loader, tmp_path: Path) -> None:
    message = _message("2", "when?")
    del message["timestamp"]
    path = _written(tmp_path, _channel([_message("1", "ok"), message]))
    exc = refused(load_export, path, "discord")
    assert (exc.path, exc.record, exc.field) == (str(path), "message 1", "timestamp")


def test_unreadable_timestamp(load_export: Loader, tmp_path: Path) -> None:
    path = _written(tmp_path, _channel([_message("1", "ok") | {"timestamp": "yesterday"}]))
    exc = refused(load_export, path, "discord")
    assert (exc.record, exc.field) == ("message 0", "timestamp")


def test_truncated_file(load_export: Loader, tmp_path: Path) -> None:
    text = CHANNEL.read_text()
    path = tmp_path / "general.json"
    path.write_text(text[: text.index("Here is the route")])
    exc = refused(load_export, path, "discord")
    assert exc.path == str(path) and exc.record == "message 5"
    assert "broken JSON" in str(exc)


def test_in_a_folder_the_file_is_named(load_export: Loader, tmp_path: Path) -> None:
    _written(tmp_path, _channel([_message("1", "ok")]), "a.json")
    bad = _written(tmp_path, _channel([_message("1", "x") | {"author": "Maya"}]), "b.json")
    exc = refused(load_export, tmp_path, "discord")
    assert (exc.path, exc.record, exc.field) == (str(bad), "message 0", "author")


# --- generated channels: what is written in the exporter's shape is what is read ---

NAMES = st.text(st.characters(categories=["L", "N"]), min_size=1, max_size=12)
WORDS = st.text(st.characters(categories=["L", "N", "P", "Zs"]), min_size=1, max_size=40).filter(
    str.strip
)


@settings(max_examples=40, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(
    st.lists(
        st.tuples(
            NAMES,
            WORDS,
            st.integers(1_500_000_000_000, 1_900_000_000_000),
            st.integers(-12 * 60, 14 * 60),
        ),
        min_size=1,
        max_size=12,
    )
)
def test_round_trip(rows: list[tuple[str, str, int, int]]) -> None:
    rows = sorted(rows, key=lambda r: r[2])
    instants = [datetime.fromtimestamp(ms / 1000, UTC) for _, _, ms, _ in rows]
    messages = [
        _message(str(i), text, author=name)
        | {"timestamp": when.astimezone(_zone(offset)).isoformat(timespec="milliseconds")}
        for i, ((name, text, _, offset), when) in enumerate(zip(rows, instants, strict=True))
    ]
    with tempfile.TemporaryDirectory() as folder:
        path = _written(Path(folder), _channel(messages))
        data = load(path, "auto", ReadLimits(), ImportOptions(timezone="UTC"))
    got = [
        (t.speaker, t.text, t.timestamp) for s in data.conversations[0].sessions for t in s.turns
    ]
    assert got == [
        (name, text, when.replace(tzinfo=None))
        for (name, text, _, _), when in zip(rows, instants, strict=True)
    ]


def _zone(minutes: int) -> Any:
    from datetime import timezone

    return timezone(timedelta(minutes=minutes))


@settings(max_examples=60, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=5),
        lambda inner: (
            st.lists(inner, max_size=3)
            | st.dictionaries(
                st.sampled_from(
                    ["guild", "channel", "messages", "author", "content", "type", "name"]
                ),
                inner,
                max_size=4,
            )
        ),
        max_leaves=12,
    )
)
def test_any_shape_is_a_dataset_or_an_input_error(doc: Any) -> None:
    with tempfile.TemporaryDirectory() as folder, contextlib.suppress(InputError):
        load(_written(Path(folder), doc), "discord")


def _author(name: str) -> dict[str, Any]:
    return {
        "id": "830000000000000001",
        "name": name.lower(),
        "discriminator": "0000",
        "nickname": name,
        "color": None,
        "isBot": False,
        "roles": [],
        "avatarUrl": "https://cdn.discordapp.com/embed/avatars/0.png",
    }


def _message(ident: str, content: str, author: str = "Maya") -> dict[str, Any]:
    return {
        "id": ident,
        "type": "Default",
        "timestamp": "2021-03-02T09:15:02.123+01:00",
        "timestampEdited": None,
        "callEndedTimestamp": None,
        "isPinned": False,
        "content": content,
        "author": _author(author),
        "attachments": [],
        "embeds": [],
        "stickers": [],
        "reactions": [],
        "mentions": [],
    }


def _channel(messages: list[Any], ident: str = "840", guild: str = "Hiking Club") -> Any:
    return {
        "guild": {"id": "810", "name": guild, "iconUrl": ""},
        "channel": {
            "id": ident,
            "type": "GuildTextChat",
            "categoryId": "850",
            "category": "Text Channels",
            "name": "general",
            "topic": None,
        },
        "dateRange": {"after": None, "before": None},
        "exportedAt": "2024-03-10T12:00:00.0000000+00:00",
        "messages": messages,
        "messageCount": len(messages),
    }
