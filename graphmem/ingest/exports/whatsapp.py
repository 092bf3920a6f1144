"""WhatsApp chat exports: the ``.txt`` a phone writes ("Export chat"), or the zip holding it.

Input: Android's "WhatsApp Chat with Ana.txt" (or a zip of it and its media), iOS's zip
"WhatsApp Chat - Ana.zip" with ``_chat.txt`` and the media beside it, or that zip unpacked
into a folder. A zip or folder may hold several chats: each ``.txt`` whose first line is a
WhatsApp message line is one conversation.

Lines: a message starts with a date stamp (``12/31/20, 9:15 PM - Ana: hi``,
``31.12.20, 21:15 - Ana: hi``, ``2020-12-31, 21:15 - Ana: hi``, iOS ``[31/12/2020,
21:15:02] Ana: hi``); a line without one continues the message before it. 12 and 24 hour
clocks, with or without seconds; the invisible characters the apps write (U+200E, U+202F,
U+00A0, U+202A/U+202C around phone numbers, U+2068/U+2069 around mentions) are taken out of
names and from around texts and placeholders, not from inside a message's words.

Kept: every message a person wrote, with its speaker (the name as the phone shows it; the
"~" WhatsApp puts before a name not in the contacts is dropped; a name of emoji only, which
names nobody to graphmem, gets " (emoji name)" after it), its words (the edit marker
"<This message was edited>" removed) and its time. Polls ("POLL:" and its options with
votes) and shared locations ("location: https://maps...") are kept as written: the question
and the place are the chat's content. A message whose words come with media keeps the words,
a note after its words says what was shared ("[shared: IMG-20240302-WA0001.jpg]").

Left out, counted: system messages (lines with no speaker: encryption notices, "Ana added
Ben", "Ben left", group changes, security codes; calls; iOS's system lines written under the
chat's name, which start with U+200E), media-only messages ("<Media omitted>", "image
omitted", "<attached: ...>", "... (file attached)", "sticker omitted", and Android's "null"
of a view-once message: a message whose whole text is ``null`` is read as one), deleted
messages ("This message was deleted", "You deleted this message"). Only English phrases are
recognised (``whatsapp_lines``); a line of another language is kept as a message.

Times: the phone's local time as written, not converted (``--timezone`` does not apply).
Date order: day, month and year are told apart per line shape from the whole chat: a first
field over 12 means day first, a second field over 12 month first, a four-digit first field
year first. A chat whose dates never tell (every day so far the 12th or earlier) is read day
first, the order of most locales (a note in the ingest's report says so);
``--date-order`` (``ImportOptions.date_order``) sets the order instead. A chat whose dates
contradict each other, or a date that cannot exist (31/02/2024), is refused naming the line.
The chat is read once: its messages are held until the end of the file decides the order
(the assembly holds every message anyway), so standard input works too.

Conversation id and title: the chat's name from the file name ("WhatsApp Chat with Ana.txt"
-> "Ana"; ``_chat.txt`` in "WhatsApp Chat - Ana.zip" -> "Ana"; a download's " (1)" dropped),
else the file's stem. Sessions: the pause rule (no session in the export).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import PurePath, PurePosixPath

from graphmem.errors import InputError
from graphmem.ingest.exports import whatsapp_lines as w
from graphmem.ingest.exports.base import Context, DateOrder, Importer, Message
from graphmem.ingest.exports.bundle import Bundle
from graphmem.ingest.source import Source

# What the file of a chat is when a line is not one (the error names the expected form).
ACCEPTED = (
    "a WhatsApp chat export: lines such as '31/12/2020, 21:15 - Ana: text' (Android) "
    "or '[31/12/2020, 21:15:02] Ana: text' (iOS)"
)
# The order of dates that never say theirs: day first, as most locales write them.
DEFAULT_ORDER: DateOrder = "dmy"
_ORDER_HINT = "pass --date-order dmy, mdy or ymd to say how this chat writes its dates"
_ORDER_WORDS = {"dmy": "day first", "mdy": "month first", "ymd": "year first"}
_NAMELESS = "whatsapp"  # the id of a chat read from standard input
_MARK_SPACE = str.maketrans("", "", ". \u00a0\u202f")
# Lines of a shape (brackets, separator, year first, year digits) write one date order.
Shape = tuple[bool, str, bool, int]


@dataclass(slots=True)
class _Entry:
    """One message line and its continuation lines, before its date order is known."""

    number: int
    stamp: re.Match[str]
    lines: list[str] = field(default_factory=list)

    @property
    def shape(self) -> Shape:
        s = self.stamp
        return (s["open"] is not None, s["sep"], len(s["a"]) == 4, len(s["c"]))


def _first_line(head: bytes) -> str:
    text = head.decode("utf-8", "replace")
    return next((line for line in text.splitlines() if line.strip()), "")


def _is_chat(head: bytes) -> bool:
    return w.HEADER.match(_first_line(head).lstrip(w.FORMATTING)) is not None


def _chats(bundle: Bundle) -> list[str]:
    """The members that are chats: a single file is judged by its first line whatever its
    name (standard input has none), a zip's or folder's ``.txt`` members likewise."""
    members = bundle.members if bundle.single else bundle.ending(".txt")
    return [m for m in members if _is_chat(bundle.head(m))]


def _claims(bundle: Bundle) -> bool:
    return bool(_chats(bundle))


def _read(bundle: Bundle, ctx: Context) -> Iterator[Message]:
    # A single file given as WhatsApp is read even when its first line is none: the error
    # then names the line that is not.
    chats = bundle.members if bundle.single else _chats(bundle)
    if not chats:
        raise InputError(
            "holds no WhatsApp chat: no file starts with a WhatsApp message line",
            path=bundle.name,
            hint=f"expected {ACCEPTED}",
        )
    for member in chats:
        yield from _read_chat(bundle, member, ctx)


def _read_chat(bundle: Bundle, member: str, ctx: Context) -> Iterator[Message]:
    where = bundle.where(member)
    prefix = "" if bundle.single else f"{member} "
    name = chat_name(bundle, member)
    with bundle.open(member) as source:
        entries = list(_entries(source, where))
    orders = _orders(entries, ctx, where)
    for entry in entries:
        # The error of a line names the member in its path; the message's record names it
        # too, since the assembly's errors name only the export.
        when = _when(entry.stamp, orders[entry.shape], where, f"line {entry.number}")
        record = f"{prefix}line {entry.number}"
        spoken = _spoken("\n".join(entry.lines))
        if spoken is None:
            ctx.leave("system messages")
            continue
        speaker, raw = spoken
        left, text, caption = _content(raw)
        if left is not None:
            ctx.leave(left)
            continue
        yield Message(name, speaker, text, when, record, title=name, note=caption)


def _entries(source: Source, where: str) -> Iterator[_Entry]:
    """The messages' lines, each message with the lines that continue it."""
    entry: _Entry | None = None
    for number, raw in source.lines():
        line = raw.rstrip("\r\n")
        stamp = w.HEADER.match(line.lstrip(w.FORMATTING))
        if stamp is not None:
            if entry is not None:
                yield entry
            entry = _Entry(number, stamp, [stamp.string[stamp.end() :]])
        elif entry is not None:
            entry.lines.append(line)
        elif line.strip():
            raise InputError(
                "not a WhatsApp message line (a chat starts with a dated line)",
                path=where,
                record=f"line {number}",
                hint=f"expected {ACCEPTED}",
            )
    if entry is not None:
        yield entry


