"""Forgetting a part of a space: some turns, a session or a conversation.

What is forgotten goes, and the space becomes what a build that never saw it would have
made (docs/privacy.md): the sessions that held it are written again without it, each
session after a forgotten one is written again at its new place, and every builder builds
again what those sessions fed (``core.release_session``: a derived node of several
sessions, an entity, a cross-session structure), as for any rewritten session. The turns
kept keep their ids, their positions and their times, so a citation of them names the
same turn afterwards.

A forget writes its request first (``ForgetRequest``: ids, never texts); run again after a
crash, the same forget finishes the work.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from collections.abc import Sequence
from typing import NamedTuple

from pydantic import BaseModel, ConfigDict

from graphmem.errors import ConfigError, UnknownIdError
from graphmem.graph.store import GraphStore
from graphmem.ingest.models import ConversationIn, SessionIn
from graphmem.ingest.render import render_turn
from graphmem.ingest.stored import stored_sessions
from graphmem.ingest.writer import content_id, passage_id, session_id
from graphmem.plugin.registry import release_session

# What a redacted turn says by default (``graphmem redact``).
REDACTED = "[redacted]"


class Selection(BaseModel):
    """What to forget: ``turns`` (turn ids as the input gave them), else a ``session`` (its
    id as the input gave it), else a whole ``conversation``; ``conversation`` with turns or
    a session says in which one, when ids repeat across conversations."""

    model_config = ConfigDict(frozen=True)

    turns: tuple[str, ...] = ()
    session: str | None = None
    conversation: str | None = None
    # A redaction: the turns are kept, their text replaced by this and their caption gone.
    redaction: str | None = None

    def check(self) -> None:
        if self.redaction is not None and (not self.turns or self.session is not None):
            raise ConfigError("a redaction names turns (--turn), not a session or conversation")
        if self.turns and self.session is not None:
            raise ConfigError("give turns or a session to forget, not both")
        if not (self.turns or self.session is not None or self.conversation is not None):
            raise ConfigError("nothing to forget: give turns, a session or a conversation")

    @property
    def key(self) -> str:
        what = "forget" if self.redaction is None else f"redact:{self.redaction}"
        return content_id(what, self.conversation, self.session, *sorted(self.turns))


class Target(BaseModel):
    conversation: str
    session: str
    session_source: str
    passage: str
    turn: str
    text: str
    speaker: str
    caption: str | None = None
    date_text: str | None = None

    @property
    def rendered(self) -> str:
        """The text its vector was made of (``PassageWriter``)."""
        return render_turn(self.speaker, self.text, date_text=self.date_text, caption=self.caption)


class Plan(BaseModel):
    """The passages a selection names, and the conversations written again."""

    selection: Selection
    targets: list[Target]

    @property
    def passages(self) -> list[str]:
        return [t.passage for t in self.targets]

    @property
    def conversations(self) -> list[str]:
        """The conversations holding forgotten turns."""
        return sorted({t.conversation for t in self.targets})


class ForgetReport(BaseModel):
    """What a forget did (or, ``dry_run``, would do): turns forgotten, sessions and
    conversations gone, per label the derived nodes removed (citing only forgotten turns)
    and recomputed (citing kept turns too), and the conversations built again (those
    holding the turns and those sharing a memory or an entity with them: the cost)."""

    space: str
    dry_run: bool
    turns: int
    sessions: int
    conversations: int
    removed: dict[str, int]
    recomputed: dict[str, int]
    rebuilt: list[str] = []
    seconds: float = 0.0


def plan(store: GraphStore, space: str, selection: Selection, resuming: bool) -> Plan:
    """The stored turns ``selection`` names; an ``UnknownIdError`` naming the ids the space
    does not hold (nothing is written), unless ``resuming`` a forget already under way."""
    selection.check()
    rows = store.read(
        "core.forget_targets",
        space=space,
        conversation=selection.conversation,
        session=selection.session,
        turns=list(selection.turns),
    )
    targets = [Target(**row) for row in rows]
    if not resuming:
        _check_found(selection, targets)
    return Plan(selection=selection, targets=targets)


def _check_found(selection: Selection, targets: Sequence[Target]) -> None:
    where = f" of conversation {selection.conversation!r}" if selection.conversation else ""
    if selection.turns:
        missing = sorted(set(selection.turns) - {t.turn for t in targets})
        if missing:
            raise UnknownIdError(f"no turn {_listed(missing)}{where} in this space")
        owners = defaultdict(set)
        for t in targets:
            owners[t.turn].add(t.conversation)
        shared = sorted(turn for turn, convs in owners.items() if len(convs) > 1)
        if shared:
            raise UnknownIdError(
                f"turn {_listed(shared)} is in several conversations",
                hint="say which with --conversation (conversation= in Python)",
            )
    elif not targets:
        what = f"session {selection.session!r}" if selection.session is not None else "conversation"
        named = what if selection.session is not None else f"{what} {selection.conversation!r}"
        raise UnknownIdError(f"no {named}{where if selection.session else ''} in this space")
    elif selection.session is not None and len({t.conversation for t in targets}) > 1:
        raise UnknownIdError(
            f"session {selection.session!r} is in several conversations",
            hint="say which with --conversation (conversation= in Python)",
        )


def _listed(ids: Sequence[str]) -> str:
    return ", ".join(repr(i) for i in ids)


def kept_conversation(
    store: GraphStore,
    space: str,
    conversation: str,
    forgotten: set[str],
    redaction: str | None = None,
) -> tuple[ConversationIn, list[SessionIn], list[str]]:
    """The conversation as stored without the forgotten passages (with ``redaction``: those
    turns kept, their text replaced and their caption gone), sessions numbered again; the
    sessions to write again; the ids of sessions forgotten whole."""
    row = store.read("core.forget_conversation", space=space, conversation_id=conversation)[0]
    stored = stored_sessions(store, space, row["sessions"])
    shell = ConversationIn(
        conversation_id=conversation,
        speakers=list(row["speakers"] or []),
        sessions=[],
        meta={"format": "stored", "title": row["title"]},
    )
    sessions: list[SessionIn] = []
    rewrite: list[SessionIn] = []
    gone: list[str] = []
    for session in stored:
        named = [passage_id(shell, session, t) in forgotten for t in session.turns]
        if redaction is None:
            turns = [t for t, gone in zip(session.turns, named, strict=True) if not gone]
        else:
            said = {"text": redaction, "caption": None}
            turns = [
                t.model_copy(update=said) if hit else t
                for t, hit in zip(session.turns, named, strict=True)
            ]
        if not turns:
            gone.append(session_id(shell, session))
            continue
        kept = session.model_copy(update={"index": len(sessions), "turns": turns})
        rewrite.append(kept)
        sessions.append(kept)
    speakers = [s for s in shell.speakers if any(t.speaker == s for x in sessions for t in x.turns)]
    conv = shell.model_copy(update={"sessions": sessions, "speakers": speakers})
    return conv, rewrite, gone


def counts(store: GraphStore, space: str, found: Plan) -> tuple[dict[str, int], dict[str, int]]:
    rows = store.read("core.forget_counts", space=space, passages=found.passages)
    removed = {"Passage": len(found.passages)}
    removed.update({r["label"]: r["removed"] for r in rows if r["removed"]})
    recomputed = {r["label"]: r["recomputed"] for r in rows if r["recomputed"]}
    return removed, recomputed


class Request(NamedTuple):
    """A forget as first asked: the builders it runs on each conversation it writes again,
    those conversations, and when it started (the caches keep what was used again since:
    ``process.uses``)."""

    builders: dict[str, list[str]]
    conversations: list[str]
    started_at: float


def built_by(store: GraphStore, space: str, conversations: Sequence[str]) -> dict[str, list[str]]:
    """The builders that built each of ``conversations``: each is built again with its own,
    as the ingests that made the space built it (one ingested with ``--builders none``
    stays without memories)."""
    rows = store.read("core.conversation_built_by", space=space, conversations=list(conversations))
    found = {r["conversation"]: sorted(r["builders"]) for r in rows}
    return {c: found.get(c, []) for c in conversations}


def request(
    store: GraphStore,
    space: str,
    selection: Selection,
    builders: dict[str, list[str]],
    conversations: list[str],
) -> Request:
    """Write the forget's request (once, so that a rerun after a crash keeps its start)."""
    rows = store.write(
        "core.forget_request",
        space=space,
        id=selection.key,
        selection=json.dumps(selection.model_dump(), sort_keys=True),
        builders=json.dumps(builders, sort_keys=True),
        conversations=conversations,
        started_at=time.time(),
    )
    row = rows[0]
    kept = row["builders"]
    # A request of a graphmem before builders were per conversation: one list for all.
    chosen = json.loads(kept) if isinstance(kept, str) else dict.fromkeys(builders, kept or [])
    return Request(chosen, list(row["conversations"] or []), float(row["started_at"]))


