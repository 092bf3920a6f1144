"""The WhatsApp importer: the line shapes of Android and iOS exports, what is kept and
what is left out, date orders, chat names from file names, zips and folders, refusals."""

from __future__ import annotations

import io
import json
import shutil
import zipfile
from datetime import datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem.errors import InputError
from graphmem.ingest.exports import whatsapp
from graphmem.ingest.formats import ReadLimits, detect_format, read
from graphmem.ingest.models import Dataset
from graphmem.ingest.source import Source
from tests.unit.ingest.exports.conftest import FIXTURES, Loader, claimed, said

HERE = FIXTURES / "whatsapp"
REAL = sorted(p for p in HERE.glob("*.txt") if not p.name.startswith(("written-", "LICENSE")))
# Every written fixture but the two that are no chat (the impossible date is told by name).
WRITTEN = sorted(
    p for p in HERE.glob("written-*") if p.stem not in ("written-empty", "written-not-whatsapp")
)
L, N = "\u200e", "\u202f"


def turns(dataset: Dataset) -> list[tuple[str, str, datetime | None, str | None]]:
    return [
        (t.speaker, said(t)[0], t.timestamp, said(t)[1])
        for c in dataset.conversations
        for s in c.sessions
        for t in s.turns
    ]


def sessions(dataset: Dataset) -> list[str]:
    return [s.source_id for c in dataset.conversations for s in c.sessions]


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8", newline="")
    return path


def test_android_24h_day_first(load_export: Loader) -> None:
    data = load_export(HERE / "written-android-24h-dmy.txt")
    d = datetime
    assert turns(data) == [
        ("Ana", "We land in Lisbon on Friday.", d(2024, 3, 2, 9, 15), None),
        ("Ben", "Great! Which terminal?", d(2024, 3, 2, 9, 16), None),
        ("Ana", "Terminal 1, I think\nLet me check the booking.", d(2024, 3, 2, 9, 17), None),
        ("Ben", "This is the hotel", d(2024, 3, 2, 9, 21), "shared: IMG-20240302-WA0001.jpg"),
        ("Ben", "See you at 10:30 then", d(2024, 3, 2, 9, 23), None),
        (
            "Ana",
            "location: https://maps.google.com/?q=38.7139,-9.1394",
            d(2024, 3, 15, 18, 41),
            None,
        ),
        ("Ben", "Perfect, thanks!", d(2024, 3, 15, 18, 45), None),
    ]
    [chat] = data.conversations
    assert chat.conversation_id == "written-android-24h-dmy"
    assert chat.meta == {"format": "whatsapp", "title": "written-android-24h-dmy"}
    assert chat.speakers == ["Ana", "Ben"]
    assert sessions(data) == ["2024-03-02", "2024-03-15"]
    assert data.skipped.left_out == {
        "deleted messages": 1,
        "media-only messages": 2,  # <Media omitted>, and null (view once)
        "system messages": 2,  # the encryption notice, the missed call
    }


def test_android_12h_month_first_with_narrow_space(load_export: Loader) -> None:
    data = load_export(HERE / "written-android-12h-mdy.txt")
    assert [(s, t, ts) for s, t, ts, _ in turns(data)] == [
        ("Ana", "Happy new year's eve!", datetime(2023, 12, 31, 21, 15)),
        ("Ben", "You too 🎉", datetime(2023, 12, 31, 21, 16)),
        ("Ana", "One minute to go", datetime(2023, 12, 31, 23, 59)),
        ("Ben", "Happy new year!", datetime(2024, 1, 1, 0, 0)),  # 12:00 AM is midnight
        ("Ana", "Lunch at noon-thirty?", datetime(2024, 1, 1, 12, 30)),  # 12:30 PM
    ]
    assert sessions(data) == ["2023-12-31", "2024-01-01"]
    assert data.skipped.left_out == {"media-only messages": 1, "system messages": 1}


