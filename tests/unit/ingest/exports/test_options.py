"""The options of an import, one rule for the CLI and Python: sessions split at pauses and
named by date, instants shown in the chosen zone, bad options refused as usage errors
(exit 2) before a file is read, and ``--dry-run`` saying what a file holds."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from graphmem.cli.main import cli
from graphmem.config import Settings
from graphmem.errors import ConfigError
from graphmem.ingest.exports import ImportOptions
from graphmem.ingest.exports.assemble import to_dataset
from graphmem.ingest.exports.base import Context, Message
from graphmem.ingest.exports.stamps import Clock, zone_named


def _messages(times: list[datetime | None]) -> list[Message]:
    return [
        Message("chat", "Ana" if i % 2 else "Ben", f"message {i}", at, f"message {i}")
        for i, at in enumerate(times)
    ]


def test_a_long_pause_starts_a_session_named_by_its_date() -> None:
    times = [
        datetime(2024, 3, 2, 9, 0),
        datetime(2024, 3, 2, 9, 30),
        None,  # undated: stays with the message before
        datetime(2024, 3, 2, 18, 0),  # 8.5 h later: a new session, the day's second
        datetime(2024, 3, 5, 8, 0),
    ]
    ctx = Context("chat.txt", ImportOptions(timezone="UTC"))
    data = to_dataset(_messages(times), ctx, "whatsapp", strict=False)
    sessions = data.conversations[0].sessions
    assert [s.source_id for s in sessions] == ["2024-03-02", "2024-03-02.2", "2024-03-05"]
    assert [len(s.turns) for s in sessions] == [3, 1, 1]
    assert sessions[0].turns[0].source_id == "2024-03-02:0"
    wide = Context("chat.txt", ImportOptions(timezone="UTC", session_gap_minutes=10_000))
    assert len(to_dataset(_messages(times), wide, "whatsapp", False).conversations[0].sessions) == 1


@given(st.lists(st.datetimes(min_value=datetime(2000, 1, 1)) | st.none(), min_size=1, max_size=30))
def test_sessions_cover_every_message_once_with_distinct_names(
    times: list[datetime | None],
) -> None:
    ctx = Context("chat.txt", ImportOptions(timezone="UTC"))
    data = to_dataset(_messages(times), ctx, "csv", strict=False)
    sessions = data.conversations[0].sessions
    assert sum(len(s.turns) for s in sessions) == len(times)
    assert len({s.source_id for s in sessions}) == len(sessions)
    texts = [t.text for s in sessions for t in s.turns]
    assert texts == [f"message {i}" for i in range(len(times))]


def test_instants_are_shown_in_the_zone_and_local_times_kept() -> None:
    lisbon = Clock(zone_named("Europe/Lisbon"))
    # 2024-07-01 12:00 UTC is 13:00 in Lisbon (summer time), in seconds and milliseconds
    assert lisbon.any(1719835200) == datetime(2024, 7, 1, 13, 0)
    assert lisbon.any("1719835200000") == datetime(2024, 7, 1, 13, 0)
    assert lisbon.any("2024-07-01T12:00:00Z") == datetime(2024, 7, 1, 13, 0)
    assert lisbon.any("2024-07-01T12:00:00") == datetime(2024, 7, 1, 12, 0)
    for bad in ("yesterday", True, float("nan"), -5, "1e400"):
        with pytest.raises(ValueError, match="expected epoch seconds"):
            lisbon.any(bad)


def test_an_unknown_zone_is_a_usage_error() -> None:
    with pytest.raises(ConfigError, match="unknown time zone"):
        ImportOptions(timezone="Mars/Olympus")
    assert ImportOptions.of(Settings(import_timezone="UTC")).timezone == "UTC"
    assert ImportOptions.of(Settings(), timezone="Asia/Tokyo").timezone == "Asia/Tokyo"


@pytest.mark.parametrize(
    ("option", "value", "said"),
    [
        ("--timezone", "Mars/Olympus", "unknown time zone"),
        ("--map", "speaker=From,words=Body", "expected FIELD=COLUMN"),
        ("--map", "speaker", "expected FIELD=COLUMN"),
        ("--session-gap", "0", "0 is not in the range"),
        ("--date-order", "dym", "is not one of"),
    ],
)
def test_a_bad_import_option_exits_2_before_reading(
    option: str, value: str, said: str, tmp_path: Path
) -> None:
    path = tmp_path / "chat.jsonl"
    path.write_text('{"conversation": "c", "session": 1, "speaker": "A", "text": "hi"}\n')
    done = CliRunner().invoke(
        cli, ["ingest", str(path), "--space", "s", "--dry-run", option, value]
    )
    assert done.exit_code == 2, done.output
    assert said in done.output and "Traceback" not in done.output


def test_a_dry_run_says_what_a_file_holds_and_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    rows = [
        {
            "conversation": "c",
            "session": 1,
            "speaker": "Ana",
            "text": "hi",
            "timestamp": "2024-03-02T09:00",
        },
        {"conversation": "c", "session": 1, "speaker": "Ben", "text": " "},
        {"conversation": "d", "session": 1, "speaker": "Ana", "text": "hello"},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    # No server is asked: the run would fail to reach one (the settings point nowhere).
    env = {"NEO4J_URI": "bolt://127.0.0.1:1"}
    done = CliRunner(env=env).invoke(cli, ["ingest", str(path), "--space", "s", "--dry-run"])
    assert done.exit_code == 0, done.output
    assert "jsonl: 2 conversations, 2 sessions, 2 turns (1 undated)" in done.output
    assert "1 empty turn" in done.output and "nothing written" in done.output
    as_json = CliRunner(env=env).invoke(
        cli, ["ingest", str(path), "--space", "s", "--dry-run", "--json"]
    )
    summary = json.loads(as_json.output)
    assert (summary["turns"], summary["speakers"], summary["first"]) == (
        2,
        1,
        "2024-03-02 09:00:00",
    )


def test_what_is_left_out_is_counted_in_words() -> None:
    from graphmem.ingest.models import Skipped

    left = {"hidden messages": 1, "messages of other branches": 1, "tool blocks": 2}
    assert Skipped(left_out=left).describe() == (
        "left out 1 hidden message, 1 message of other branches, 2 tool blocks"
    )
    both = Skipped(empty_turns=1, places=["line 2: no visible text"], left_out={"bot messages": 3})
    assert both.describe() == (
        "skipped 1 empty turn, 0 repeated sessions, 0 repeated turns (first: line 2: no "
        "visible text); left out 3 bot messages"
    )


def test_a_jsonl_file_takes_epoch_times_in_the_chosen_zone(tmp_path: Path) -> None:
    from graphmem.errors import InputError
    from graphmem.ingest.formats import ReadLimits, load

    rows = [
        {"conversation": "c", "session": 1, "speaker": "Ana", "text": "a", "timestamp": 1719835200},
        {
            "conversation": "c",
            "session": 1,
            "speaker": "Ben",
            "text": "b",
            "timestamp": "1719835260000",
        },
        {
            "conversation": "c",
            "session": 1,
            "speaker": "Ana",
            "text": "c",
            "timestamp": "2024-07-01T12:02:00",
        },
    ]
    path = tmp_path / "chat.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    data = load(path, "auto", ReadLimits(), ImportOptions(timezone="Europe/Lisbon"))
    times = [t.timestamp for t in data.conversations[0].sessions[0].turns]
    # epochs are instants (13:00 in Lisbon's summer time); the ISO stamp is kept as written
    assert times == [
        datetime(2024, 7, 1, 13, 0),
        datetime(2024, 7, 1, 13, 1),
        datetime(2024, 7, 1, 12, 2),
    ]
    path.write_text(json.dumps({**rows[0], "timestamp": -5}) + "\n")
    with pytest.raises(InputError) as caught:
        load(path)
    assert (caught.value.record, caught.value.field) == ("line 1", "timestamp")


def test_the_api_reads_a_message_time_by_the_files_rule() -> None:
    from pydantic import TypeAdapter, ValidationError

    from graphmem.ingest.jsonl import api_session
    from graphmem.serving.limits import MessageMoment

    lisbon = Clock(zone_named("Europe/Lisbon"))
    messages = [
        {"speaker": "Ana", "text": "a", "timestamp": 1719835200},
        {"speaker": "Ben", "text": "b", "timestamp": "2024-07-01T12:02:00"},
    ]
    conv = api_session("c", "s", messages, None, 0, lisbon)
    assert [t.timestamp for t in conv.sessions[0].turns] == [
        datetime(2024, 7, 1, 13, 0),
        datetime(2024, 7, 1, 12, 2),
    ]
    # HTTP and MCP hand the value over as given, so add_messages reads it as above
    moment = TypeAdapter(MessageMoment)
    assert moment.validate_python(1719835200) == 1719835200
    assert moment.validate_python("1719835200000") == "1719835200000"
    for bad in ("next tuesday", True, [1]):
        with pytest.raises(ValidationError):
            moment.validate_python(bad)
