"""Validation shared by every input path (the three file formats and ``Memory.add_messages``).

Everything is checked before the first write, so bad input never leaves part of a
conversation behind: types, empty values, sizes (a Neo4j index key holds at most ~8 KB,
and conversation ids are stored as keys), strings that cannot be encoded as UTF-8 (a lone
surrogate such as ``\\udc80`` from a JSON escape) and JSON nested too deeply to parse.
Every problem is an InputError naming the file, record and field.

Control characters: NUL is refused in every string (C tools, terminals and logs cut a
string there). Ids and speaker names are labels printed in citations and tables, so they
hold no control character at all (C0, DEL, C1: an ANSI escape would reach the terminal of
whoever lists them) and no line or paragraph separator. Texts keep tabs, newlines and
other controls as data, but one with no visible character is as empty as a blank one.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from graphmem.errors import InputError, shown
from graphmem.ingest.models import MAX_SKIP_PLACES, ConversationIn, SessionIn, Skipped, Turn

# Questions, captions and the other free texts that are not a turn's words.
MAX_TEXT_CHARS = 20_000
# A turn's text is stored whole and cited as one turn (a pasted document is a real turn);
# past this only broken input goes: spaCy's default ``max_length``, the longest text its
# pipelines parse (the designs parse every turn). Texts longer than the embedding model's
# window are embedded in pieces (``graphmem.embed.windows``).
MAX_TURN_CHARS = 1_000_000
SKIP_KINDS = ("empty_turns", "repeated_sessions", "repeated_turns")
# Conversation, session, turn ids and speaker names: short labels, never documents.
MAX_ID_CHARS = 512
MAX_SPACE_CHARS = 128

STAMP_HINT = (
    "use ISO-8601 (2024-03-14T09:30:00), epoch seconds or milliseconds (1710408600), "
    "'1:56 pm on 8 May, 2023' or '2023/05/20 (Sat) 02:21'"
)
_STAMP_FORMATS = (
    "%I:%M %p on %d %B, %Y",  # LoCoMo
    "%I:%M %p on %d %b, %Y",
    "%Y/%m/%d (%a) %H:%M",  # LongMemEval
    "%Y/%m/%d %H:%M",
)
_TYPE_NAMES: dict[type, str] = {
    dict: "an object",
    list: "a list",
    str: "a string",
    int: "an integer",
    float: "a number",
    bool: "true or false",
}


def parse_timestamp(value: str) -> datetime:
    """Parse LoCoMo, LongMemEval and ISO-8601 stamps into a naive datetime.

    The UTC offset of an aware ISO stamp is dropped rather than converted: relative dates
    in the text ("yesterday") refer to the speaker's local day, not to UTC.
    Raises ValueError when no format fits.
    """
    cleaned = " ".join(value.split())
    for fmt in _STAMP_FORMATS:
        try:
            return datetime.strptime(cleaned, fmt)
        except ValueError:
            continue
    try:
        return datetime.fromisoformat(cleaned).replace(tzinfo=None)
    except ValueError:
        raise ValueError(f"unrecognised timestamp {shown(value)}") from None


def parse_json(text: str, src: str, record: str | None = None) -> Any:
    """``json.loads`` whose every failure is an InputError (not only JSONDecodeError)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno} column {exc.colno}"
        # One JSON value per line is the JSONL format, which a reader of one document
        # (LoCoMo, LongMemEval) sees as extra data after the first line.
        jsonl = exc.msg == "Extra data" and exc.colno == 1 and record is None
        raise InputError(
            f"broken JSON: {exc.msg} at {where}",
            path=src,
            record=record or where,
            hint="this looks like JSONL (one message a line): `graphmem ingest --format "
            "jsonl` reads it; `eval` needs the benchmark's own JSON file"
            if jsonl
            else None,
        ) from None
    except RecursionError:
        raise InputError("JSON nested too deeply", path=src, record=record) from None
    except ValueError as exc:  # e.g. an integer literal beyond Python's digit limit
        raise InputError(f"broken JSON: {exc}", path=src, record=record) from None


# Not allowed in an id or a name: control characters (C0, DEL, C1) and the line and
# paragraph separators. Format characters (Cf) stay: emoji sequences join with U+200D.
_NOT_IN_LABELS = frozenset({"Cc", "Zl", "Zp"})


def control_at(value: str) -> int:
    """The position of the first character a label must not hold, else -1."""
    for i, char in enumerate(value):
        if unicodedata.category(char) in _NOT_IN_LABELS:
            return i
    return -1


def _visible(text: str) -> bool:
    """True when some character shows: not whitespace, a control or an invisible format."""
    return any(char.isprintable() and not char.isspace() for char in text)


def _emptiness(text: str) -> str | None:
    """Why ``text`` says nothing (the error a strict load gives), or None when it does."""
    if not text.strip():
        return "text is empty or whitespace only"
    if not _visible(text):
        return "text has no visible character (only controls or blanks)"
    return None


def type_name(value: object) -> str:
    return "null" if value is None else _TYPE_NAMES.get(type(value), type(value).__name__)