def _orders(entries: list[_Entry], ctx: Context, where: str) -> dict[Shape, str]:
    """Each line shape's date order: given, or told by the chat's own dates."""
    given = ctx.options.date_order
    orders: dict[Shape, str] = {}
    # The first line of each shape whose day (first field > 12) or month first (second > 12)
    # shows; a shape showing both contradicts itself.
    first: dict[tuple[Shape, str], _Entry] = {}
    for entry in entries:
        shape = entry.shape
        if shape[2]:
            orders[shape] = "ymd"
            continue
        if given != "auto":
            orders[shape] = given
            continue
        a, b = int(entry.stamp["a"]), int(entry.stamp["b"])
        for order, shows in (("dmy", a > 12), ("mdy", b > 12)):
            if shows:
                first.setdefault((shape, order), entry)
                orders[shape] = order
        if (shape, "dmy") in first and (shape, "mdy") in first:
            raise _contradiction(first[(shape, "dmy")], first[(shape, "mdy")], where)
    assumed = {e.shape for e in entries} - set(orders)
    for shape in assumed:
        orders[shape] = DEFAULT_ORDER
    if assumed:
        ctx.note(
            f"{where}: no date says whether day or month comes first; read "
            f"{_ORDER_WORDS[DEFAULT_ORDER]} (--date-order mdy reads them month first)",
        )
    return orders


def _contradiction(day: _Entry, month: _Entry, where: str) -> InputError:
    (later, said), (earlier, before) = sorted(
        ((day, "day first"), (month, "month first")), key=lambda pair: -pair[0].number
    )
    return InputError(
        f"the date {_stamp_text(later.stamp)} reads {said}, but line {earlier.number}'s "
        f"{_stamp_text(earlier.stamp)} reads {before}",
        path=where,
        record=f"line {later.number}",
        field="date",
        hint=f"an export writes one date order; check the lines, or {_ORDER_HINT}",
    )


def _stamp_text(stamp: re.Match[str]) -> str:
    return stamp.group(0).strip("[] -\u2013\u00a0\u202f")


