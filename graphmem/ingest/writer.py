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
from graphmem.ingest.models import ConversationIn, SessionIn, Turn
from graphmem.store import GraphStore, Tx
from graphmem.turns import render_turn


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


class PassageWriter:
    """Core layer only: conversations, sessions, speakers, passages, NEXT chains."""

    def __init__(self, store: GraphStore, embedder: Embedder) -> None:
        self._store = store
        self._embedder = embedder

    def write_conversation(
        self,
        space: str,
        conv: ConversationIn,
        report: IngestReport,
        on_session: Callable[[int], None] | None = None,
    ) -> None:
        started = time.perf_counter()
        report.conversations += 1
        previous_last, previous_session = self._before(space, conv)
        for session in conv.sessions:
            sid = session_id(conv, session)
            ids = [passage_id(conv, session, t) for t in session.turns]
            digest = content_id(*ids)
            state = self._store.read("core.session_state", space=space, session_id=sid)[0]
            if state["content_hash"] == digest:
                report.sessions_skipped += 1
            else:
                rows = self._rows(conv, session, ids)
                chain = _Chain(ids, previous_last, previous_session, sid)
                # One transaction per session, run again from the start when the connection
                # drops (every statement is a MERGE or a delete of what is replaced).
                self._store.retrying(
                    functools.partial(self._session_tx, space, conv, session, digest, rows, chain)
                )
                report.sessions_written += 1
                report.passages_written += len(rows)
                report.written_sessions.append(sid)
            previous_last = ids[-1] if ids else previous_last
            previous_session = sid
            if on_session:
                on_session(len(session.turns))
        report.seconds += time.perf_counter() - started

    def _before(self, space: str, conv: ConversationIn) -> tuple[str | None, str | None]:
        """Where the chain continues from when this input starts mid-conversation."""
        if not conv.sessions or conv.sessions[0].index == 0:
            return None, None
        rows = self._store.read(
            "core.last_passage",
            space=space,
            conversation_id=conv.conversation_id,
            before=conv.sessions[0].index,
        )
        return (rows[0]["id"], rows[0]["session"]) if rows else (None, None)

    def _rows(
        self, conv: ConversationIn, session: SessionIn, ids: Sequence[str]
    ) -> list[dict[str, Any]]:
        date_text = session_date_text(session)
        texts = [
            render_turn(t.speaker, t.text, date_text=date_text, caption=t.caption)
            for t in session.turns
        ]
        vectors = self._embedder.embed(texts)
        tokens = self._embedder.count_tokens_many(texts)
        return [
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
                "embedding": [float(x) for x in vec],
            }
            for pid, turn, vec, n_tokens in zip(ids, session.turns, vectors, tokens, strict=True)
        ]

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
        released = tx.run("core.release_session", space=space, session_id=sid)
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
