"""CSV and TSV tables of messages: one message a row, under a header row.

A table is read line by line through Python's ``csv`` module, so a quoted message may
span lines (its record is the line its row starts on, "line 12"). The delimiter: a tab
for ``.tsv``, else the most frequent of ``,`` tab ``;`` ``|`` in the header line (a tie goes
to the earlier of them, and a comma is used when none is there). A ``.txt`` file is a
table when its header is tab-separated.

Columns: ``--map speaker=From,text=Body,timestamp=Date`` names them (fields: speaker,
text, timestamp, conversation, session, id, caption; ``timestamp=Date+Time`` joins a date
and a time column with a space). A name is matched exactly, else ignoring case. What is
not mapped is recognised from the header, ignoring case: speaker (speaker, author, from,
sender, name, user, username), text (text, message, body, content), timestamp (timestamp,
datetime, created_at, sent, sent_at; else a date and a time column together; else date or
time), conversation (conversation, chat, channel, thread, room). Session, id and caption columns are
used only when mapped. Without a speaker or a text column the import is refused, naming
the header and how to map it; ``--format auto`` takes only a table whose header maps.

Times: with ``--timestamp-format`` every value is read with it (strptime). Otherwise an
epoch or ISO-8601 value (an instant when it has a zone, shown in ``--timezone``; else
kept as written), then the local forms ``DD/MM/YYYY HH:MM[:SS]``, ``MM/DD/YYYY``,
``YYYY/MM/DD`` (separators ``/ . -``, two-digit years are 20YY, an optional AM/PM), kept
as written. The order of day and month: ``--date-order``; ``auto`` decides from the whole
column: a first number over 12 means day first, a second over 12 month first, both in
one column is refused naming the line; a column with no such date (every number up to
12) is read day first, as most of the world writes dates. An empty time cell is undated.

Conversations: the conversation column's value; without one (or where it is empty) the
file's stem (``chat.csv`` -> "chat"; a folder or zip of tables: one per file). A session
column names the sessions (no cell of it may be empty); without one the pause rule splits
them. An id column gives turn ids (an empty cell: the positional id). Rows keep the file's
order, except that a conversation whose every row is dated is sorted by time (a stable
sort), so a newest-first export reads oldest first. Nothing is left out: an empty text is
skipped and counted as an empty turn. A row with fewer fields than the header, or extra
non-empty ones, is refused naming the line, and so is broken quoting (a quote left open
to the end of the file, or text after a closing quote).
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import PurePosixPath

from graphmem.errors import ConfigError, InputError
from graphmem.ingest.exports.base import CSV_FIELDS, Context, Importer, Message
from graphmem.ingest.exports.bundle import Bundle
from graphmem.ingest.exports.stamps import ACCEPTED
from graphmem.ingest.validate import MAX_TURN_CHARS

_SUFFIXES = (".csv", ".tsv")
_TAB_SUFFIXES = (".tsv", ".txt")  # .txt counts only when its header is tab-separated
_DELIMITERS = (",", "\t", ";", "|")  # in order of preference on a tie
_AUTO: dict[str, tuple[str, ...]] = {
    "speaker": ("speaker", "author", "from", "sender", "name", "user", "username"),
    "text": ("text", "message", "body", "content"),
    "timestamp": ("timestamp", "datetime", "created_at", "sent", "sent_at"),
    "conversation": ("conversation", "chat", "channel", "thread", "room"),
}
_DATE, _TIME = "date", "time"
_REQUIRED = ("speaker", "text")
_JOIN = "+"
# A field past a turn's limit is a broken quote swallowing the file, not a message.
_FIELD_LIMIT = MAX_TURN_CHARS + 1
_LOCAL = re.compile(
    r"(\d{1,4})[/.-](\d{1,2})[/.-](\d{1,4})"
    r"(?:(?:,\s*|\s+|T)(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?)?"
)
_LOCAL_FORMS = "DD/MM/YYYY HH:MM[:SS], MM/DD/YYYY HH:MM, YYYY/MM/DD HH:MM"
_MAP_HINT = "name the columns: --format csv --map speaker=COLUMN,text=COLUMN[,timestamp=COLUMN]"
_DAY_FIRST, _MONTH_FIRST = "dmy", "mdy"


@dataclass(frozen=True)
class _Layout:
    """Field -> the indices of its columns (a timestamp may join two) and their names."""

    index: dict[str, list[int]]
    names: dict[str, str]


@dataclass(frozen=True)
class _Row:
    record: str
    cells: list[str]


def _is_table(member: str) -> bool:
    return member.lower().endswith(_SUFFIXES + _TAB_SUFFIXES)


def _delimiter(member: str, header: str) -> str:
    if member.lower().endswith(_TAB_SUFFIXES):
        return "\t"
    counts = [header.count(d) for d in _DELIMITERS]
    best = max(counts)
    return _DELIMITERS[counts.index(best)] if best else ","


def _claims(bundle: Bundle) -> bool:
    members = bundle.members
    return bool(members) and all(_is_table(m) and _header_maps(bundle, m) for m in members)


def _header_maps(bundle: Bundle, member: str) -> bool:
    line = bundle.head(member).decode("utf-8", "replace").split("\n", 1)[0]
    delimiter = _delimiter(member, line)
    if member.lower().endswith(".txt") and "\t" not in line:
        return False
    header = next(csv.reader([line], delimiter=delimiter), [])
    found = _auto([h.strip().casefold() for h in header])
    return all(f in found for f in _REQUIRED)


def _auto(folded: list[str]) -> dict[str, list[int]]:
    """The fields the header's names tell, each by the first name of its list found."""
    found: dict[str, list[int]] = {}
    for key, names in _AUTO.items():
        hit = next((folded.index(n) for n in names if n in folded), None)
        if hit is not None:
            found[key] = [hit]
    if "timestamp" not in found:
        parts = [folded.index(n) for n in (_DATE, _TIME) if n in folded]
        if parts:
            found["timestamp"] = parts
    return found