def by_builders(
    conversations: Sequence[ConversationIn], builders: dict[str, list[str]]
) -> list[tuple[list[str], list[ConversationIn]]]:
    """``conversations`` in runs of the same builders, in their order (a build's order
    decides what the first mention names: an entity)."""
    groups: list[tuple[list[str], list[ConversationIn]]] = []
    for conv in conversations:
        names = list(builders.get(conv.conversation_id, []))
        if groups and groups[-1][0] == names:
            groups[-1][1].append(conv)
        else:
            groups.append((names, [conv]))
    return groups


def pending(store: GraphStore, space: str, selection: Selection) -> list[str] | None:
    """The conversations of this forget when one is under way (a crash stopped it), else
    None."""
    rows = store.read("core.forget_request_pending", space=space, id=selection.key)
    return list(rows[0]["conversations"] or []) if rows else None


class Kept(BaseModel):
    """One conversation a forget touches: as it will be (``conversation``), the sessions
    to write again and the ids of those that go whole."""

    conversation: ConversationIn
    rewrite: list[SessionIn]
    gone: list[str]


def closure(store: GraphStore, space: str, conversations: Sequence[str]) -> list[str]:
    """``conversations`` and every conversation that shares a derived node with one of them,
    transitively: a builder builds a conversation again from its first session, so each
    is built again whole, with what it shares deleted first."""
    found = set(conversations)
    while True:
        more = store.read("core.forget_closure", space=space, conversations=sorted(found))
        new = set(more[0]["more"]) - found if more else set()
        if not new:
            return sorted(found)
        found |= new