def test_ios_seconds_marks_and_crlf(load_export: Loader) -> None:
    data = load_export(HERE / "written-ios-seconds.txt")
    assert [(s, t, ts) for s, t, ts, _ in turns(data)] == [
        ("Ana", "Did you get the tickets?", datetime(2024, 3, 14, 9, 15, 10)),
        ("Ben", "Yes, row 12", datetime(2024, 3, 14, 9, 17, 3)),
        ("Ana", "Meet at the entrance", datetime(2024, 3, 14, 13, 30, 59)),
        (
            "Ana",
            "Location: https://maps.google.com/?q=51.5033,-0.1196",
            datetime(2024, 3, 14, 13, 32, 30),
        ),
        ("Ben", "On my way", datetime(2024, 3, 14, 13, 33)),
    ]
    # 9:17 to 1:30 PM is a pause of more than four hours: the day's second session.
    assert sessions(data) == ["2024-03-14", "2024-03-14.2"]
    assert data.skipped.left_out == {
        "deleted messages": 1,
        "media-only messages": 2,
        "system messages": 2,
    }


def test_year_first(load_export: Loader) -> None:
    data = load_export(HERE / "written-ymd.txt")
    assert [ts for _, _, ts, _ in turns(data)] == [
        datetime(2024, 3, 2, 21, 15),
        datetime(2024, 3, 2, 21, 16),
        datetime(2024, 3, 14, 19, 55),
    ]
    assert data.skipped.left_out == {}


def test_group_of_six_speakers(load_export: Loader) -> None:
    data = load_export(HERE / "written-group.txt")
    [chat] = data.conversations
    assert chat.speakers == ["Ana", "Ben", "Carla", "Dev", "Eli", "+351 912 345 678"]
    said = {(s, t) for s, t, _, _ in turns(data)}
    assert ("+351 912 345 678", "Hi, it's Fatima, Ben's friend") in said
    assert ("Ana", "Welcome @Fatima!") in said  # the mention's isolate marks taken out
    assert (
        "Dev",
        "POLL:\nFlight or train?\nOPTION: Flight (3 votes)\nOPTION: Train (1 vote)",
    ) in said
    assert len(said) == 9
    # encryption, created (a colon in the group's name), added, joined, subject, code, left
    assert data.skipped.left_out == {"system messages": 7}
    assert sessions(data) == ["2024-03-02", "2024-03-13"]
    assert turns(data)[-1][2] == datetime(2024, 3, 13, 8, 0)  # 13.03.24: day first


def test_ios_zip_with_media(load_export: Loader, tmp_path: Path) -> None:
    data = load_export(HERE / "written-ios-export.zip")
    [chat] = data.conversations
    assert chat.conversation_id == "written-ios-export"
    assert turns(data) == [
        ("Ana", "Here is the view from the hotel", datetime(2024, 3, 2, 9, 15), None),
        ("Ben", "Wow, what a view!", datetime(2024, 3, 2, 9, 16, 40), None),
        ("Ben", "Back home now", datetime(2024, 3, 14, 20, 1, 12), None),
    ]
    assert data.skipped.left_out == {"media-only messages": 1, "system messages": 1}
    named = shutil.copy(HERE / "written-ios-export.zip", tmp_path / "WhatsApp Chat - Ana.zip")
    again = load_export(Path(named))
    assert [(c.conversation_id, c.meta["title"]) for c in again.conversations] == [("Ana", "Ana")]
    assert detect_format(Path(named)) == "whatsapp"