def _layout(header: list[str], given: dict[str, str], where: str, record: str) -> _Layout:
    unknown = sorted(set(given) - set(CSV_FIELDS))
    if unknown:
        raise ConfigError(
            f"unknown CSV field {unknown[0]!r} in --map",
            hint="the fields are " + ", ".join(CSV_FIELDS),
        )
    names = [h.strip() for h in header]
    index = {k: v for k, v in _auto([n.casefold() for n in names]).items() if k not in given}
    for key, wanted in given.items():
        parts = [p.strip() for p in wanted.split(_JOIN)] if key == "timestamp" else [wanted]
        index[key] = [_column(names, part, key, where, record) for part in parts]
    missing = [f for f in _REQUIRED if f not in index]
    if missing:
        raise InputError(
            f"no {missing[0]} column in the header ({', '.join(names)}): recognised names "
            f"are {', '.join(_AUTO[missing[0]])}",
            path=where,
            record=record,
            hint=_MAP_HINT,
        )
    return _Layout(index, {k: _JOIN.join(names[i] for i in v) for k, v in index.items()})


def _column(names: list[str], wanted: str, key: str, where: str, record: str) -> int:
    if not wanted.strip():
        raise InputError(f"--map gives the {key} field an empty column name", path=where, field=key)
    for same in (str.__eq__, lambda a, b: a.casefold() == b.casefold()):
        hits = [i for i, n in enumerate(names) if same(n, wanted)]
        if len(hits) > 1:
            raise InputError(
                f"the header names {wanted!r} {len(hits)} times: which one is {key} is unclear",
                path=where,
                record=record,
                field=wanted,
            )
        if hits:
            return hits[0]
    raise InputError(
        f"no column {wanted!r} for {key}: the header is {', '.join(names)}",
        path=where,
        record=record,
        field=wanted,
        hint=_MAP_HINT,
    )


