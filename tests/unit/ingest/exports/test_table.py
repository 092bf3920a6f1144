"""The CSV/TSV importer: header recognition, --map, dates, quoting and refusals."""

from __future__ import annotations

import csv
import io
import zipfile
from datetime import datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphmem.errors import ConfigError, InputError
from graphmem.ingest.exports import ImportOptions, table
from graphmem.ingest.exports.bundle import FolderBundle, StreamBundle
from graphmem.ingest.formats import detect_format, load
from graphmem.ingest.models import Dataset
from graphmem.ingest.source import ReadLimits, open_source
from tests.unit.ingest.exports.conftest import FIXTURES, Loader, claimed, everything_but

HERE = FIXTURES / "csv"
MAPPED = {"speaker": "Who", "text": "What", "timestamp": "Sent on"}
OTHERS = everything_but("csv")

Row = tuple[str, str, str, datetime | None]


def _turns(data: Dataset, cid: str | None = None) -> list[Row]:
    conv = next(c for c in data.conversations if cid is None or c.conversation_id == cid)
    return [(s.source_id, t.speaker, t.text, t.timestamp) for s in conv.sessions for t in s.turns]


def _file(tmp_path: Path, text: str, name: str = "chat.csv") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    return path


def _refused(load_export: Loader, path: Path, **options: object) -> InputError:
    with pytest.raises(InputError) as caught:
        load_export(path, fmt="csv", **options)
    assert caught.value.path == str(path)
    return caught.value


@pytest.mark.parametrize(
    "name", ["written-chat.csv", "written-messages.tsv", "written-multiline.csv"]
)
def test_detects_recognised_headers(name: str) -> None:
    assert detect_format(HERE / name) == "csv"


def test_chat_with_conversation_column(load_export: Loader) -> None:
    data = load_export(HERE / "written-chat.csv")
    assert [c.conversation_id for c in data.conversations] == ["trip", "work"]
    assert all("title" not in c.meta and c.meta["format"] == "csv" for c in data.conversations)
    assert _turns(data, "trip") == [
        ("2024-03-02", "Ana", "We land in Lisbon on Friday.", datetime(2024, 3, 2, 9, 15)),
        ("2024-03-02", "Ben", "Great, I'll book the hotel.", datetime(2024, 3, 2, 9, 16, 30)),
        ("2024-03-02.2", "Ana", "Hotel booked near Alfama.", datetime(2024, 3, 2, 15, 30)),
    ]
    assert [t[1] for t in _turns(data, "work")] == ["Ana", "Carla"]
    assert data.skipped.left_out == {}


def test_mapped_day_first(load_export: Loader) -> None:
    data = load_export(HERE / "written-mapped.csv", fmt="csv", columns=MAPPED)
    assert [c.conversation_id for c in data.conversations] == ["written-mapped"]
    assert _turns(data) == [
        ("2024-04-01", "Ana", "Dinner on Saturday?", datetime(2024, 4, 1, 18, 40)),
        ("2024-04-01", "Ben", "Yes! Where?", datetime(2024, 4, 1, 18, 42)),
        ("2024-04-25", "Ana", "The place by the river.", datetime(2024, 4, 25, 9, 5)),
    ]


def test_unmapped_header_is_refused_with_how_to_map(load_export: Loader) -> None:
    path = HERE / "written-mapped.csv"
    with pytest.raises(InputError):
        detect_format(path)
    error = _refused(load_export, path)
    assert error.record == "line 1"
    assert "Sent on, Who, What" in str(error) and "--map speaker=" in str(error)


def test_tsv_with_date_and_time_columns(load_export: Loader) -> None:
    data = load_export(HERE / "written-messages.tsv")
    assert _turns(data) == [
        ("2024-05-10", "Ana", "Did the parcel arrive?", datetime(2024, 5, 10, 8, 1, 15)),
        ("2024-05-10", "Ben", "It did, thanks", datetime(2024, 5, 10, 8, 3, 40)),
        ("2024-05-10.2", "Ana", "Good, the next one ships Monday", datetime(2024, 5, 10, 19, 20)),
    ]


def test_multiline_quoted_message(load_export: Loader) -> None:
    data = load_export(HERE / "written-multiline.csv")
    assert _turns(data) == [
        (
            "2024-06-01",
            "Ana",
            'Shopping list:\n- eggs, a dozen\n- "good" coffee',
            datetime(2024, 6, 1, 7, 30),
        ),
        ("2024-06-01", "Ben", "Got it", datetime(2024, 6, 1, 7, 45)),
        ("2024-06-01", "Ana", "Thanks!", datetime(2024, 6, 1, 7, 47)),
    ]
    # The empty text of line 7 (rows start at their first line) is skipped and counted.
    assert data.skipped.empty_turns == 1
    assert data.skipped.places == ["line 7: no visible text"]