def encodable(value: str) -> bool:
    """False for strings UTF-8 cannot encode (lone surrogates): Neo4j would reject them."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def check_text(value: object, field: str, limit: int) -> str:
    """``value`` as a non-blank string of at most ``limit`` characters; an InputError naming
    ``field`` otherwise (a space name, a question, a subject)."""
    if not isinstance(value, str):
        raise InputError(f"expected a string, got {type_name(value)}", field=field)
    if not value.strip():
        raise InputError("must not be empty", field=field)
    if len(value) > limit:
        raise InputError(
            f"has {len(value):,} characters, more than the {limit:,} allowed", field=field
        )
    return value


def check_space(space: object) -> str:
    """A space name: a non-empty, printable label of at most MAX_SPACE_CHARS characters."""
    name = check_text(space, "space", MAX_SPACE_CHARS)
    if not encodable(name) or not name.isprintable():
        raise InputError("holds control or unencodable characters", field="space")
    return name


# A question and a context budget: graphmem.serving.limits (one rule for every surface).


@dataclass(frozen=True)
class Rec:
    """Where a value comes from: every accessor raises InputError naming file and record."""

    src: str | None
    record: str

    def at(self, record: str) -> Rec:
        return Rec(self.src, record)

    def error(self, message: str, field: str | None = None, hint: str | None = None) -> InputError:
        return InputError(message, path=self.src, record=self.record, field=field, hint=hint)

    def items(self, value: Any, what: str) -> list[Any]:
        if not isinstance(value, list):
            raise self.error(f"expected a list of {what}, got {type_name(value)}")
        if not value and self.record == "root":
            raise self.error(f"the file holds no {what}")
        return value

    def obj(self, value: Any) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.error(f"expected an object, got {type_name(value)}")
        return value

    def get(self, obj: dict[str, Any], key: str, types: tuple[type, ...], required: bool) -> Any:
        value = obj.get(key)
        if value is None and not required:
            return None
        if key not in obj:
            raise self.error("missing required field", key)
        # bool is an int subclass; a JSON true is never a valid number or id here.
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            expected = " or ".join(_TYPE_NAMES.get(t, t.__name__) for t in types)
            raise self.error(f"expected {expected}, got {type_name(value)}", key)
        if isinstance(value, str):
            self._plain_text(value, key)
        return value

    def _plain_text(self, value: str, key: str, item: str = "") -> None:
        if not encodable(value):
            raise self.error(f"{item}not valid Unicode (a lone surrogate escape?)", key)
        if "\x00" in value:
            at = value.index("\x00")
            raise self.error(f"{item}holds a NUL character (U+0000) at position {at}", key)

    def _sized(self, value: str, key: str, limit: int, hint: str | None = None) -> str:
        if len(value) > limit:
            raise self.error(
                f"has {len(value):,} characters, more than the {limit:,} allowed", key, hint
            )
        return value

    def req_str(self, obj: dict[str, Any], key: str) -> str:
        """A required string (a question): not blank, at most MAX_ID_CHARS characters."""
        value = cast(str, self.get(obj, key, (str,), True))
        if not value.strip():
            raise self.error("must not be empty", key)
        return self._sized(value, key, MAX_ID_CHARS)

    def label(self, obj: dict[str, Any], key: str) -> str:
        """A required id or name: a non-blank string of at most MAX_ID_CHARS characters
        with no control character."""
        value = self.req_str(obj, key)
        at = control_at(value)
        if at >= 0:
            code = f"U+{ord(value[at]):04X}"
            raise self.error(f"holds the control character {code} at position {at}", key)
        return value

    def speaker(self, obj: dict[str, Any], key: str) -> str:
        """A speaker's name: a label that names someone, i.e. holds a letter or a digit of
        any script. A speaker becomes a Character, and punctuation or an emoji alone names
        nobody (the rule every design applies to names, ``graphmem.semantic.names``)."""
        value = self.label(obj, key)
        if not any(ch.isalnum() for ch in value):
            raise self.error("names nobody: a speaker needs a letter or a digit", key)
        return value

    def id_value(self, obj: dict[str, Any], key: str) -> str:
        """A required id that may be written as a string or an integer."""
        value = self.get(obj, key, (str, int), True)
        return self.label(obj, key) if isinstance(value, str) else self._int_id(value, key)

    def _int_id(self, value: int, key: str) -> str:
        if not -(10**MAX_ID_CHARS) < value < 10**MAX_ID_CHARS:
            raise self.error(f"integer longer than {MAX_ID_CHARS} digits", key)
        return str(value)

    def opt_str(self, obj: dict[str, Any], key: str, limit: int = MAX_TEXT_CHARS) -> str | None:
        value = cast("str | None", self.get(obj, key, (str,), False))
        return None if value is None else self._sized(value, key, limit)

    def str_list(self, obj: dict[str, Any], key: str, required: bool = False) -> list[str]:
        items = cast("list[Any] | None", self.get(obj, key, (list,), required)) or []
        for i, item in enumerate(items):
            if not isinstance(item, str):
                raise self.error(f"item {i} should be a string, got {type_name(item)}", key)
            self._plain_text(item, key, f"item {i}: ")
            self._sized(item, key, MAX_TEXT_CHARS)
        return items

    def text(self, obj: dict[str, Any], key: str, skips: Skips | None = None) -> str | None:
        """A turn's text, at most MAX_TURN_CHARS characters. One with no visible character
        is refused, or with ``skips`` of a load that is not strict, counted there and None
        (the turn is left out)."""
        text = cast(str, self.get(obj, key, (str,), True))
        problem = _emptiness(text)
        if problem is not None:
            error = self.error(problem, key)
            if skips is None:
                raise error
            skips.empty_turn(error)
            return None
        return self._sized(text, key, MAX_TURN_CHARS, hint="split the message into several turns")

    def stamp(self, obj: dict[str, Any], key: str) -> datetime | None:
        raw = self.opt_str(obj, key, MAX_ID_CHARS)
        try:
            return None if raw is None else parse_timestamp(raw)
        except ValueError as exc:
            raise self.error(str(exc), key, hint=STAMP_HINT) from None

    def answer(self, obj: dict[str, Any], key: str) -> str | None:
        # Gold answers are numbers as often as strings in LoCoMo ("2022").
        value = self.get(obj, key, (str, int, float), False)
        if isinstance(value, int) and not isinstance(value, bool):
            return self._int_id(value, key)
        return None if value is None else str(value)


class Skips:
    """What one load leaves out, counted; with ``strict`` each is refused instead (the
    error it would raise is handed in, so strict and lenient loads name the same place).

    Left out: a turn whose text has no visible character, and a session or a turn whose id
    repeats an earlier one of the conversation with the same content (an export that holds a
    session twice: the first copy is kept). A repeated id with other content is refused in
    both modes: a citation of it would name two turns."""

    def __init__(self, strict: bool = False) -> None:
        self.strict = strict
        self.conversation = ""  # the conversation being read (set by the loader)
        self._counts: dict[str, dict[str, int]] = {}
        self._places: dict[str, list[str]] = {}

    def at(self, conversation: str) -> None:
        """What is skipped from now on belongs to ``conversation``."""
        self.conversation = conversation

    def empty_turn(self, error: InputError) -> None:
        self._skip(error, "empty_turns", 1, "no visible text")

    def repeated_session(self, error: InputError, turns: int) -> None:
        self._skip(error, "repeated_sessions", 1, "repeats an earlier session")
        self._count("repeated_turns", turns)

    def repeated_turn(self, error: InputError) -> None:
        self._skip(error, "repeated_turns", 1, "repeats an earlier turn")

    def _count(self, kind: str, count: int) -> None:
        counts = self._counts.setdefault(self.conversation, dict.fromkeys(SKIP_KINDS, 0))
        counts[kind] += count

    def _skip(self, error: InputError, kind: str, count: int, why: str) -> None:
        if self.strict:
            raise error
        self._count(kind, count)
        places = self._places.setdefault(self.conversation, [])
        if len(places) < MAX_SKIP_PLACES:
            places.append(f"{error.record}: {why}")

    def result(self) -> Skipped:
        return Skipped.merged(
            {
                cid: Skipped(
                    empty_turns=counts["empty_turns"],
                    repeated_sessions=counts["repeated_sessions"],
                    repeated_turns=counts["repeated_turns"],
                    places=self._places.get(cid, []),
                )
                for cid, counts in self._counts.items()
            }
        )


def same_content(a: Turn, b: Turn) -> bool:
    """Whether two turns of one id say the same (their time may differ: a copy of a session
    exported again at a later date)."""
    return (a.speaker, a.text, a.caption, a.image_query) == (
        b.speaker,
        b.text,
        b.caption,
        b.image_query,
    )


def unique_turns(conv: ConversationIn, rec: Rec, id_field: str, skips: Skips) -> ConversationIn:
    """``conv`` with each turn id once: a repeat with the first's content is skipped
    (``skips``; refused when strict), one with other content refused. Sessions left with no
    turn go, and the others are numbered again."""
    seen: dict[str, Turn] = {}
    sessions: list[SessionIn] = []
    changed = False
    for session in conv.sessions:
        kept: list[Turn] = []
        for turn in session.turns:
            first = seen.get(turn.source_id)
            if first is None:
                seen[turn.source_id] = turn
                kept.append(turn)
                continue
            where = rec.at(f"{rec.record} session {session.source_id} turn {turn.index}")
            said = f"duplicate turn id {turn.source_id!r}"
            if not skips.strict and not same_content(first, turn):
                raise where.error(
                    said,
                    id_field,
                    hint="its speaker or text differs from the first turn of that id, so a "
                    "citation of it would name two turns (an identical repeat is skipped)",
                )
            skips.repeated_turn(where.error(said, id_field))
            changed = True
        if kept or not session.turns:
            sessions.append(session.model_copy(update={"index": len(sessions), "turns": kept}))
    return conv.model_copy(update={"sessions": sessions}) if changed else conv
