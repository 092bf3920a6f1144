"""What every importer shares: the message it yields, its options and the context it reads
in, and the record that names it to ``--format``.

An importer reads one app's export (a :class:`~graphmem.ingest.exports.bundle.Bundle`) and
yields :class:`Message` in conversation order; :mod:`.assemble` turns them into a
``Dataset`` through the same validation as a JSONL file. What an importer leaves out on
purpose (system and tool messages, service lines, media without words) it counts with
:meth:`Context.leave`, and the ingest reports it.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

import ijson
from pydantic import BaseModel, ConfigDict, Field, field_validator

from graphmem.config import Settings
from graphmem.errors import InputError
from graphmem.ingest.exports.bundle import Bundle
from graphmem.ingest.exports.stamps import Clock, zone_named
from graphmem.ingest.source import Source

# How each ijson event changes the depth of nesting, for building one object at a time.
_NESTING = {"start_map": 1, "start_array": 1, "end_map": -1, "end_array": -1}
_LIST_EVENTS = ("start_array", "end_array")
DateOrder = Literal["auto", "dmy", "mdy", "ymd"]
# The fields a CSV column can fill (``--map field=Column``).
CSV_FIELDS = ("speaker", "text", "timestamp", "conversation", "session", "id", "caption")


@dataclass(frozen=True, slots=True)
class Message:
    """One message as an export holds it. ``timestamp``: naive, the user's wall-clock time
    (``Context.clock``); ``record``: where it is, for an error ("conversation 3 message 12");
    ``session``: only where the export names sessions (a CSV column), else the gap rule
    splits them; ``id``: only where the export's own id is short and stable. ``note``: what
    the message shared or where it came from, as the app says ("shared: report.pdf"),
    written after its words in brackets (a turn's ``caption`` describes a picture, which no
    app's export does; only a CSV column mapped to it fills ``caption``)."""

    conversation: str
    speaker: str
    text: str
    timestamp: datetime | None
    record: str
    title: str | None = None
    caption: str | None = None
    session: str | None = None
    id: str | None = None
    note: str | None = None


class ImportOptions(BaseModel):
    """How an export is read; one set for the CLI and Python (``ImportOptions.of``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    timezone: str | None = Field(
        default=None, description="zone of instants (epoch, zoned ISO); None: this machine's"
    )
    session_gap_minutes: int = Field(
        default=Settings.model_fields["import_session_gap_minutes"].default,
        ge=1,
        description="a pause longer than this starts a new session",
    )
    columns: dict[str, str] = Field(
        default_factory=dict, description="CSV: graphmem field -> column name"
    )
    timestamp_format: str | None = Field(
        default=None, description="CSV: strptime format of the timestamp column"
    )
    date_order: DateOrder = Field(
        default="auto", description="WhatsApp and CSV: day, month and year order of dates"
    )

    @field_validator("timezone")
    @classmethod
    def _zone(cls, value: str | None) -> str | None:
        zone_named(value)  # ConfigError (exit 2) for a zone the database lacks
        return value

    @classmethod
    def of(cls, settings: Settings, **given: Any) -> ImportOptions:
        """The settings' defaults, then what the caller gave (None: not given)."""
        base = {
            "timezone": settings.import_timezone or None,
            "session_gap_minutes": settings.import_session_gap_minutes,
        }
        return cls(**{**base, **{k: v for k, v in given.items() if v is not None}})


@dataclass
class Context:
    """One import's options and tallies: ``left`` counts what it left out by kind, ``notes``
    says what it decided for the user (both reach the load's ``Skipped``)."""

    src: str
    options: ImportOptions = field(default_factory=ImportOptions)
    left: Counter[str] = field(default_factory=Counter)
    notes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.clock = Clock(zone_named(self.options.timezone))

    def leave(self, kind: str, count: int = 1) -> None:
        """``count`` items of ``kind`` ("system messages") left out on purpose."""
        self.left[kind] += count

    def note(self, text: str) -> None:
        """A decision the user should hear of (a date order assumed), reported with the
        load's counts."""
        if text not in self.notes:
            self.notes.append(text)

    def stamp(self, value: object, where: str, record: str, key: str) -> datetime:
        """An epoch or ISO time, or InputError naming the record and field."""
        try:
            return self.clock.any(value)
        except ValueError as exc:
            raise InputError(str(exc), path=where, record=record, field=key) from None


@dataclass(frozen=True)
class Importer:
    """One app's export: ``claims`` tells it from the bundle (and the head of a member),
    ``read`` yields its messages. ``label`` names the app to a user."""

    name: str
    label: str
    claims: Callable[[Bundle], bool]
    read: Callable[[Bundle, Context], Iterator[Message]]


def json_items(source: Source, prefix: str) -> Iterator[Any]:
    """The values at ``prefix`` (ijson's: ``item`` for each of a top-level list,
    ``messages.item``, ``chats.list.item``) parsed one at a time, so a document of any size
    is read in constant memory; broken JSON is an InputError naming the file."""
    try:
        yield from ijson.items(source, prefix, use_float=True)
    except ijson.JSONError as exc:
        raise InputError(f"broken JSON ({exc})", path=source.name) from None


def has_key(head: bytes, *keys: str) -> bool:
    """Whether the start of a JSON document names every one of ``keys`` as a key."""
    return all(f'"{key}"'.encode() in head for key in keys)


def json_objects(
    source: Source,
    wanted: Callable[[str], bool],
    lists: Callable[[str], InputError | None],
) -> Iterator[tuple[str, str, Any]]:
    """ijson's ``(prefix, event, value)`` events of a document, read as a stream, except
    that each object at a prefix ``wanted`` accepts comes whole: its ``start_map`` event
    (so the caller can name the object in an error while it is built), then
    ``(prefix, "object", the object)`` instead of its inner events. Anything else at such a
    prefix passes as its event, for the caller to refuse. An event other than a list's start
    or end at a prefix for which ``lists`` gives an error raises that error. Broken JSON
    raises ``ijson.JSONError``: the caller knows which record it was in."""
    builder: Any = None
    depth = 0
    for path, event, value in ijson.parse(source, use_float=True):
        if builder is not None:
            builder.event(event, value)
            depth += _NESTING.get(event, 0)
            if depth == 0:
                yield path, "object", builder.value
                builder = None
            continue
        if event not in _LIST_EVENTS and (refused := lists(path)) is not None:
            raise refused
        yield path, event, value
        if event == "start_map" and wanted(path):
            builder, depth = ijson.ObjectBuilder(), 1
            builder.event(event, value)


def by_name(chats: Iterable[tuple[str, str, str | None, list[Message]]]) -> Iterator[Message]:
    """The messages of each ``(name, tell, title, messages)`` under its name, or
    ``name (tell)`` where another of the import has its name and another ``tell`` (its id),
    each conversation in time order: the apps write a chat in time order, and two files of
    one chat merge into it. Each ``messages`` is emptied as it is taken."""
    chats = list(chats)
    told: dict[str, set[str]] = {}
    for name, tell, _, _ in chats:
        told.setdefault(name, set()).add(tell)
    grouped: dict[str, list[Message]] = {}
    for name, tell, title, messages in chats:
        cid = f"{name} ({tell})" if len(told[name]) > 1 else name
        grouped.setdefault(cid, []).extend(
            dataclasses.replace(m, conversation=cid, title=title) for m in messages
        )
        messages.clear()
    for kept in grouped.values():
        yield from sorted(kept, key=_time)


def _time(message: Message) -> datetime:
    return message.timestamp or datetime.min