def test_zoned_times_shown_in_the_users_zone(load_export: Loader) -> None:
    data = load_export(HERE / "written-multiline.csv", timezone="Europe/Lisbon")
    assert _turns(data)[0][3] == datetime(2024, 6, 1, 8, 30)


@pytest.mark.parametrize(
    ("dates", "order", "expected"),
    [
        (["03/04/2024", "03/25/2024"], "auto", [datetime(2024, 3, 4), datetime(2024, 3, 25)]),
        (["03/04/2024", "25/03/2024"], "auto", [datetime(2024, 4, 3), datetime(2024, 3, 25)]),
        (["03/04/2024", "05/06/2024"], "auto", [datetime(2024, 4, 3), datetime(2024, 6, 5)]),
        (["03/04/2024", "05/06/2024"], "mdy", [datetime(2024, 3, 4), datetime(2024, 5, 6)]),
        (
            ["24.03.05 1:05 PM", "2024/03/06, 00:10:09"],
            "ymd",
            [datetime(2024, 3, 5, 13, 5), datetime(2024, 3, 6, 0, 10, 9)],
        ),
        (["3-4-24 12:00 am", "2024-03-05"], "auto", [datetime(2024, 4, 3), datetime(2024, 3, 5)]),
    ],
)
def test_date_orders(
    load_export: Loader, tmp_path: Path, dates: list[str], order: str, expected: list[datetime]
) -> None:
    rows = "".join(f'Ana,"{d}",m{i}\n' for i, d in enumerate(dates))
    path = _file(tmp_path, "From,Date,Text\n" + rows)
    # Rows are sorted by time, so the expected times are compared in time order.
    assert [t[3] for t in _turns(load_export(path, date_order=order))] == sorted(expected)


def test_conflicting_date_orders(load_export: Loader, tmp_path: Path) -> None:
    path = _file(tmp_path, "From,Date,Text\nA,25/03/2024,x\nA,01/01/2024,y\nA,03/25/2024,z\n")
    error = _refused(load_export, path)
    assert (error.record, error.field) == ("line 4", "Date")
    assert "line 2" in str(error)


def test_timestamp_format(load_export: Loader, tmp_path: Path) -> None:
    path = _file(tmp_path, "From,Date,Text\nA,2024|03|05 07h12,x\n")
    data = load_export(path, timestamp_format="%Y|%m|%d %Hh%M")
    assert _turns(data)[0][3] == datetime(2024, 3, 5, 7, 12)
    error = _refused(
        load_export,
        _file(tmp_path, "From,Date,Text\nA,2024-03-05,x\n", "b.csv"),
        timestamp_format="%d.%m.%Y",
    )
    assert (error.record, error.field) == ("line 2", "Date")


def test_sessions_ids_captions_and_joined_time(load_export: Loader, tmp_path: Path) -> None:
    text = (
        "Who;Words;Day;At;Sitting;Ref;Photo\n"
        "Ana;Look at this;2024-03-05;10:00;morning;m1;a beach at dusk\n"
        "Ben;Lovely;2024-03-05;10:01;morning;m2;\n"
        "Ana;Later;2024-03-05;10:03;evening;;\n"
    )
    path = _file(tmp_path, text)
    columns = {
        "speaker": "who",
        "text": "Words",
        "timestamp": "Day+At",
        "session": "Sitting",
        "id": "Ref",
        "caption": "Photo",
    }
    data = load_export(path, fmt="csv", columns=columns)
    conv = data.conversations[0]
    assert [s.source_id for s in conv.sessions] == ["morning", "evening"]
    turns = [t for s in conv.sessions for t in s.turns]
    assert [t.source_id for t in turns] == ["m1", "m2", "evening:0"]
    assert [t.caption for t in turns] == ["a beach at dusk", None, None]
    assert turns[2].timestamp == datetime(2024, 3, 5, 10, 3)
    empty = _file(tmp_path, "Who;Words;Sitting\nAna;hi;\n", "e.csv")
    error = _refused(
        load_export, empty, columns={"speaker": "Who", "text": "Words", "session": "Sitting"}
    )
    assert (error.record, error.field) == ("line 2", "Sitting")


def test_newest_first_is_sorted_and_stem_names_it(load_export: Loader, tmp_path: Path) -> None:
    text = (
        "\ufeffsender,message,timestamp\n"
        "Ben,second,2024-03-05T10:05:00\n"
        "Ana,first,2024-03-05T10:00:00\n"
    )
    data = load_export(_file(tmp_path, text, "Family chat.csv"))
    assert data.conversations[0].conversation_id == "Family chat"
    assert [t[2] for t in _turns(data)] == ["first", "second"]
    # Undated rows keep the file's order.
    undated = load_export(_file(tmp_path, "sender,message\nBen,b\nAna,a\n", "u.csv"))
    assert [(t[2], t[3]) for t in _turns(undated)] == [("b", None), ("a", None)]


