"""Write conversations into the graph: one transaction per session, content-hash ids, MERGE.

Re-ingesting the same data writes nothing (each session's content hash is compared first);
an interrupted ingest resumes at the first session that is not stored; a session whose
content changed is rewritten whole inside its own transaction, together with everything
derived from it: derived nodes with FROM to its passages are deleted, entities nothing
grounds any more too, and ``built_by`` is cleared on it and on the other sessions the
deleted nodes came from, so every builder builds them again.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from graphmem.embed import Embedder
from graphmem.embed.windows import embed_passages
from graphmem.graph.store import GraphStore, Tx
from graphmem.ingest.models import ConversationIn, SessionIn, Turn
from graphmem.ingest.render import render_turn
from graphmem.plugin.registry import release_session


def content_id(*parts: object) -> str:
    """Stable id from content: the same input always maps to the same node."""
    blob = json.dumps([str(p) for p in parts], ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:24]


def session_date_text(session: SessionIn) -> str | None:
    if session.source_date:
        return session.source_date
    return session.started_at.strftime("%Y-%m-%d %H:%M") if session.started_at else None


def passage_id(conv: ConversationIn, session: SessionIn, turn: Turn) -> str:
    return content_id(
        conv.conversation_id, session.source_id, turn.source_id, turn.speaker, turn.text
    )


def session_id(conv: ConversationIn, session: SessionIn) -> str:
    return content_id(conv.conversation_id, "session", session.source_id)


@dataclass(frozen=True)
class _Chain:
    """Where a session's passages join the NEXT chains."""

    ids: list[str]
    previous_last: str | None
    previous_session: str | None
    sid: str


@dataclass
class IngestReport:
    conversations: int = 0
    sessions_written: int = 0
    sessions_skipped: int = 0
    passages_written: int = 0
    seconds: float = 0.0
    written_sessions: list[str] = field(default_factory=list)

    @property
    def turns_per_second(self) -> float:
        return self.passages_written / self.seconds if self.seconds else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "conversations": self.conversations,
            "sessions_written": self.sessions_written,
            "sessions_skipped": self.sessions_skipped,
            "passages_written": self.passages_written,
            "seconds": round(self.seconds, 2),
            "turns_per_second": round(self.turns_per_second, 1),
        }


@dataclass(frozen=True)
class _Planned:
    """One session of the input with its ids and what the graph already holds of it."""

    session: SessionIn
    sid: str
    ids: list[str]
    digest: str
    stored: bool  # the same content is stored: nothing to write