def test_ios_folder_and_its_chat_file(load_export: Loader, tmp_path: Path) -> None:
    folder = tmp_path / "WhatsApp Chat - Ben Silva"
    with zipfile.ZipFile(HERE / "written-ios-export.zip") as z:
        z.extractall(folder)
    assert [c.conversation_id for c in load_export(folder).conversations] == ["Ben Silva"]
    alone = load_export(folder / "_chat.txt")
    assert [c.conversation_id for c in alone.conversations] == ["Ben Silva"]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("WhatsApp Chat with Ana.txt", "Ana"),
        ("WhatsApp Chat with Ana (1).txt", "Ana"),  # a second download of the same chat
        ("WhatsApp Chat with Lisbon: trip.txt", "Lisbon: trip"),
        ("WhatsApp Chat mit Ana.txt", "Ana"),
        ("my chat.txt", "my chat"),
    ],
)
def test_chat_name_from_file_name(
    load_export: Loader, tmp_path: Path, name: str, expected: str
) -> None:
    path = Path(shutil.copy(HERE / "written-ymd.txt", tmp_path / name))
    [chat] = load_export(path).conversations
    assert (chat.conversation_id, chat.meta["title"]) == (expected, expected)


def test_android_zip_and_zip_of_two_chats(load_export: Loader, tmp_path: Path) -> None:
    path = tmp_path / "WhatsApp Chat with Ana.zip"
    with zipfile.ZipFile(path, "w") as z:
        z.write(HERE / "written-android-24h-dmy.txt", "WhatsApp Chat with Ana.txt")
        z.writestr("IMG-20240302-WA0001.jpg", b"\xff\xd8\xff\xd9")
        z.write(HERE / "written-group.txt", "WhatsApp Chat with Lisbon trip.txt")
    data = load_export(path)
    assert [c.conversation_id for c in data.conversations] == ["Ana", "Lisbon trip"]
    assert data.skipped.left_out["system messages"] == 2 + 7


def test_standard_input_has_no_name() -> None:
    raw = (HERE / "written-ymd.txt").read_bytes()
    data = read(Source(io.BytesIO(raw), "-", ReadLimits()))
    assert [c.conversation_id for c in data.conversations] == ["whatsapp"]
    assert data.turn_count() == 3


def test_ambiguous_dates_read_day_first_unless_told(load_export: Loader) -> None:
    path = HERE / "written-ambiguous.txt"
    first = [ts for _, _, ts, _ in turns(load_export(path))]
    assert first == [
        datetime(2024, 2, 3, 10, 0),
        datetime(2024, 2, 3, 10, 5),
        datetime(2024, 2, 4, 9, 0),
    ]
    told = [ts for _, _, ts, _ in turns(load_export(path, date_order="mdy"))]
    assert told == [
        datetime(2024, 3, 2, 10, 0),
        datetime(2024, 3, 2, 10, 5),
        datetime(2024, 4, 2, 9, 0),
    ]


def test_an_assumed_date_order_is_reported(load_export: Loader) -> None:
    data = load_export(HERE / "written-ambiguous.txt")
    assert data.turn_count() == 3
    (said_once,) = data.skipped.notes
    assert "day first" in said_once and "--date-order mdy" in said_once
    told = load_export(HERE / "written-ambiguous.txt", date_order="dmy")
    assert told.skipped.notes == []


def test_impossible_date_names_the_line(load_export: Loader) -> None:
    path = HERE / "written-impossible-date.txt"
    with pytest.raises(InputError) as caught:
        load_export(path)
    exc = caught.value
    assert (exc.path, exc.record, exc.field) == (str(path), "line 3", "date")
    assert "31/02/2024" in exc.message


def test_contradicting_dates_refused(load_export: Loader, tmp_path: Path) -> None:
    path = write(
        tmp_path / "mixed.txt",
        "13/01/2024, 10:00 - Ana: day first\n"
        "01/12/2024, 10:00 - Ana: either\n"
        "01/14/2024, 10:00 - Ben: month first\n",
    )
    with pytest.raises(InputError) as caught:
        load_export(path)
    assert (caught.value.record, caught.value.field) == ("line 3", "date")
    assert "line 1" in caught.value.message and "--date-order" in str(caught.value)
    # Told the order, the day-first line cannot exist.
    with pytest.raises(InputError) as told:
        load_export(path, date_order="mdy")
    assert told.value.record == "line 1"


