"""The Slack importer: a workspace export, as a folder or as the zip Slack hands out."""

from __future__ import annotations

import json
import shutil
import zipfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphmem.errors import InputError
from graphmem.ingest.exports import slack
from graphmem.ingest.formats import detect_format
from graphmem.ingest.models import Dataset
from graphmem.ingest.source import ReadLimits
from tests.unit.ingest.exports.conftest import FIXTURES, Loader, claimed, everything_but, said

HERE = FIXTURES / "slack"
WRITTEN = HERE / "written-workspace"
SAMPLE = HERE / "slack-export-viewer-testarchive.zip"
OTHERS = everything_but("slack")


def _turns(data: Dataset, cid: str) -> list[tuple[str, str, str, datetime | None, str | None]]:
    conv = next(c for c in data.conversations if c.conversation_id == cid)
    return [
        (s.source_id, t.speaker, said(t)[0], t.timestamp, said(t)[1])
        for s in conv.sessions
        for t in s.turns
    ]


def _copy(tmp_path: Path) -> Path:
    root = tmp_path / "export"
    shutil.copytree(WRITTEN, root)
    return root


def _write(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=4), encoding="utf-8")


def _user(uid: str, real: str, display: str = "", bot: bool = False) -> dict[str, Any]:
    return {
        "id": uid,
        "name": real.lower().replace(" ", "."),
        "real_name": real,
        "profile": {"real_name": real, "display_name": display},
        "is_bot": bot,
        "deleted": False,
    }


def _workspace(root: Path, days: dict[str, list[Any]], **lists: list[Any]) -> Path:
    users = [_user("U1", "Ana Lima", "ana"), _user("U2", "Ben Okafor"), _user("U3", "Carla Reis")]
    _write(root / "users.json", lists.pop("users", users))
    _write(root / "channels.json", lists.pop("channels", [{"id": "C1", "name": "general"}]))
    for name, value in lists.items():
        _write(root / f"{name}.json", value)
    for name, items in days.items():
        _write(root / name, items)
    return root


def _said(uid: str, ts: str, text: str, **extra: Any) -> dict[str, Any]:
    return {"type": "message", "user": uid, "text": text, "ts": ts, **extra}


@pytest.mark.parametrize("path", [WRITTEN, HERE / "written-workspace.zip", SAMPLE])
def test_detects_slack_exports(path: Path) -> None:
    assert detect_format(path) == "slack"


@pytest.mark.parametrize("path", [WRITTEN, HERE / "written-workspace.zip"])
def test_written_workspace(load_export: Loader, path: Path) -> None:
    data = load_export(path)
    assert [c.conversation_id for c in data.conversations] == [
        "general",
        "trip-planning",
        "Ana Lima, Ben Okafor",
    ]
    titles = [c.meta["title"] for c in data.conversations]
    assert titles == ["#general", "#trip-planning", "DM: Ana Lima, Ben Okafor"]
    assert all(c.meta["format"] == "slack" for c in data.conversations)
    assert _turns(data, "general") == [
        (
            "2024-03-01",
            "Ana Lima",
            "Welcome @Ben Okafor! Plans are in #trip-planning & the doc here "
            "(https://docs.example.com/trip)",
            datetime(2024, 3, 1, 9, 15, 2),
            None,
        ),
        ("2024-03-01", "Ben Okafor", "Thanks! Looking now", datetime(2024, 3, 1, 9, 20), None),
        # The thread's reply a day later stays where its time puts it.
        ("2024-03-02", "Ben Okafor", "Read it all, looks great", datetime(2024, 3, 2, 8), None),
        # Edited: the export holds the edited text.
        ("2024-03-02", "Ana Lima", "Dinner moved to 8pm, not 7", datetime(2024, 3, 2, 8, 30), None),
    ]
    assert _turns(data, "trip-planning") == [
        (
            "2024-03-02",
            "Ana Lima",
            "Here is the itinerary",
            datetime(2024, 3, 2, 14),
            "shared: itinerary.pdf",
        ),
        (
            "2024-03-03",
            "Ben Okafor",
            "@here flights booked for @Ana Lima and me <3",
            datetime(2024, 3, 3, 19, 30),
            None,
        ),
        (
            "2024-03-03",
            "Ana Lima",
            "Hotel is near maps.example.com/?q=alfama",
            datetime(2024, 3, 3, 19, 45),
            None,
        ),
    ]
    assert [t[1:3] for t in _turns(data, "Ana Lima, Ben Okafor")] == [
        ("Ana Lima", "Did you pay for the hotel?"),
        ("Ben Okafor", "Yes, sending the receipt"),
    ]
    assert data.skipped.left_out == {
        "bot messages": 2,
        "channel events": 1,
        "deleted messages": 1,
        "join and leave messages": 1,
        "media-only messages": 1,
    }
    assert data.skipped.empty_turns == 0


def test_times_are_shown_in_the_users_zone(load_export: Loader) -> None:
    data = load_export(WRITTEN, timezone="America/New_York")
    first = _turns(data, "general")[0]
    assert first[0] == "2024-03-01"
    assert first[3] == datetime(2024, 3, 1, 4, 15, 2)


