"""Issue 57, "A user's first day": the conversations a new user brings, written as files in
the three input formats, and what a query of the stored result may cite.

Shared by the stateful property test (``test_first_day_state.py``) and the surface matrix
(``test_first_day_surfaces.py``). A conversation is a ``ConvSpec``: sessions of turns with
their speaker, text and (maybe no) timestamp. ``write_file`` renders specs as JSONL, a JSON
array of messages, LoCoMo or LongMemEval, and says which turns graphmem must store for it
(their conversation, session and turn ids by each format's own rules, docs/input.md,
"Formats"), or that the file is refused.

Citations: ``resolve`` accepts a bare turn id in a space of one conversation and the
qualified ``conversation/turn id`` anywhere; in a space of several conversations a bare id
is refused, since it may name a turn of each (issue 57: both conversations cited ``[1:0]``).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Literal

from hypothesis import strategies as st

from graphmem.errors import (
    CatalogError,
    ConfigError,
    GraphmemError,
    InputError,
    LLMError,
    ModelLoadError,
    SchemaError,
    ServerError,
)
from graphmem.graph.digest import HISTORY_LABELS, VOLATILE
from graphmem.graph.rows import native
from graphmem.graph.store import GraphStore

# docs/cli-guide.md: "Errors are one clean message with an exit code (2 settings or usage ...; 3 bad
# input; 4 server; 5 schema; 6 catalog; 7 LLM; 8 model ...)". Most specific class first.
DOCUMENTED_EXIT_CODES: tuple[tuple[type[GraphmemError], int], ...] = (
    (InputError, 3),
    (ConfigError, 2),
    (ServerError, 4),
    (SchemaError, 5),
    (CatalogError, 6),
    (LLMError, 7),
    (ModelLoadError, 8),
)


def documented_exit_code(exc: GraphmemError) -> int | None:
    return next((code for cls, code in DOCUMENTED_EXIT_CODES if isinstance(exc, cls)), None)


# --- conversation shapes ------------------------------------------------------------------


@dataclass(frozen=True)
class TurnSpec:
    speaker: str
    text: str
    at: datetime | None


@dataclass(frozen=True)
class SessionSpec:
    name: str  # JSONL's session label and LongMemEval's session id; LoCoMo numbers them
    turns: tuple[TurnSpec, ...]


@dataclass(frozen=True)
class ConvSpec:
    cid: str
    sessions: tuple[SessionSpec, ...]

    @property
    def turns(self) -> int:
        return sum(len(s.turns) for s in self.sessions)


@dataclass(frozen=True)
class Sizes:
    """How large the drawn conversations get: the default run keeps them small (every
    builder parses every turn), ``-m long`` goes to the issue's 40 turns a session."""

    max_sessions: int
    max_turns: int
    long_text: int  # characters of the "very long" turn


SMALL = Sizes(max_sessions=4, max_turns=5, long_text=2_000)
DEEP = Sizes(max_sessions=4, max_turns=40, long_text=30_000)

SPEAKERS: dict[str, list[str]] = {
    "one": ["Ana"],
    "two": ["Ana", "Ben"],
    "many": ["Ana", "Ben", "Chloé", "李雷", "Zoë 🎉", "o'Neil-Smith"],
    "assistant": ["user", "assistant"],
}
# Conversation ids and session labels come from small pools, so that conversations of one
# space share session labels (and with them the default turn ids, "1:0" in each) and files
# ingested later extend or rewrite what earlier ones stored. No "/": it qualifies a citation.
CONVERSATIONS = ["a", "b", "chat ü"]
SESSIONS = ["1", "2", "3", "evening ☀"]