def test_shapes_of_one_file_decide_apart(load_export: Loader) -> None:
    """rb-sample mixes Android month-first and iOS day-first lines."""
    data = load_export(HERE / "rb-sample.txt")
    stamps = [ts for _, _, ts, _ in turns(data)]
    assert stamps[:4] == [
        datetime(2025, 12, 15, 10, 30),
        datetime(2025, 12, 15, 10, 31),
        datetime(2025, 12, 15, 10, 32, 3),
        datetime(2025, 12, 15, 10, 33),
    ]
    assert data.skipped.left_out == {"system messages": 2}


def test_hour_past_twelve_with_marker(load_export: Loader, tmp_path: Path) -> None:
    path = write(tmp_path / "c.txt", "1/14/24, 13:05 PM - Ana: hi\n")
    with pytest.raises(InputError) as caught:
        load_export(path)
    assert (caught.value.record, caught.value.field) == ("line 1", "date")


def test_names_and_marks(load_export: Loader, tmp_path: Path) -> None:
    path = write(
        tmp_path / "names.txt",
        f"[14/03/2024, 09:00:00] ~{N}Ana Lopes: hi {L}there\n"
        f"[14/03/2024, 09:00:01] \U0001f913: emoji only\n"
        f"[14/03/2024, 09:00:02] Ben: report ready\n{L}<attached: 00000001-report.pdf>\n"
        f"[14/03/2024, 09:00:03] Ben: Invoice.pdf • 2 pages {L}document omitted\n"
        f"[14/03/2024, 09:00:04] Ben: {L}Ben changed the group description\n"
        "[14/03/2024, 09:00:05] Carla:\nfirst line\nsecond line\n",
    )
    data = load_export(path)
    assert turns(data) == [
        ("Ana Lopes", f"hi {L}there", datetime(2024, 3, 14, 9, 0), None),  # inner mark kept
        ("\U0001f913 (emoji name)", "emoji only", datetime(2024, 3, 14, 9, 0, 1), None),
        ("Ben", "report ready", datetime(2024, 3, 14, 9, 0, 2), "shared: 00000001-report.pdf"),
        ("Carla", "first line\nsecond line", datetime(2024, 3, 14, 9, 0, 5), None),
    ]
    assert data.skipped.left_out == {"media-only messages": 1, "system messages": 1}


def test_chat_miner_samples_match_their_target(load_export: Loader) -> None:
    target = json.loads((HERE / "chatminer-target.json").read_text(encoding="utf-8"))
    expected = [
        (m["author"], m["message"], datetime.fromisoformat(m["timestamp"])) for m in target
    ][::-1]
    for path in sorted(HERE.glob("chatminer-test_*.txt")):
        got = [
            (s.removesuffix(" (emoji name)"), t.replace("\n", " "), ts)
            for s, t, ts, _ in turns(load_export(path))
        ]
        assert got == expected, path.name


def test_pustur_sample(load_export: Loader) -> None:
    data = load_export(HERE / "pustur-example-2024_chat.txt")
    assert data.skipped.left_out == {"media-only messages": 4, "system messages": 4}
    assert any(t.startswith("POLL:\nWhen can we meet?") for _, t, _, _ in turns(data))
    assert data.conversations[0].speakers == ["John", "Loris", "Emily"]


@pytest.mark.parametrize("path", WRITTEN + REAL, ids=lambda p: p.name)
def test_detected(path: Path) -> None:
    assert detect_format(path) == "whatsapp"


def _others() -> list[Path]:
    tops = [p for p in (FIXTURES.parent).glob("*") if p.is_file()]
    apps = [p for p in FIXTURES.glob("*/*") if p.is_file() and p.parent.name != "whatsapp"]
    return sorted(tops + apps + [HERE / "chatminer-target.json", HERE / "written-not-whatsapp.txt"])