def test_txt_with_tabs_and_a_folder_of_tables(load_export: Loader, tmp_path: Path) -> None:
    folder = tmp_path / "tables"
    folder.mkdir()
    _file(folder, "user\tcontent\nAna\thi\n", "one.txt")
    _file(folder, "user,content\nBen,yo\n", "two.csv")
    assert detect_format(folder) == "csv"
    data = load_export(folder)
    assert [c.conversation_id for c in data.conversations] == ["one", "two"]
    packed = tmp_path / "tables.zip"
    with zipfile.ZipFile(packed, "w") as out:
        out.write(folder / "two.csv", "two.csv")
    assert detect_format(packed) == "csv"
    plain = _file(tmp_path, "user,content\nAna,hi\n", "notes.txt")
    with open_source(plain, ReadLimits()) as source:
        assert not table.IMPORTER.claims(StreamBundle(source, plain.name))


@pytest.mark.parametrize(
    ("text", "record", "field", "said"),
    [
        ("From,Text,Date\nAna,hi\n", "line 2", None, "2 fields where the header has 3"),
        ("From,Text\nAna,hi,there\n", "line 2", None, "3 fields"),
        (
            "From,Text,Date\nAna,ok,2024-03-05\nAna,x,31/02/2024\n",
            "line 3",
            "Date",
            "unrecognised time",
        ),
        ("From,Text,Date\nAna,ok,tomorrow\n", "line 2", "Date", "unrecognised time"),
        ('From,Text\nAna,"never closed\nBen,hi\n', "line 2", None, "broken CSV"),
        ("From,Notes\nAna,hi\n", "line 1", None, "no text column"),
        ("From,Text\n\n", None, None, "no conversation messages"),
    ],
)
def test_malformed_tables(
    load_export: Loader, tmp_path: Path, text: str, record: str | None, field: str | None, said: str
) -> None:
    error = _refused(load_export, _file(tmp_path, text))
    assert (error.record, error.field) == (record, field)
    assert said in str(error)


def test_bad_maps(load_export: Loader, tmp_path: Path) -> None:
    path = _file(tmp_path, "From,Text,text\nAna,hi,x\n")
    error = _refused(load_export, path, columns={"speaker": "Sender", "text": "Text"})
    assert (error.record, error.field) == ("line 1", "Sender")
    error = _refused(load_export, path, columns={"speaker": "From", "text": ""})
    assert error.field == "text"
    error = _refused(load_export, path, columns={"speaker": "From", "text": "TEXT"})
    assert error.field == "TEXT"
    with pytest.raises(ConfigError, match="unknown CSV field"):
        load_export(path, fmt="csv", columns={"author": "From"})


def test_a_row_after_a_multiline_row_is_named_by_its_own_line(
    load_export: Loader, tmp_path: Path
) -> None:
    path = _file(tmp_path, 'From,Text,Date\nAna,"a\nb\nc",2024-03-05\nBen,x,nope\n')
    assert _refused(load_export, path).record == "line 5"


@pytest.mark.parametrize("path", OTHERS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_claims_no_other_format(path: Path) -> None:
    assert not claimed(table.IMPORTER, path)


_TEXT = st.text(alphabet=st.sampled_from('ab ,;"\t\nZé'), min_size=1, max_size=25).filter(
    lambda t: any(ch.isalnum() for ch in t)
)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(["Ana", "Ben"]), _TEXT), min_size=1, max_size=10),
    st.sampled_from([",", ";", "\t"]),
)
def test_round_trip(
    tmp_path_factory: pytest.TempPathFactory, rows: list[tuple[str, str]], delimiter: str
) -> None:
    """Rows csv.writer quotes as it must come back as written, on the lines they start."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\n")
    writer.writerow(["speaker", "text"])
    writer.writerows(rows)
    path = tmp_path_factory.mktemp("rt") / ("t.tsv" if delimiter == "\t" else "t.csv")
    path.write_text(out.getvalue(), encoding="utf-8")
    data = load(path, "csv", ReadLimits(), ImportOptions(timezone="UTC"))
    assert [(t[1], t[2]) for t in _turns(data)] == rows


def test_forced_on_a_folder_reads_only_its_tables(load_export: Loader, tmp_path: Path) -> None:
    folder = tmp_path / "mixed"
    folder.mkdir()
    _file(folder, "# notes\n", "README.md")
    with pytest.raises(InputError, match="no export format recognised"):
        load_export(folder)
    with pytest.raises(InputError, match=r"holds no \.csv or \.tsv file"):
        load_export(folder, fmt="csv")
    _file(folder, "author,body\nAna,hi\n", "talk.csv")
    assert not table.IMPORTER.claims(FolderBundle(folder, ReadLimits()))  # not only tables
    assert [c.conversation_id for c in load_export(folder, fmt="csv").conversations] == ["talk"]
