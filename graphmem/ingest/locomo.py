"""LoCoMo: a JSON list of samples, each a conversation of numbered sessions plus QA."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any, cast

from graphmem.ingest.models import ConversationIn, Dataset, QAItem, SessionIn, Turn
from graphmem.ingest.validate import Rec, Skips, unique_turns

_SESSION_KEY = re.compile(r"session_(\d+)")
_DIA_ID = re.compile(r"D\s*:?\s*(\d+)\s*:\s*(\d+)", re.IGNORECASE)


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


def load_locomo(samples: list[Any], src: str, strict: bool = False) -> Dataset:
    """``strict``: an empty turn or a repeated turn id is refused, not skipped (``Skips``)."""
    skips = Skips(strict)
    conversations: list[ConversationIn] = []
    qa: dict[str, list[QAItem]] = {}
    for i, raw in enumerate(samples):
        sample = Rec(src, f"sample #{i}").obj(raw)
        cid = Rec(src, f"sample #{i}").label(sample, "sample_id")
        rec = Rec(src, f"sample {cid}")
        skips.at(cid)
        if cid in qa:
            raise rec.error(f"duplicate sample id {cid!r}", "sample_id")
        conv = cast("dict[str, Any]", rec.get(sample, "conversation", (dict,), True))
        conversation = unique_turns(_conversation(cid, conv, rec, skips), rec, "dia_id", skips)
        if not conversation.sessions:  # as an empty JSONL file: nothing to remember
            raise rec.error("holds no turns: no session_<n> or every one is empty", "conversation")
        conversations.append(conversation)
        questions = rec.get(sample, "qa", (list,), False) or []
        qa[cid] = [_qa(q, rec.at(f"{rec.record} qa {j}")) for j, q in enumerate(questions)]
    return Dataset(conversations=conversations, qa=qa, skipped=skips.result())


def _conversation(cid: str, conv: dict[str, Any], rec: Rec, skips: Skips) -> ConversationIn:
    speakers = [rec.speaker(conv, key) for key in ("speaker_a", "speaker_b")]
    # Numeric order: a string sort would put session_10 before session_2.
    numbers = sorted(int(m[1]) for key in conv if (m := _SESSION_KEY.fullmatch(key)))
    sessions: list[SessionIn] = []
    for n in numbers:
        key = f"session_{n}"
        turns_raw = cast("list[Any]", rec.get(conv, key, (list,), True))
        if not turns_raw:
            continue  # an empty session carries nothing to remember
        started = rec.stamp(conv, f"{key}_date_time")
        found = [
            _turn(t, j, started, rec.at(f"{rec.record} {key} turn {j}{_dia_id(t)}"), skips)
            for j, t in enumerate(turns_raw)
        ]
        turns = [t for t in found if t is not None]
        if not turns:
            continue  # every turn empty (and skipped): as an empty session
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


def _turn(raw: Any, index: int, started: datetime | None, rec: Rec, skips: Skips) -> Turn | None:
    """The turn, or None when its text is empty and skipped. ``index`` is its position in
    the file's session, skipped turns counted, like its ``dia_id``."""
    turn = rec.obj(raw)
    dia_id = rec.label(turn, "dia_id").strip()
    # Canonical form so turn ids match the normalised evidence ("D30:05" -> "D30:5").
    match = _DIA_ID.fullmatch(dia_id)
    speaker = rec.speaker(turn, "speaker")
    text = rec.text(turn, "text", skips)
    caption = rec.opt_str(turn, "blip_caption")
    image_query = rec.opt_str(turn, "query")
    if text is None:
        return None
    return Turn(
        source_id=f"D{int(match[1])}:{int(match[2])}" if match else dia_id,
        speaker=speaker,
        text=text,
        timestamp=started,
        caption=caption,
        image_query=image_query,
        index=index,
    )


def _qa(raw: Any, rec: Rec) -> QAItem:
    item = rec.obj(raw)
    raw_evidence = rec.str_list(item, "evidence")
    return QAItem(
        question=rec.req_str(item, "question"),
        answer=rec.answer(item, "answer"),
        category=rec.get(item, "category", (int,), False),
        evidence=normalize_evidence(raw_evidence),
        raw_evidence=raw_evidence,
    )


def _dia_id(turn: Any) -> str:
    """`` (D1:3)`` after an error's turn index (the array's, from 0) when the turn carries
    its id: the reader looks for the turn by that."""
    found = turn.get("dia_id") if isinstance(turn, dict) else None
    return f" ({found})" if isinstance(found, str) and found.strip() else ""