def kept(store: GraphStore, space: str, found: Plan, conversations: Sequence[str]) -> list[Kept]:
    """Each of ``conversations`` as it will be (the ``closure`` of the forgotten turns')."""
    forgotten = set(found.passages)
    return [
        Kept.model_validate(dict(zip(("conversation", "rewrite", "gone"), parts, strict=True)))
        for parts in (
            kept_conversation(store, space, c, forgotten, found.selection.redaction)
            for c in conversations
        )
    ]


def report(
    space: str,
    found: Plan,
    touched: Sequence[Kept],
    counted: tuple[dict[str, int], dict[str, int]],
    dry_run: bool,
) -> ForgetReport:
    return ForgetReport(
        space=space,
        dry_run=dry_run,
        turns=len(found.targets),
        sessions=sum(len(k.gone) for k in touched),
        conversations=sum(not k.conversation.sessions for k in touched),
        removed=counted[0],
        recomputed=counted[1],
        rebuilt=[k.conversation.conversation_id for k in touched if k.conversation.sessions],
    )


def release(store: GraphStore, space: str, touched: Kept) -> ConversationIn | None:
    """Release everything a conversation's sessions fed (deleted, to be built again from
    its first session); a session forgotten whole goes with its passages, the others are
    marked to be written again at their places. The conversation to write again, None
    when nothing is kept."""
    conv = touched.conversation
    kept = [session_id(conv, s) for s in touched.rewrite]
    for sid in [*touched.gone, *kept]:
        released = release_session(store.write, space, sid)
        if sid in touched.gone:
            store.write("core.delete_session", space=space, session_id=sid)
        if released and released[0]["loose"]:
            store.write("core.prune_loose", space=space, ids=released[0]["loose"])
    ungrounded = store.write("core.forget_unground", space=space, conversation=conv.conversation_id)
    if ungrounded and ungrounded[0]["loose"]:
        store.write("core.prune_loose", space=space, ids=ungrounded[0]["loose"])
    rows = [{"id": session_id(conv, s), "index": s.index} for s in touched.rewrite]
    store.write("core.rewrite_sessions", space=space, rows=rows)
    return conv if conv.sessions else None


def done(store: GraphStore, space: str, found: Plan, conversations: Sequence[str]) -> None:
    """After the writes: a conversation with no session left goes, with the speakers no
    turn is spoken by any more; then the request."""
    for conversation in conversations:
        store.write("core.drop_empty_conversation", space=space, conversation_id=conversation)
    store.write("core.forget_request_done", space=space, id=found.selection.key)