def test_real_sample_archive(load_export: Loader) -> None:
    data = load_export(SAMPLE)
    counts = {c.conversation_id: sum(len(s.turns) for s in c.sessions) for c in data.conversations}
    assert counts == {"enrique": 30, "traveling-sailor": 20}
    assert data.skipped.left_out == {
        "bot messages": 94,
        "channel events": 3,
        "join and leave messages": 8,
        "media-only messages": 3,
    }
    first = _turns(data, "enrique")[0]
    assert first[1] == "Hamza Faran"
    assert first[2].startswith("@Harry Potter: Created an issue for a setup.py")
    assert first[3] == datetime.fromtimestamp(1452837352, UTC).replace(tzinfo=None)
    speakers = next(
        c.speakers for c in data.conversations if c.conversation_id == "traveling-sailor"
    )
    assert set(speakers) <= {"Hamza Faran", "Harry Potter", "Hermione Granger", "Ron Weasley"}


def test_a_zip_with_the_export_one_folder_down(load_export: Loader, tmp_path: Path) -> None:
    packed = tmp_path / "slack.zip"
    with zipfile.ZipFile(packed, "w") as out:
        for p in sorted(WRITTEN.rglob("*.json")):
            out.write(p, "My Workspace Slack export/" + p.relative_to(WRITTEN).as_posix())
    assert detect_format(packed) == "slack"
    assert len(load_export(packed).conversations) == 3


def test_unlisted_folder_still_imports(load_export: Loader, tmp_path: Path) -> None:
    root = _copy(tmp_path)
    _write(root / "random" / "2024-03-05.json", [_said("U01ANA", "1709640000.000100", "hi")])
    data = load_export(root)
    assert data.conversations[-1].conversation_id == "random"
    assert _turns(data, "random") == [
        ("2024-03-05", "Ana Lima", "hi", datetime(2024, 3, 5, 12), None)
    ]


def test_dms_named_by_the_other_member_when_the_owner_is_known(
    load_export: Loader, tmp_path: Path
) -> None:
    root = _workspace(
        tmp_path / "x",
        {
            "D12/2024-03-01.json": [_said("U2", "1709290000.000100", "dm one")],
            "D13/2024-03-01.json": [_said("U3", "1709290000.000100", "dm two")],
            "mpdm-ana--ben--carla-1/2024-03-01.json": [_said("U1", "1709290000.000100", "all")],
        },
        dms=[{"id": "D12", "members": ["U1", "U2"]}, {"id": "D13", "members": ["U3", "U1"]}],
        mpims=[{"id": "G1", "name": "mpdm-ana--ben--carla-1", "members": ["U1", "U2", "U3"]}],
    )
    data = load_export(root)
    assert [(c.conversation_id, c.meta["title"]) for c in data.conversations] == [
        ("Ben Okafor", "DM with Ben Okafor"),
        ("Carla Reis", "DM with Carla Reis"),
        ("Ana Lima, Ben Okafor, Carla Reis", "Group DM: Ana Lima, Ben Okafor, Carla Reis"),
    ]


def test_a_repeated_name_gets_the_channel_id(load_export: Loader, tmp_path: Path) -> None:
    root = _workspace(
        tmp_path / "x",
        {
            "Ben Okafor/2024-03-01.json": [_said("U1", "1709290000.000100", "a channel")],
            "D12/2024-03-01.json": [_said("U2", "1709290000.000100", "a dm")],
            "D13/2024-03-01.json": [_said("U2", "1709290000.000100", "a dm")],
        },
        channels=[{"id": "C9", "name": "Ben Okafor"}],
        dms=[{"id": "D12", "members": ["U1", "U2"]}, {"id": "D13", "members": ["U1", "U3"]}],
    )
    ids = [c.conversation_id for c in load_export(root).conversations]
    assert ids == ["Ben Okafor", "Ben Okafor (D12)", "Carla Reis"]


def test_markup_and_speaker_fallbacks(load_export: Loader, tmp_path: Path) -> None:
    messages = [
        _said("U1", "1709290000.000001", "<#C1> <#C7|ops> <!channel> <!subteam^S1|@devs> <@U9>"),
        _said(
            "U1",
            "1709290001.000001",
            "<mailto:a@b.pt|a@b.pt> <https://x.pt/a?b=1&amp;c=2> 1 &lt; 2",
        ),
        {
            "type": "message",
            "user": "U8",
            "text": "guest",
            "ts": "1709290002.000001",
            "user_profile": {"real_name": "", "display_name": "Guest G"},
        },
        _said("U7", "1709290003.000001", "nobody knows me"),
        _said("U1", "1709290004.000001", "waves", subtype="me_message"),
        _said("U1", "1709290005.000001", "", attachments=[{"fallback": "a link"}]),
        _said("U1", "1709290006.000001", "x", subtype="channel_purpose"),
        _said("U1", "1709290007.000001", "old", subtype="message_changed"),
        _said("U1", "1709290008.000001", "sshh", hidden=True),
        {"type": "message", "subtype": "bot_message", "text": "beep", "ts": "1709290009.000001"},
    ]
    root = _workspace(tmp_path / "x", {"general/2024-03-01.json": messages})
    data = load_export(root)
    assert [t[1:3] for t in _turns(data, "general")] == [
        ("Ana Lima", "#general #ops @channel @devs @U9"),
        ("Ana Lima", "a@b.pt https://x.pt/a?b=1&c=2 1 < 2"),
        ("Guest G", "guest"),
        ("U7", "nobody knows me"),
        ("Ana Lima", "waves"),
    ]
    assert data.skipped.left_out == {
        "bot messages": 1,
        "channel events": 1,
        "edit events": 1,
        "hidden messages": 1,
        "media-only messages": 1,
    }