_SENTENCES = [
    "I adopted a grey kitten named Pixel from the shelter last week.",
    "I finally finished the marathon in Lisbon, it took me four hours.",
    "My sister is moving to Toronto next month for a job in robotics.",
    "Yesterday I moved to Porto, and tomorrow I start at the bakery.",
    "We planted tomatoes and basil in the community garden on Saturday.",
    "I used to live in Madrid, but now I live in Porto.",
    "Can you suggest a pasta recipe for tonight?",
    "Try aglio e olio: garlic, olive oil, chili and parsley.",
    # a statement and its change (the validity layer supersedes the first: `history`)
    "I have been doing yoga twice a week since January.",
    "I have been doing yoga three times a week lately.",
]
_SHORT = ["ok", "k", "lol", "👍", "?", "yes!!", "no.", "hmm…", "42", "brb"]
_MESSY = [
    "😂😂😂 no way 🎉🎉",
    "line one\nline two\n\n  indented line three",
    "<b>bold</b> and <i>italic</i> <script>alert(1)</script>",
    "**markdown** _text_ with `code` and [a link](https://example.com/a?b=1&c=2)",
    "```python\nprint('hi')\n```",
    "# Heading\n- item one\n- item two",
    "東京に行きました。とても楽しかった！",
    "مرحبا كيف حالك؟ انتقلت إلى القاهرة",
    "Привет! Я переехал в Москву в прошлом году.",
    "नमस्ते, मैं कल दिल्ली गया था",
    "我很好，谢谢。我明天去北京。",
    "Zoë's café in Ångström street — naïve résumé",
    "tab\tseparated\tvalues\t1\t2",
    "👨‍👩‍👧 family day 🇵🇹 👍🏽 🏳️‍🌈",
    "ok ok ok ok ok ok ok ok ok ok ok ok ok ok ok ok ok ok ok ok ok ok ok ok ok ok ok ok",
]
STAMP_MODES = ["present", "absent", "mixed", "out_of_order", "far_past", "future"]
# Bases that leave room for every offset a conversation adds (up to 4 weekly sessions of
# 40 one-minute turns): year 1 and 9999 are datetime's own ends.
_BASES = {
    "present": [datetime(2023, 5, 8, 13, 56), datetime(2024, 2, 29, 23, 30)],
    "far_past": [datetime(1, 1, 1, 0, 0), datetime(1066, 10, 14, 9, 0), datetime(1899, 12, 31)],
    "future": [datetime(2999, 1, 1, 8, 0), datetime(9999, 11, 1, 12, 0)],
}