class _Lines:
    """The text of ``source.lines()`` for csv, noting the numbers of the lines a row took."""

    def __init__(self, lines: Iterator[tuple[int, str]]) -> None:
        self._lines = lines
        self.taken: list[int] = []

    def __iter__(self) -> _Lines:
        return self

    def __next__(self) -> str:
        number, text = next(self._lines)
        self.taken.append(number)
        return text


@contextmanager
def _field_limit() -> Iterator[None]:
    """The csv module's field limit (one setting of the process, 128 KiB by default) raised
    to a turn's for this read only, and given back after it."""
    before = csv.field_size_limit()
    csv.field_size_limit(max(before, _FIELD_LIMIT))
    try:
        yield
    finally:
        csv.field_size_limit(before)


def _rows(bundle: Bundle, member: str, ctx: Context) -> tuple[_Layout, list[_Row]]:
    """The member's layout and rows (read whole: ``auto`` date order needs the column)."""
    where = bundle.where(member)
    prefix = "" if bundle.single else f"{member} "
    with _field_limit(), bundle.open(member) as source:
        delimiter = _delimiter(member, source.first_line())
        lines = _Lines(source.lines())
        reader = csv.reader(lines, delimiter=delimiter, strict=True)
        layout: _Layout | None = None
        width = 0
        rows: list[_Row] = []
        while True:
            lines.taken.clear()
            try:
                cells = next(reader)
            except StopIteration:
                break
            except csv.Error as exc:
                line = lines.taken[0] if lines.taken else 1
                raise InputError(
                    f"broken CSV quoting ({exc}): a quote left open or text after a closing quote",
                    path=where,
                    record=f"{prefix}line {line}",
                ) from None
            record = f"{prefix}line {lines.taken[0]}"
            if not any(c.strip() for c in cells):
                continue
            if layout is None:
                layout, width = _layout(cells, ctx.options.columns, where, record), len(cells)
                continue
            rows.append(_Row(record, _fitted(cells, width, where, record)))
        if layout is None:
            raise InputError("holds no header row", path=where, hint=_MAP_HINT)
        return layout, rows


def _fitted(cells: list[str], width: int, where: str, record: str) -> list[str]:
    if len(cells) < width:
        raise InputError(
            f"{len(cells)} fields where the header has {width} (a missing delimiter or an "
            "unquoted line break?)",
            path=where,
            record=record,
        )
    if any(c.strip() for c in cells[width:]):
        raise InputError(
            f"{len(cells)} fields where the header has {width} (quote a text that holds "
            "the delimiter)",
            path=where,
            record=record,
        )
    return cells[:width]


def _cell(row: _Row, layout: _Layout, key: str) -> str | None:
    index = layout.index.get(key)
    if index is None:
        return None
    value = " ".join(row.cells[i].strip() for i in index).strip()
    return value or None


def _order(rows: list[_Row], layout: _Layout, ctx: Context, where: str) -> str:
    """Day or month first: as told, else from every local date of the column."""
    if ctx.options.date_order != "auto":
        return ctx.options.date_order
    seen: dict[str, _Row] = {}
    local = False  # a date with the day and the month in either place
    for row in rows:
        value = _cell(row, layout, "timestamp")
        match = _LOCAL.fullmatch(value) if value else None
        if not match or len(match.group(1)) == 4:
            continue
        local = True
        first, second = int(match.group(1)), int(match.group(2))
        kind = _DAY_FIRST if first > 12 else _MONTH_FIRST if second > 12 else None
        if kind:
            seen.setdefault(kind, row)
        if len(seen) == 2:
            day, month = seen[_DAY_FIRST], seen[_MONTH_FIRST]
            raise InputError(
                f"dates with the day first ({day.record}) and with the month first "
                f"({month.record}) in one column",
                path=where,
                record=row.record,
                field=layout.names["timestamp"],
                hint="pass --date-order dmy or mdy, or --timestamp-format",
            )
    if local and not seen:
        ctx.note(
            f"{where}: no date says whether day or month comes first; read day first "
            "(--date-order mdy reads them month first)"
        )
    return next(iter(seen), _DAY_FIRST)


