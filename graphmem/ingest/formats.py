"""Conversation input formats: LoCoMo, LongMemEval and a simple JSONL format.

JSONL format
------------
One message per line, UTF-8, each line a JSON object::

    {"conversation": "trip-planning", "session": 1, "speaker": "Ana",
     "text": "We land in Lisbon on Friday.", "timestamp": "2024-03-14T09:30:00"}

Fields:

- ``conversation`` (string, required): conversation id; conversations are ordered by
  first appearance.
- ``session`` (string or integer, required): session name within the conversation;
  sessions are ordered by first appearance, not by name or time.
- ``speaker`` (string, required): who said it; speakers are listed in order of first
  appearance.
- ``text`` (string, required): the message, not empty, at most 20,000 characters.
- ``timestamp`` (string, optional): ISO-8601 (``2024-03-14``, ``2024-03-14T09:30:00``,
  ``2024-03-14 09:30+01:00``); a UTC offset is dropped and the local wall-clock time kept.
  A session starts at its earliest timestamp; messages without one get that start time.
- ``id`` (string, optional): message id, unique within the conversation; defaults to
  ``"<session>:<n>"`` with ``n`` the 0-based position of the message in its session.
- ``caption`` (string, optional): description of an image shared with the message.

Blank lines are ignored. A JSON array of the same objects is accepted too.
Any problem stops the load with an InputError naming the file, line and field.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Literal, cast

from graphmem.errors import InputError
from graphmem.ingest.models import ConversationIn, Dataset, QAItem, SessionIn, Turn

FormatName = Literal["locomo", "longmemeval", "jsonl"]
MAX_TEXT_CHARS = 20_000

_FORMAT_HINT = "pass the format explicitly: locomo, longmemeval or jsonl"
_STAMP_HINT = (
    "use ISO-8601 (2024-03-14T09:30:00), '1:56 pm on 8 May, 2023' or '2023/05/20 (Sat) 02:21'"
)
_STAMP_FORMATS = (
    "%I:%M %p on %d %B, %Y",  # LoCoMo
    "%I:%M %p on %d %b, %Y",
    "%Y/%m/%d (%a) %H:%M",  # LongMemEval
    "%Y/%m/%d %H:%M",
)
_SESSION_KEY = re.compile(r"session_(\d+)")
_DIA_ID = re.compile(r"D\s*:?\s*(\d+)\s*:\s*(\d+)", re.IGNORECASE)
_TYPE_NAMES: dict[type, str] = {
    dict: "an object",
    list: "a list",
    str: "a string",
    int: "an integer",
    float: "a number",
    bool: "true or false",
}


# ---------------------------------------------------------------- public helpers


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
        raise ValueError(f"unrecognised timestamp {value!r}") from None


def normalize_evidence(raw: list[str]) -> list[str]:
    """Canonical LoCoMo turn ids from annotated evidence strings, deduplicated, in order.

    The annotations hold several ids in one string ("D8:6; D9:17"), zero-padded turn
    numbers ("D30:05") and stray colons ("D:11:26"); strings with no id ("D") are dropped.
    """
    out: list[str] = []
    for item in raw:
        for match in _DIA_ID.finditer(item):
            dia_id = f"D{int(match[1])}:{int(match[2])}"
            if dia_id not in out:
                out.append(dia_id)
    return out


def detect_format(path: Path) -> FormatName:
    """Tell the format of a file from its extension and first record."""
    return _sniff(path, _read(path))[0]


def load(path: Path, fmt: Literal["auto", "locomo", "longmemeval", "jsonl"] = "auto") -> Dataset:
    """Load and validate a whole file; raises InputError before returning anything."""
    text = _read(path)
    root = _Rec(str(path), "root")
    data: Any = None
    if fmt == "auto":
        fmt, data = _sniff(path, text)
    elif fmt != "jsonl" or text.lstrip().startswith("["):
        data = _parse_json(text, root.src)
    if fmt == "locomo":
        return _load_locomo(root.items(data, "LoCoMo samples"), root.src)
    if fmt == "longmemeval":
        return _load_longmemeval(root.items(data, "LongMemEval items"), root.src)
    if data is not None:
        records = [(f"message {i}", m) for i, m in enumerate(root.items(data, "messages"))]
    else:
        records = _jsonl_lines(text, root.src)
    return _load_jsonl(records, root.src)


# ---------------------------------------------------------------- reading and sniffing


def _read(path: Path) -> str:
    try:
        # utf-8-sig: files saved by Windows editors start with a BOM json.loads rejects.
        return path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise InputError("file not found", path=str(path)) from None
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text (byte offset {exc.start})", path=str(path)) from None
    except OSError as exc:
        raise InputError(f"cannot read file: {exc.strerror or exc}", path=str(path)) from None


def _parse_json(text: str, src: str, record: str | None = None) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno} column {exc.colno}"
        raise InputError(
            f"broken JSON: {exc.msg} at {where}", path=src, record=record or where
        ) from None


def _sniff(path: Path, text: str) -> tuple[FormatName, Any]:
    """Return the format and, for JSON documents, the already parsed data."""
    if path.suffix.lower() in (".jsonl", ".ndjson"):
        return "jsonl", None
    stripped = text.lstrip()
    if stripped.startswith("{"):
        try:
            first = json.loads(stripped.split("\n", 1)[0])
        except json.JSONDecodeError:
            first = None
        if isinstance(first, dict) and "conversation" in first and "text" in first:
            return "jsonl", None
    elif stripped.startswith("["):
        data = _parse_json(text, str(path))
        head = data[0] if isinstance(data, list) and data else None
        if isinstance(head, dict):
            if "haystack_sessions" in head:
                return "longmemeval", data
            if isinstance(head.get("conversation"), dict):
                return "locomo", data
            if "conversation" in head and "text" in head:
                return "jsonl", data
    raise InputError(
        "unknown input format: expected a LoCoMo or LongMemEval JSON list or JSONL messages",
        path=str(path),
        hint=_FORMAT_HINT,
    )


def _jsonl_lines(text: str, src: str) -> list[tuple[str, Any]]:
    records: list[tuple[str, Any]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            records.append((f"line {number}", _parse_json(line, src, f"line {number}")))
    return records


# ---------------------------------------------------------------- field access


def _type_name(value: object) -> str:
    return "null" if value is None else _TYPE_NAMES.get(type(value), type(value).__name__)


@dataclass(frozen=True)
class _Rec:
    """Where a value comes from: every accessor raises InputError naming file and record."""

    src: str
    record: str

    def at(self, record: str) -> _Rec:
        return _Rec(self.src, record)

    def error(self, message: str, field: str | None = None, hint: str | None = None) -> InputError:
        return InputError(message, path=self.src, record=self.record, field=field, hint=hint)

    def items(self, value: Any, what: str) -> list[Any]:
        if not isinstance(value, list):
            raise self.error(f"expected a list of {what}, got {_type_name(value)}")
        if not value and self.record == "root":
            raise self.error(f"the file holds no {what}")
        return value

    def obj(self, value: Any) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.error(f"expected an object, got {_type_name(value)}")
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
            raise self.error(f"expected {expected}, got {_type_name(value)}", key)
        return value

    def req_str(self, obj: dict[str, Any], key: str) -> str:
        value = cast(str, self.get(obj, key, (str,), True))
        if not value.strip():
            raise self.error("must not be empty", key)
        return value

    def opt_str(self, obj: dict[str, Any], key: str) -> str | None:
        return cast("str | None", self.get(obj, key, (str,), False))

    def str_list(self, obj: dict[str, Any], key: str, required: bool = False) -> list[str]:
        items = cast("list[Any] | None", self.get(obj, key, (list,), required)) or []
        for i, item in enumerate(items):
            if not isinstance(item, str):
                raise self.error(f"item {i} should be a string, got {_type_name(item)}", key)
        return items

    def text(self, obj: dict[str, Any], key: str) -> str:
        text = cast(str, self.get(obj, key, (str,), True))
        if not text.strip():
            raise self.error("text is empty or whitespace only", key)
        if len(text) > MAX_TEXT_CHARS:
            raise self.error(
                f"text has {len(text):,} characters, more than the {MAX_TEXT_CHARS:,} allowed",
                key,
                hint="split the message into several turns",
            )
        return text

    def stamp(self, obj: dict[str, Any], key: str) -> datetime | None:
        raw = self.opt_str(obj, key)
        try:
            return None if raw is None else parse_timestamp(raw)
        except ValueError as exc:
            raise self.error(str(exc), key, hint=_STAMP_HINT) from None

    def answer(self, obj: dict[str, Any], key: str) -> str | None:
        # Gold answers are numbers as often as strings in LoCoMo ("2022").
        value = self.get(obj, key, (str, int, float), False)
        return None if value is None else str(value)


def _check_unique_ids(conv: ConversationIn, rec: _Rec, id_field: str) -> None:
    seen: set[str] = set()
    for session in conv.sessions:
        for turn in session.turns:
            if turn.source_id in seen:
                where = rec.at(f"{rec.record} session {session.source_id} turn {turn.index}")
                raise where.error(f"duplicate turn id {turn.source_id!r}", id_field)
            seen.add(turn.source_id)


# ---------------------------------------------------------------- LoCoMo


def _load_locomo(samples: list[Any], src: str) -> Dataset:
    conversations: list[ConversationIn] = []
    qa: dict[str, list[QAItem]] = {}
    for i, raw in enumerate(samples):
        sample = _Rec(src, f"sample #{i}").obj(raw)
        cid = _Rec(src, f"sample #{i}").req_str(sample, "sample_id")
        rec = _Rec(src, f"sample {cid}")
        if cid in qa:
            raise rec.error(f"duplicate sample id {cid!r}", "sample_id")
        conv = cast("dict[str, Any]", rec.get(sample, "conversation", (dict,), True))
        conversation = _locomo_conversation(cid, conv, rec)
        _check_unique_ids(conversation, rec, "dia_id")
        conversations.append(conversation)
        questions = rec.get(sample, "qa", (list,), False) or []
        qa[cid] = [_locomo_qa(q, rec.at(f"{rec.record} qa {j}")) for j, q in enumerate(questions)]
    return Dataset(conversations=conversations, qa=qa)


def _locomo_conversation(cid: str, conv: dict[str, Any], rec: _Rec) -> ConversationIn:
    speakers = [rec.req_str(conv, key) for key in ("speaker_a", "speaker_b")]
    # Numeric order: a string sort would put session_10 before session_2.
    numbers = sorted(int(m[1]) for key in conv if (m := _SESSION_KEY.fullmatch(key)))
    sessions: list[SessionIn] = []
    for n in numbers:
        key = f"session_{n}"
        turns_raw = cast("list[Any]", rec.get(conv, key, (list,), True))
        if not turns_raw:
            continue  # an empty session carries nothing to remember
        started = rec.stamp(conv, f"{key}_date_time")
        turns = [
            _locomo_turn(t, j, started, rec.at(f"{rec.record} {key} turn {j}"))
            for j, t in enumerate(turns_raw)
        ]
        raw_date = rec.opt_str(conv, f"{key}_date_time")
        sessions.append(
            SessionIn(
                index=len(sessions),
                source_id=key,
                started_at=started,
                turns=turns,
                source_date=raw_date,
            )
        )
    meta = {"format": "locomo"}
    return ConversationIn(conversation_id=cid, speakers=speakers, sessions=sessions, meta=meta)


def _locomo_turn(raw: Any, index: int, started: datetime | None, rec: _Rec) -> Turn:
    turn = rec.obj(raw)
    dia_id = rec.req_str(turn, "dia_id").strip()
    # Canonical form so turn ids match the normalised evidence ("D30:05" -> "D30:5").
    match = _DIA_ID.fullmatch(dia_id)
    return Turn(
        source_id=f"D{int(match[1])}:{int(match[2])}" if match else dia_id,
        speaker=rec.req_str(turn, "speaker"),
        text=rec.text(turn, "text"),
        timestamp=started,
        caption=rec.opt_str(turn, "blip_caption"),
        image_query=rec.opt_str(turn, "query"),
        index=index,
    )


def _locomo_qa(raw: Any, rec: _Rec) -> QAItem:
    item = rec.obj(raw)
    raw_evidence = rec.str_list(item, "evidence")
    return QAItem(
        question=rec.req_str(item, "question"),
        answer=rec.answer(item, "answer"),
        category=rec.get(item, "category", (int,), False),
        evidence=normalize_evidence(raw_evidence),
        raw_evidence=raw_evidence,
    )


# ---------------------------------------------------------------- LongMemEval


def _load_longmemeval(items: list[Any], src: str) -> Dataset:
    conversations: list[ConversationIn] = []
    qa: dict[str, list[QAItem]] = {}
    for i, raw in enumerate(items):
        item = _Rec(src, f"item #{i}").obj(raw)
        qid = _Rec(src, f"item #{i}").req_str(item, "question_id")
        rec = _Rec(src, f"question {qid}")
        if qid in qa:
            raise rec.error(f"duplicate question id {qid!r}", "question_id")
        conversation, evidence = _longmemeval_conversation(qid, item, rec)
        _check_unique_ids(conversation, rec, "haystack_session_ids")
        conversations.append(conversation)
        question = QAItem(
            question=rec.req_str(item, "question"),
            answer=rec.answer(item, "answer"),
            category=None,
            evidence=evidence,
            raw_evidence=list(evidence),
            question_id=qid,
            answer_session_ids=rec.str_list(item, "answer_session_ids"),
        )
        qa[qid] = [question]
    return Dataset(conversations=conversations, qa=qa)


def _longmemeval_conversation(
    qid: str, item: dict[str, Any], rec: _Rec
) -> tuple[ConversationIn, list[str]]:
    """Build the haystack conversation and collect the ids of turns marked has_answer."""
    session_ids = rec.str_list(item, "haystack_session_ids", required=True)
    dates = rec.str_list(item, "haystack_dates", required=True)
    haystack = cast("list[Any]", rec.get(item, "haystack_sessions", (list,), True))
    for field, values in (("haystack_dates", dates), ("haystack_sessions", haystack)):
        if len(values) != len(session_ids):
            count = f"has {len(values)} entries, haystack_session_ids {len(session_ids)}"
            raise rec.error(count, field)
    speakers = ["user", "assistant"]
    evidence: list[str] = []
    sessions: list[SessionIn] = []
    for k, (sid, date, turns_raw) in enumerate(zip(session_ids, dates, haystack, strict=True)):
        srec = rec.at(f"{rec.record} session {sid}")
        started = srec.stamp({"haystack_dates": date}, "haystack_dates")
        turns: list[Turn] = []
        for j, raw in enumerate(srec.items(turns_raw, "turns")):
            trec = srec.at(f"{srec.record} turn {j}")
            turn = trec.obj(raw)
            role = trec.req_str(turn, "role")
            if role not in speakers:
                speakers.append(role)
            if trec.get(turn, "has_answer", (bool,), False):
                evidence.append(f"{sid}:{j}")
            text = trec.text(turn, "content")
            turns.append(
                Turn(source_id=f"{sid}:{j}", speaker=role, text=text, timestamp=started, index=j)
            )
        sessions.append(
            SessionIn(index=k, source_id=sid, started_at=started, turns=turns, source_date=date)
        )
    meta = {
        "format": "longmemeval",
        "question_type": rec.opt_str(item, "question_type"),
        "question_date": rec.stamp(item, "question_date"),
        "question_date_raw": rec.opt_str(item, "question_date"),
    }
    conv = ConversationIn(conversation_id=qid, speakers=speakers, sessions=sessions, meta=meta)
    return conv, evidence


# ---------------------------------------------------------------- JSONL


def _load_jsonl(records: list[tuple[str, Any]], src: str) -> Dataset:
    if not records:
        raise InputError("the file holds no messages", path=src)
    # conversation -> session -> [(record, message)]; dicts keep first-appearance order
    grouped: dict[str, dict[str, list[tuple[_Rec, dict[str, Any]]]]] = {}
    for record, raw in records:
        rec = _Rec(src, record)
        msg = rec.obj(raw)
        cid = rec.req_str(msg, "conversation")
        session = rec.get(msg, "session", (str, int), True)
        if isinstance(session, str):
            rec.req_str(msg, "session")  # rejects a blank name
        grouped.setdefault(cid, {}).setdefault(str(session), []).append((rec, msg))
    conversations = [_jsonl_conversation(cid, sessions) for cid, sessions in grouped.items()]
    return Dataset(conversations=conversations, qa={c.conversation_id: [] for c in conversations})


def _jsonl_conversation(
    cid: str, grouped: dict[str, list[tuple[_Rec, dict[str, Any]]]]
) -> ConversationIn:
    speakers: list[str] = []
    sessions: list[SessionIn] = []
    first_use: dict[str, str] = {}
    for k, (name, messages) in enumerate(grouped.items()):
        turns = [_jsonl_turn(msg, n, name, rec) for n, (rec, msg) in enumerate(messages)]
        for turn, (rec, _) in zip(turns, messages, strict=True):
            if turn.source_id in first_use:
                where = first_use[turn.source_id]
                raise rec.error(f"duplicate id {turn.source_id!r}, first used on {where}", "id")
            first_use[turn.source_id] = rec.record
            if turn.speaker not in speakers:
                speakers.append(turn.speaker)
        started = min((t.timestamp for t in turns if t.timestamp is not None), default=None)
        turns = [t if t.timestamp else t.model_copy(update={"timestamp": started}) for t in turns]
        sessions.append(SessionIn(index=k, source_id=name, started_at=started, turns=turns))
    meta = {"format": "jsonl"}
    return ConversationIn(conversation_id=cid, speakers=speakers, sessions=sessions, meta=meta)


def _jsonl_turn(msg: dict[str, Any], n: int, session: str, rec: _Rec) -> Turn:
    return Turn(
        source_id=rec.req_str(msg, "id") if msg.get("id") is not None else f"{session}:{n}",
        speaker=rec.req_str(msg, "speaker"),
        text=rec.text(msg, "text"),
        timestamp=rec.stamp(msg, "timestamp"),
        caption=rec.opt_str(msg, "caption"),
        index=n,
    )