def _when(stamp: re.Match[str], order: str, where: str, record: str) -> datetime:
    """The stamp's local time, read in ``order``; InputError for one that cannot exist."""
    a, b, c = int(stamp["a"]), int(stamp["b"]), int(stamp["c"])
    year, month, day = {"ymd": (a, b, c), "dmy": (c, b, a), "mdy": (c, a, b)}[order]
    year += 2000 if year < 100 else 0  # WhatsApp's two-digit years are this century's
    hour = int(stamp["h"])
    if stamp["mark"]:
        pm = stamp["mark"].translate(_MARK_SPACE).lower() == "pm"
        # Hour 0 with a marker ("00:08 a. m.") is written by some Spanish locales: midnight.
        hour = hour % 12 + (12 if pm else 0) if hour <= 12 else 24
    try:
        return datetime(year, month, day, hour, int(stamp["m"]), int(stamp["s"] or 0))
    except ValueError:
        raise InputError(
            f"no such date or time: {_stamp_text(stamp)} (read {_ORDER_WORDS[order]})",
            path=where,
            record=record,
            field="date",
            hint=f"check the line; {_ORDER_HINT}",
        ) from None


def _spoken(rest: str) -> tuple[str, str] | None:
    """The speaker and text of a message line; None for a system line (no "Name: ")."""
    found = w.SPOKEN.match(rest)
    if found is None or w.SYSTEM_IN_NAME.search(found["name"]):
        return None
    name = _clean_name(found["name"])
    return (name, found["text"] or "") if name else None


def _clean_name(raw: str) -> str:
    name = "".join(ch for ch in raw if ch not in w.FORMATTING)
    name = w.NOT_A_CONTACT.sub("", name.replace("\u00a0", " ").replace("\u202f", " ")).strip()
    if name and not any(ch.isalnum() for ch in name):
        return f"{name} (emoji name)"  # graphmem's speakers need a letter or a digit
    return name


_TRIM = w.FORMATTING + " \t\n"


def _content(raw: str) -> tuple[str | None, str, str | None]:
    """(what it is left out as, or None; its words; its caption) of a message's text."""
    text = w.EDITED.sub("", _unwrap(raw))
    bare = text.strip(_TRIM)
    if w.DELETED.fullmatch(bare):
        return "deleted messages", "", None
    if w.SYSTEM_TEXT.fullmatch(bare):
        return "system messages", "", None
    if bare == "null":
        return "media-only messages", "", None
    words, shared = _media(text)
    if shared:
        if not words:
            return "media-only messages", "", None
        return None, words, "shared: " + ", ".join(shared)
    if text.lstrip(" ").startswith(w.LRM) and not w.KEPT_AFTER_LRM.match(bare):
        return "system messages", "", None  # iOS: the app's line under the chat's name
    return None, bare, None


def _unwrap(text: str) -> str:
    """Phone numbers and mentions without the embedding marks around them."""
    return w.WRAPPED.sub(lambda m: m["inner"], text)


def _media(text: str) -> tuple[str, list[str]]:
    """The words of ``text`` without its media placeholders, and what those shared."""
    shared: list[str] = []

    def attached(found: re.Match[str]) -> str:
        shared.append(found["file"].strip(_TRIM))
        return ""

    kept = []
    for line in w.ATTACHED.sub(attached, text).split("\n"):
        label = _placeholder(line.strip(_TRIM))
        if label is None:
            kept.append(line)
        else:
            shared.append(label)
    return "\n".join(kept).strip(_TRIM), shared


def _placeholder(line: str) -> str | None:
    """What a whole line that stands for media shared names, or None for words."""
    if (label := w.OMITTED.get(line.lower())) is not None:
        return label
    if w.ANGLED_OMITTED.fullmatch(line):
        return w.OMITTED["<media omitted>"]
    for pattern in (w.FILE_ATTACHED, w.DOCUMENT_OMITTED):
        if found := pattern.fullmatch(line):
            return found["file"].strip(_TRIM)
    return None


def chat_name(bundle: Bundle, member: str) -> str:
    """The chat's name: from the file's name, or (iOS's ``_chat.txt``) from the folder or
    zip it is in, else the file's stem."""
    # A single file's bundle name is its path; its member may be a stand-in ("input.txt").
    file = PurePath(bundle.name) if bundle.single else PurePosixPath(member)
    if named := _named(file.stem):
        return named
    if file.stem.lower() == "_chat":
        if bundle.single or file.parent.name:
            container = file.parent.name
        else:  # the zip or folder the export is
            container = re.sub(r"(?i)\.zip$", "", PurePath(bundle.name).name)
        return _named(container) or container or file.stem
    stem = file.stem.strip()
    return stem if any(ch.isalnum() for ch in stem) else _NAMELESS


def _named(stem: str) -> str | None:
    found = w.CHAT_NAME.fullmatch(stem.strip())
    return found["name"].strip() if found else None


IMPORTER = Importer("whatsapp", "WhatsApp chat", _claims, _read)