def texts(sizes: Sizes) -> st.SearchStrategy[str]:
    """One turn's text: a sentence, a very short or very long one, messy, or a mix of them.
    Drawn from a fixed pool with one choice a turn: a deep run's conversations of 160 turns
    stay within hypothesis's budget of choices per run (past it, a run stops early)."""
    one = [*_SENTENCES, *_SHORT, *_MESSY]
    n = len(one)
    mixed = [f"{one[i]} {one[(i * 7 + 3) % n]}" for i in range(n)]
    lines = [f"{one[i]}\n{one[(i * 5 + 1) % n]}\n{one[(i * 3 + 2) % n]}" for i in range(n)]
    long_text = " ".join(_SENTENCES * (sizes.long_text // 400 + 1))[: sizes.long_text]
    return st.sampled_from([*one, *mixed, *lines, long_text])


@st.composite
def conversations(
    draw: st.DrawFn, sizes: Sizes, cid: str | None = None, min_sessions: int = 0
) -> ConvSpec:
    """A conversation of ``min_sessions`` to ``sizes.max_sessions`` sessions of 1 to
    ``sizes.max_turns`` turns, its speakers of one shape, its timestamps of one mode."""
    name = cid if cid is not None else draw(st.sampled_from(CONVERSATIONS))
    speakers = SPEAKERS[draw(st.sampled_from(sorted(SPEAKERS)))]
    mode = draw(st.sampled_from(STAMP_MODES))
    base = draw(st.sampled_from(_BASES.get(mode, _BASES["present"])))
    labels = draw(
        st.lists(
            st.sampled_from(SESSIONS),
            min_size=min_sessions,
            max_size=sizes.max_sessions,
            unique=True,
        )
    )
    sessions = []
    for k, label in enumerate(labels):
        n = draw(st.integers(1, sizes.max_turns))
        turns = []
        for j in range(n):
            # out of order: later sessions are dated earlier, and turns go back in time
            step = -(k * 7 * 24 * 60 + j) if mode == "out_of_order" else k * 7 * 24 * 60 + j
            at: datetime | None = base + timedelta(minutes=step)
            if mode == "out_of_order":
                at = datetime(2024, 6, 1, 12, 0) + timedelta(minutes=step)
            if mode == "absent" or (mode == "mixed" and draw(st.booleans())):
                at = None
            speaker = speakers[j % len(speakers)] if draw(st.booleans()) else None
            turns.append(
                TurnSpec(
                    speaker=speaker or draw(st.sampled_from(speakers)),
                    text=draw(texts(sizes)),
                    at=at,
                )
            )
        sessions.append(SessionSpec(name=label, turns=tuple(turns)))
    return ConvSpec(cid=name, sessions=tuple(sessions))


Format = Literal["jsonl", "json", "locomo", "longmemeval"]
FORMATS: list[Format] = ["jsonl", "json", "locomo", "longmemeval"]


@st.composite
def file_contents(
    draw: st.DrawFn, sizes: Sizes, min_sessions: int = 0
) -> tuple[Format, list[ConvSpec]]:
    """One to two conversations of distinct ids, and the format to write them in. A
    LongMemEval haystack holds a session at least (an empty one is accepted and stores
    nothing, where JSONL and LoCoMo refuse an empty conversation: not a first day's file)."""
    fmt = draw(st.sampled_from(FORMATS))
    ids = draw(st.lists(st.sampled_from(CONVERSATIONS), min_size=1, max_size=2, unique=True))
    least = max(min_sessions, 1 if fmt == "longmemeval" else 0)
    return fmt, [draw(conversations(sizes, cid, least)) for cid in ids]


# --- files --------------------------------------------------------------------------------


@dataclass(frozen=True)
class StoredTurn:
    """A turn as the graph holds it (``stored_turns``), or as a file must leave it."""

    conversation: str
    session: str
    source_id: str
    speaker: str
    text: str


@dataclass(frozen=True)
class Written:
    """A file and what ingesting it must do: store ``turns`` (every turn of every session
    it holds), or be refused with an InputError (``refused``: why)."""

    path: Path
    fmt: Format
    convs: tuple[ConvSpec, ...]
    turns: tuple[StoredTurn, ...]
    refused: str | None

    @property
    def conversation_ids(self) -> frozenset[str]:
        return frozenset(c.cid for c in self.convs if c.sessions)


def _iso(at: datetime) -> str:
    # isoformat() writes year 1 as "0001": every reader parses it back
    return at.isoformat()


def _locomo_stamp(at: datetime) -> str:
    # LoCoMo's own "1:56 pm on 8 May, 2023" where strptime reads the year back (four
    # digits), ISO-8601 otherwise (accepted in every format)
    if at.year < 1000:
        return _iso(at)
    return f"{at:%I:%M} {at:%p}".lower() + f" on {at.day} {at:%B}, {at.year}"


def _longmemeval_stamp(at: datetime) -> str:
    return _iso(at) if at.year < 1000 else f"{at:%Y/%m/%d (%a) %H:%M}"


def _session_start(session: SessionSpec) -> datetime | None:
    return next((t.at for t in session.turns if t.at is not None), None)


def write_file(path: Path, fmt: Format, convs: list[ConvSpec], interleave: bool = False) -> Written:
    """``convs`` written at ``path`` in ``fmt`` (``interleave``: JSONL lines of the
    conversations alternate, as an export of several chats may hold them)."""
    turns: list[StoredTurn] = []
    refused = None
    if fmt in ("jsonl", "json"):
        lines: list[list[dict[str, Any]]] = []
        for conv in convs:
            rows: list[dict[str, Any]] = []
            for session in conv.sessions:
                for j, turn in enumerate(session.turns):
                    row: dict[str, Any] = {
                        "conversation": conv.cid,
                        "session": int(session.name) if session.name.isdigit() else session.name,
                        "speaker": turn.speaker,
                        "text": turn.text,
                    }
                    if turn.at is not None:
                        row["timestamp"] = _iso(turn.at)
                    rows.append(row)
                    turns.append(
                        StoredTurn(conv.cid, session.name, f"{session.name}:{j}", *_said(turn))
                    )
            lines.append(rows)
        flat = _alternate(lines) if interleave else [r for rows in lines for r in rows]
        if not flat:
            refused = "the file holds no messages"
        if fmt == "json":
            path.write_text(json.dumps(flat, ensure_ascii=False), encoding="utf-8")
        else:
            text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in flat)
            path.write_text(text, encoding="utf-8")
    elif fmt == "locomo":
        samples = []
        for conv in convs:
            # LoCoMo names two speakers; a conversation of one names a second who is silent
            named = list(dict.fromkeys(t.speaker for s in conv.sessions for t in s.turns))
            pair = [*named, *(n for n in ("Ana", "Ben") if n not in named)][:2]
            sample: dict[str, Any] = {"speaker_a": pair[0], "speaker_b": pair[1]}
            for k, session in enumerate(conv.sessions, start=1):
                sample[f"session_{k}"] = [
                    {"speaker": t.speaker, "dia_id": f"D{k}:{j + 1}", "text": t.text}
                    for j, t in enumerate(session.turns)
                ]
                start = _session_start(session)
                if start is not None:
                    sample[f"session_{k}_date_time"] = _locomo_stamp(start)
                turns.extend(
                    StoredTurn(conv.cid, f"session_{k}", f"D{k}:{j + 1}", *_said(t))
                    for j, t in enumerate(session.turns)
                )
            if not conv.sessions:
                refused = f"sample {conv.cid} holds no turns"
            samples.append({"sample_id": conv.cid, "conversation": sample, "qa": []})
        path.write_text(json.dumps(samples, ensure_ascii=False), encoding="utf-8")
    else:
        items = []
        for conv in convs:
            dates = [_session_start(s) or datetime(2023, 5, 20, 2, 21) for s in conv.sessions]
            items.append(
                {
                    "question_id": conv.cid,
                    "question_type": "single-session-user",
                    "question": "What did I say?",
                    "answer": "something",
                    "haystack_session_ids": [s.name for s in conv.sessions],
                    "haystack_dates": [_longmemeval_stamp(d) for d in dates],
                    "haystack_sessions": [
                        [{"role": t.speaker, "content": t.text} for t in s.turns]
                        for s in conv.sessions
                    ],
                    "answer_session_ids": [],
                }
            )
            turns.extend(
                StoredTurn(conv.cid, s.name, f"{s.name}:{j}", *_said(t))
                for s in conv.sessions
                for j, t in enumerate(s.turns)
            )
        path.write_text(json.dumps(items, ensure_ascii=False), encoding="utf-8")
    return Written(path, fmt, tuple(convs), tuple(turns) if refused is None else (), refused)


def _said(turn: TurnSpec) -> tuple[str, str]:
    return turn.speaker, turn.text


def _alternate(groups: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for i in range(max((len(g) for g in groups), default=0)):
        out.extend(g[i] for g in groups if i < len(g))
    return out


def messages_of(session: SessionSpec) -> list[dict[str, Any]]:
    """A session as ``Memory.add_messages`` (and the MCP and HTTP writes) take it."""
    out = []
    for turn in session.turns:
        message: dict[str, Any] = {"speaker": turn.speaker, "text": turn.text}
        if turn.at is not None:
            message["timestamp"] = turn.at
        out.append(message)
    return out


# Files every reader refuses (exit code 3), each for one reason a user's file has.
BAD_FILES: dict[str, str] = {
    "broken_json": '{"conversation": "a", "session": 1, "speaker": "Ana", "text": "hi"}\n'
    '{"conversation": "a", "session": 1, "speaker": "Ben", "text": \n',
    "missing_speaker": '{"conversation": "a", "session": 1, "text": "hi"}\n',
    "bad_timestamp": '{"conversation": "a", "session": 1, "speaker": "Ana", "text": "hi", '
    '"timestamp": "last tuesday-ish"}\n',
    "id_twice": '{"conversation": "a", "session": 1, "speaker": "Ana", "text": "hi", "id": "m"}\n'
    '{"conversation": "a", "session": 1, "speaker": "Ben", "text": "yo", "id": "m"}\n',
    "speaker_names_nobody": '{"conversation": "a", "session": 1, "speaker": "🙂", "text": "hi"}\n',
    "empty": "",
    "not_a_conversation": '{"hello": "world"}',
}


# --- what the graph holds -----------------------------------------------------------------


@dataclass(frozen=True)
class StoredRow:
    turn: StoredTurn
    ts: datetime | None


def stored_turns(store: GraphStore, space: str) -> list[StoredRow]:
    """Every turn of ``space`` with its conversation, session and time, read directly
    (not through the statements under test)."""
    query = (
        "MATCH (p:Passage {space: $space})-[:IN_SESSION]->(s:Session {space: $space}) "
        "RETURN p.conversation AS conversation, s.source_id AS session, "
        "p.source_id AS source_id, p.speaker AS speaker, p.text AS text, p.ts AS ts"
    )
    with store.driver.session(database=store.database) as session:
        rows = [record.data() for record in session.run(query, space=space)]
    out = []
    for row in rows:
        ts = native(row["ts"])
        turn = StoredTurn(
            str(row["conversation"]),
            str(row["session"]),
            str(row["source_id"]),
            str(row["speaker"]),
            str(row["text"]),
        )
        out.append(StoredRow(turn, ts if isinstance(ts, datetime) else None))
    return out


def resolve(citation: str, rows: list[StoredRow]) -> StoredRow:
    """The stored turn ``citation`` names: ``conversation/turn id`` anywhere, a bare turn
    id only in a space of one conversation. AssertionError when it names none, or more
    than one."""
    conversations = {r.turn.conversation for r in rows}
    qualified = [r for r in rows if f"{r.turn.conversation}/{r.turn.source_id}" == citation]
    bare = [r for r in rows if r.turn.source_id == citation]
    if len(qualified) == 1:
        return qualified[0]
    assert not qualified, f"citation {citation!r} names {len(qualified)} turns"
    assert bare, f"citation {citation!r} names no stored turn (conversations {conversations})"
    assert len(conversations) == 1, (
        f"bare citation {citation!r} in a space of {len(conversations)} conversations "
        f"names {len(bare)} turn(s); it must say its conversation ('<conversation>/{citation}')"
    )
    assert len(bare) == 1, f"citation {citation!r} names {len(bare)} turns"
    return bare[0]


def turn_counter(turns: list[StoredTurn] | tuple[StoredTurn, ...]) -> Counter[StoredTurn]:
    return Counter(turns)


@dataclass(frozen=True)
class Snapshot:
    """A space's nodes (labels and id -> the properties the digest reads) and
    relationships, the space's name replaced: two snapshots compare across spaces."""

    space: str
    nodes: dict[str, dict[str, Any]]
    relationships: frozenset[str]


def snapshot(store: GraphStore, space: str) -> Snapshot:
    rows = store.read("core.digest_nodes", space=space, skip=list(VOLATILE))
    nodes = {
        f"{':'.join(sorted(r['labels']))} {_plain(r['id'], space)}": {
            k: _plain(v, space) for k, v in r["props"]
        }
        for r in rows
        if not HISTORY_LABELS & set(r["labels"])
    }
    rels = frozenset(
        f"({':'.join(sorted(r['start_labels']))} {_plain(r['start_id'], space)})"
        f"-[{r['type']}]->({':'.join(sorted(r['end_labels']))} {_plain(r['end_id'], space)})"
        for r in store.read("core.digest_relationships", space=space)
    )
    return Snapshot(space, nodes, rels)


def difference(one: Snapshot, other: Snapshot, limit: int = 4) -> str:
    """What differs between two snapshots, for a failure message: the properties of nodes
    both hold that differ, the nodes and the relationships only one holds; a few of each."""
    parts = []
    changed = []
    for key in sorted(one.nodes.keys() & other.nodes.keys()):
        a, b = one.nodes[key], other.nodes[key]
        fields = sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))
        if fields:
            said = "; ".join(f"{k}: {a.get(k)!r} vs {b.get(k)!r}"[:300] for k in fields)
            changed.append(f"{key}: {said}")
    if changed:
        shown = "\n    ".join(changed[:limit])
        parts.append(f"{len(changed)} nodes differ (first vs second):\n    {shown}")
    for name, only in (
        ("first", one.nodes.keys() - other.nodes.keys()),
        ("second", other.nodes.keys() - one.nodes.keys()),
    ):
        if only:
            shown = "\n    ".join(sorted(only)[:limit])
            parts.append(f"{len(only)} nodes only in the {name}:\n    {shown}")
    for name, found in (
        ("first", one.relationships - other.relationships),
        ("second", other.relationships - one.relationships),
    ):
        if found:
            shown = "\n    ".join(sorted(found)[:limit])
            parts.append(f"{len(found)} relationships only in the {name}:\n    {shown}")
    return "\n".join(parts) or "no node or relationship differs"


def _plain(value: Any, space: str) -> Any:
    if isinstance(value, list):
        return [_plain(v, space) for v in value]
    if isinstance(value, float):
        return round(value, 4)
    if isinstance(value, str | int | bool) or value is None:
        return "<space>" if value == space else value
    return str(value)