def test_messages_sorted_by_ts_across_day_files(load_export: Loader, tmp_path: Path) -> None:
    root = _workspace(
        tmp_path / "x",
        {
            "general/2024-03-01.json": [
                _said("U2", "1709290000.000300", "third"),
                _said("U1", "1709290000.000200", "second"),
            ],
            "general/2024-03-02.json": [_said("U1", "1709200000.000100", "first")],
        },
    )
    assert [t[2] for t in _turns(load_export(root), "general")] == ["first", "second", "third"]


@pytest.mark.parametrize(
    ("content", "record", "field"),
    [
        ([17], "general/2024-03-01.json message 1", None),
        (
            [{"type": "message", "user": "U1", "text": "no time"}],
            "general/2024-03-01.json message 1",
            "ts",
        ),
        ([_said("U1", "soon", "bad time")], "general/2024-03-01.json message 1", "ts"),
        (
            [_said("U1", "1709290000.1", "ok"), _said("U1", "1709290001.1", 5)],
            "general/2024-03-01.json message 2",
            "text",
        ),
        (
            [{"type": "message", "text": "who?", "ts": "1709290000.1"}],
            "general/2024-03-01.json message 1",
            "user",
        ),
    ],
)
def test_malformed_messages(
    load_export: Loader, tmp_path: Path, content: list[Any], record: str, field: str | None
) -> None:
    root = _workspace(tmp_path / "x", {"general/2024-03-01.json": content})
    with pytest.raises(InputError) as caught:
        load_export(root)
    assert caught.value.path == str(root / "general" / "2024-03-01.json")
    assert caught.value.record == record
    assert caught.value.field == field


def test_broken_json_and_a_user_without_id(load_export: Loader, tmp_path: Path) -> None:
    root = _workspace(tmp_path / "x", {"general/2024-03-01.json": []})
    (root / "general" / "2024-03-01.json").write_text('[{"type": "message", ', encoding="utf-8")
    with pytest.raises(InputError, match="broken JSON") as caught:
        load_export(root)
    assert caught.value.path == str(root / "general" / "2024-03-01.json")
    _write(root / "users.json", [{"id": 5, "name": "anon"}])
    with pytest.raises(InputError) as caught:
        load_export(root, fmt="slack")
    assert (caught.value.path, caught.value.record, caught.value.field) == (
        str(root / "users.json"),
        "user 1",
        "id",
    )


def test_not_a_slack_export_when_forced(load_export: Loader, tmp_path: Path) -> None:
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "notes.json").write_text("[]", encoding="utf-8")
    with pytest.raises(InputError, match="not a Slack export"):
        load_export(tmp_path / "x", fmt="slack")


@pytest.mark.parametrize("path", OTHERS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_claims_no_other_format(path: Path) -> None:
    assert not claimed(slack.IMPORTER, path)


_WORDS = st.text(alphabet=st.sampled_from("abc XYZ&<>:é!\n"), min_size=1, max_size=30).filter(
    lambda t: any(ch.isalnum() for ch in t)
)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["U1", "U2", "U3"]), _WORDS, st.integers(0, 10**6)),
        min_size=1,
        max_size=12,
    )
)
def test_round_trip(
    tmp_path_factory: pytest.TempPathFactory, messages: list[tuple[str, str, int]]
) -> None:
    """Messages written as Slack writes them (escaped) come back as they were said."""
    from graphmem.ingest.exports import ImportOptions
    from graphmem.ingest.formats import load

    start = 1709290000
    rows = [
        _said(
            uid,
            f"{start + offset}.{i:06d}",
            text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"),
        )
        for i, (uid, text, offset) in enumerate(messages)
    ]
    root = _workspace(tmp_path_factory.mktemp("rt") / "x", {"general/2024-03-01.json": rows})
    data = load(root, "auto", ReadLimits(), ImportOptions(timezone="UTC"))
    names = {"U1": "Ana Lima", "U2": "Ben Okafor", "U3": "Carla Reis"}
    expected = sorted(
        ((offset, i), names[uid], text) for i, (uid, text, offset) in enumerate(messages)
    )
    got = [t[1:4] for t in _turns(data, "general")]
    assert [(s, t) for s, t, _ in got] == [(s, t) for _, s, t in expected]
    assert [w for _, _, w in got] == [
        datetime.fromtimestamp(start + k[0], UTC).replace(tzinfo=None) for k, _, _ in expected
    ]