class PassageWriter:
    """Core layer only: conversations, sessions, speakers, passages, NEXT chains.

    Turns are embedded ``batch_turns`` at a time across sessions (one model call for many
    short sessions: fewer calls, and the embedder groups texts of similar length), and a
    rewritten session reuses the stored vector of every turn whose text did not change
    (``add_messages`` resends a growing session: without reuse its cost grows with the
    square of its length). Writing stays one transaction per session."""

    def __init__(self, store: GraphStore, embedder: Embedder, batch_turns: int = 256) -> None:
        self._store = store
        self._embedder = embedder
        self._batch_turns = max(1, batch_turns)

    def write_conversation(
        self,
        space: str,
        conv: ConversationIn,
        report: IngestReport,
        on_session: Callable[[int], None] | None = None,
    ) -> None:
        started = time.perf_counter()
        report.conversations += 1
        previous_last: str | None = None
        previous_session: str | None = None
        previous_index = -1
        for chunk in self._chunks(conv.sessions):
            for plan, rows in self._prepare(space, conv, chunk):
                if rows is None:
                    report.sessions_skipped += 1
                else:
                    if plan.session.index != previous_index + 1:  # stored sessions between
                        previous_last, previous_session = self._before(
                            space, conv, plan.session.index
                        )
                    chain = _Chain(plan.ids, previous_last, previous_session, plan.sid)
                    # One transaction per session, run again from the start when the
                    # connection drops (every statement is a MERGE or a delete of what is
                    # replaced).
                    self._store.retrying(
                        functools.partial(
                            self._session_tx, space, conv, plan.session, plan.digest, rows, chain
                        )
                    )
                    report.sessions_written += 1
                    report.passages_written += len(rows)
                    report.written_sessions.append(plan.sid)
                previous_last = plan.ids[-1] if plan.ids else previous_last
                previous_session, previous_index = plan.sid, plan.session.index
                if on_session:
                    on_session(len(plan.session.turns))
        report.seconds += time.perf_counter() - started

    def _before(
        self, space: str, conv: ConversationIn, index: int
    ) -> tuple[str | None, str | None]:
        """Where the chain continues from when a session follows stored ones this input
        does not hold (streaming appends, a second file of a conversation)."""
        if index == 0:
            return None, None
        rows = self._store.read(
            "core.last_passage", space=space, conversation_id=conv.conversation_id, before=index
        )
        return (rows[0]["id"], rows[0]["session"]) if rows else (None, None)

    def _chunks(self, sessions: Sequence[SessionIn]) -> list[list[SessionIn]]:
        """Consecutive sessions holding about ``batch_turns`` turns together."""
        chunks: list[list[SessionIn]] = [[]]
        turns = 0
        for session in sessions:
            if chunks[-1] and turns + len(session.turns) > self._batch_turns:
                chunks.append([])
                turns = 0
            chunks[-1].append(session)
            turns += len(session.turns)
        return [chunk for chunk in chunks if chunk]

    def _prepare(
        self, space: str, conv: ConversationIn, sessions: Sequence[SessionIn]
    ) -> list[tuple[_Planned, list[dict[str, Any]] | None]]:
        """Each session with its rows to write, or None when it is stored already."""
        sids = [session_id(conv, s) for s in sessions]
        state = {
            row["session_id"]: row
            for row in self._store.read("core.session_states", space=space, session_ids=sids)
        }
        plans = []
        for session, sid in zip(sessions, sids, strict=True):
            ids = [passage_id(conv, session, t) for t in session.turns]
            digest = content_id(*ids)
            found = state.get(sid)
            stored = found is not None and found["content_hash"] == digest
            plans.append(_Planned(session, sid, ids, digest, stored))
        todo = [p for p in plans if not p.stored]
        rows = self._rows(space, conv, todo)
        return [(p, rows.get(p.sid)) for p in plans]

    def _rows(
        self, space: str, conv: ConversationIn, plans: Sequence[_Planned]
    ) -> dict[str, list[dict[str, Any]]]:
        texts = {
            p.sid: [
                render_turn(
                    t.speaker, t.text, date_text=session_date_text(p.session), caption=t.caption
                )
                for t in p.session.turns
            ]
            for p in plans
        }
        vectors = self._vectors(space, [p.sid for p in plans], texts)
        out: dict[str, list[dict[str, Any]]] = {}
        for plan in plans:
            session, rendered = plan.session, texts[plan.sid]
            tokens = self._embedder.count_tokens_many(rendered)
            out[plan.sid] = [
                {
                    "id": pid,
                    "source_id": turn.source_id,
                    "speaker": turn.speaker,
                    "speaker_id": content_id("speaker", turn.speaker),
                    "text": turn.text,
                    "caption": turn.caption,
                    "ts": turn.timestamp or session.started_at,
                    "turn_index": turn.index,
                    "tokens": n_tokens,
                    "embedding": vectors[text],
                }
                for pid, turn, text, n_tokens in zip(
                    plan.ids, session.turns, rendered, tokens, strict=True
                )
            ]
        return out

    def _vectors(
        self, space: str, sids: Sequence[str], texts: dict[str, list[str]]
    ) -> dict[str, list[float]]:
        """A vector per distinct text: the stored one where a session being rewritten
        already holds the same text, the embedder's for the rest (one call)."""
        known: dict[str, list[float]] = {}
        if sids:
            for row in self._store.read("core.stored_turn_vectors", space=space, session_ids=sids):
                text = render_turn(
                    row["speaker"], row["text"], date_text=row["date_text"], caption=row["caption"]
                )
                known[text] = [float(x) for x in row["embedding"]]
        wanted = list(dict.fromkeys(t for rendered in texts.values() for t in rendered))
        # A stored vector taken again is still this conversation's: the cache keeps it.
        reused = [t for t in wanted if t in known]
        self._embedder.touch(self._embedder.heads(reused, "passage"), "passage")
        missing = [t for t in wanted if t not in known]
        if missing:
            for text, vec in zip(missing, embed_passages(self._embedder, missing), strict=True):
                known[text] = [float(x) for x in vec]
        return known

    def _session_tx(
        self,
        space: str,
        conv: ConversationIn,
        session: SessionIn,
        digest: str,
        rows: list[dict[str, Any]],
        chain: _Chain,
        tx: Tx,
    ) -> None:
        self._write_session(tx, space, conv, session, chain.sid, digest, rows)
        self._link(tx, space, chain.ids, chain.previous_last, chain.previous_session, chain.sid)

    def _write_session(
        self,
        tx: Tx,
        space: str,
        conv: ConversationIn,
        session: SessionIn,
        sid: str,
        digest: str,
        rows: list[dict[str, Any]],
    ) -> None:
        tx.run(
            "core.upsert_conversation",
            space=space,
            conversation_id=conv.conversation_id,
            source_id=conv.conversation_id,
            speakers=conv.speakers,
            title=conv.meta.get("title"),
        )
        tx.run(
            "core.upsert_session",
            space=space,
            conversation_id=conv.conversation_id,
            session_id=sid,
            index=session.index,
            source_id=session.source_id,
            started_at=session.started_at,
            date_text=session_date_text(session),
            content_hash=digest,
            passages=len(rows),
        )
        # A changed session replaces everything derived from it (see release_session).
        released = release_session(tx.run, space, sid)
        tx.run("core.prune_session", space=space, session_id=sid, keep=[r["id"] for r in rows])
        tx.run("core.upsert_passages", space=space, session_id=sid, rows=rows)
        if released and released[0]["loose"]:
            tx.run("core.prune_loose", space=space, ids=released[0]["loose"])

    @staticmethod
    def _link(
        tx: Tx,
        space: str,
        ids: list[str],
        previous_last: str | None,
        previous_session: str | None,
        sid: str,
    ) -> None:
        chain = ([previous_last] if previous_last else []) + ids
        pairs = [[a, b] for a, b in itertools.pairwise(chain)]
        if pairs:
            tx.run("core.link_passages", space=space, pairs=pairs)
        if previous_session:
            tx.run("core.link_sessions", space=space, pairs=[[previous_session, sid]])