@pytest.mark.parametrize("path", _others(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_claims_no_other_format(path: Path) -> None:
    assert not claimed(whatsapp.IMPORTER, path)


def test_not_whatsapp_falls_to_unknown_format(load_export: Loader) -> None:
    path = HERE / "written-not-whatsapp.txt"
    with pytest.raises(InputError, match="unknown input format"):
        load_export(path)
    with pytest.raises(InputError) as forced:
        load_export(path, fmt="whatsapp")
    assert forced.value.path == str(path)


def test_empty_file(load_export: Loader) -> None:
    path = HERE / "written-empty.txt"
    with pytest.raises(InputError, match="empty"):
        load_export(path)
    with pytest.raises(InputError) as forced:
        load_export(path, fmt="whatsapp")
    assert forced.value.path == str(path)


def test_text_before_the_first_line_is_refused(load_export: Loader, tmp_path: Path) -> None:
    path = write(tmp_path / "c.txt", "\nhello\n02/03/2024, 09:15 - Ana: hi\n")
    with pytest.raises(InputError) as caught:
        load_export(path, fmt="whatsapp")
    assert (caught.value.path, caught.value.record) == (str(path), "line 2")


def test_bad_line_in_a_zip_names_the_member(load_export: Loader, tmp_path: Path) -> None:
    path = tmp_path / "WhatsApp Chat - Ana.zip"
    with zipfile.ZipFile(path, "w") as z:
        z.write(HERE / "written-impossible-date.txt", "_chat.txt")
    with pytest.raises(InputError) as caught:
        load_export(path)
    assert (caught.value.path, caught.value.record) == (f"{path}:_chat.txt", "line 3")


# Round trip: messages written in each app's shape read back as written.
SHAPES = {
    "dmy": lambda t: t.strftime("%d/%m/%Y, %H:%M - "),
    "mdy": lambda t: f"{t.month}/{t.day}/{t:%y}, {int(t.strftime('%I'))}:{t:%M}{N}{t:%p} - ",
    "ios": lambda t: t.strftime(f"{L}[%d.%m.%y, %H:%M:%S] "),
    "ymd": lambda t: t.strftime("%Y-%m-%d, %H:%M - "),
}
_WORDS = st.text(
    alphabet=st.characters(categories=("L", "N", "P", "Zs"), exclude_characters="\u2028\u2029\x85"),
    min_size=1,
    max_size=40,
).map(str.strip)
_SPEAKERS = st.sampled_from(["Ana", "Ben", "Carla Mendes", "Dev-Raj", "+351 912 345 678", "Zoë"])


def _plain(text: str) -> bool:
    """Words the importer keeps as they are (no placeholder, no system phrase, no stamp)."""
    return (
        bool(text)
        and any(ch.isalnum() for ch in text)
        and whatsapp._content(text) == (None, text, None)
        and all(whatsapp.w.HEADER.match(line) is None for line in text.split("\n")[1:])
    )


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    shape=st.sampled_from(sorted(SHAPES)),
    rows=st.lists(
        st.tuples(
            _SPEAKERS,
            st.lists(_WORDS, min_size=1, max_size=3).map("\n".join).filter(_plain),
            st.datetimes(datetime(2001, 1, 1), datetime(2099, 12, 31)),
        ),
        min_size=1,
        max_size=8,
    ),
)
def test_round_trip(load_export: Loader, tmp_path: Path, shape: str, rows: list) -> None:
    precise = shape == "ios"
    rows = [
        (s, t, ts.replace(microsecond=0) if precise else ts.replace(second=0, microsecond=0))
        for s, t, ts in rows
    ]
    rows.sort(key=lambda r: r[2])
    text = "".join(SHAPES[shape](ts) + f"{s}: {t}\n" for s, t, ts in rows)
    path = write(tmp_path / f"rt-{shape}.txt", text)
    order = {"ios": "dmy"}.get(shape, shape)
    data = load_export(path, date_order=order)
    assert [(s, t, ts) for s, t, ts, _ in turns(data)] == rows