def _time(
    value: str | None, row: _Row, order: str, layout: _Layout, ctx: Context, where: str
) -> datetime | None:
    if value is None:
        return None
    column = layout.names["timestamp"]
    given = ctx.options.timestamp_format
    try:
        if given:
            return datetime.strptime(value, given)
        try:
            return ctx.clock.any(value)
        except ValueError:
            match = _LOCAL.fullmatch(value)
            if match is None:
                raise
            return _local(match, order)
    except ValueError:
        wanted = f"the --timestamp-format {given!r}" if given else f"{ACCEPTED}, or {_LOCAL_FORMS}"
        raise InputError(
            f"unrecognised time {value!r}: expected {wanted}",
            path=where,
            record=row.record,
            field=column,
            hint="pass --timestamp-format (strptime, e.g. %d.%m.%Y %H:%M) or --date-order",
        ) from None


def _local(match: re.Match[str], order: str) -> datetime:
    """A local date and time in ``order``; ValueError when it is no real date."""
    a, b, c, hour, minute, second, noon = match.groups()
    if len(a) == 4 or order == "ymd":
        year, month, day = a, b, c
    elif order == _MONTH_FIRST:
        month, day, year = a, b, c
    else:
        day, month, year = a, b, c
    h = int(hour or 0)
    if noon:
        if not 1 <= h <= 12:
            raise ValueError("an hour past 12 with AM or PM")
        h = h % 12 + (12 if noon.lower() == "pm" else 0)
    full_year = int(year) + (2000 if len(year) <= 2 else 0)
    return datetime(full_year, int(month), int(day), h, int(minute or 0), int(second or 0))


def _stem(bundle: Bundle, member: str) -> str:
    if bundle.single:
        name = "stdin" if bundle.name == "-" else PurePosixPath(bundle.name).stem
        return name or PurePosixPath(member).stem
    return PurePosixPath(member).stem


def _read(bundle: Bundle, ctx: Context) -> Iterator[Message]:
    tables = bundle.members if bundle.single else [m for m in bundle.members if _is_table(m)]
    if not tables:
        raise InputError("holds no .csv or .tsv file", path=bundle.name, hint=_MAP_HINT)
    for member in tables:
        where = bundle.where(member)
        layout, rows = _rows(bundle, member, ctx)
        order = _order(rows, layout, ctx, where)
        stem = _stem(bundle, member)
        found: dict[str, list[Message]] = {}
        for row in rows:
            message = _message(row, layout, ctx, where, order, stem)
            found.setdefault(message.conversation, []).append(message)
        for messages in found.values():
            if all(m.timestamp for m in messages):
                messages.sort(key=lambda m: m.timestamp or datetime.min)
            yield from messages


def _message(
    row: _Row, layout: _Layout, ctx: Context, where: str, order: str, stem: str
) -> Message:
    session = None
    if "session" in layout.index:
        session = _cell(row, layout, "session")
        if session is None:
            raise InputError(
                "an empty session: every row needs one when a session column is mapped",
                path=where,
                record=row.record,
                field=layout.names["session"],
            )
    text_index = layout.index["text"][0]
    return Message(
        conversation=_cell(row, layout, "conversation") or stem,
        speaker=_cell(row, layout, "speaker") or "",
        text=row.cells[text_index].replace("\r\n", "\n"),
        timestamp=_time(_cell(row, layout, "timestamp"), row, order, layout, ctx, where),
        record=row.record,
        caption=_cell(row, layout, "caption"),
        session=session,
        id=_cell(row, layout, "id"),
    )


IMPORTER = Importer("csv", "CSV or TSV", _claims, _read)
