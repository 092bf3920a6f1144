"""LongMemEval: a JSON list of questions, each with its own haystack of sessions.

A turn's id is ``<session id>:<j>`` with ``j`` its position in the file's session, empty
turns counted, so the evidence (the turns marked ``has_answer``) keeps naming the same
turns when an empty one is skipped. A session id given twice in one haystack with the
same turns (the published files hold such copies, dated later) is kept once, at its first
place; with other turns it is refused (``Skips``).
"""

from __future__ import annotations

from typing import Any, cast

from graphmem.ingest.models import ConversationIn, Dataset, QAItem, SessionIn, Turn
from graphmem.ingest.validate import Rec, Skips, unique_turns


def load_longmemeval(items: list[Any], src: str, strict: bool = False) -> Dataset:
    """``strict``: an empty turn or a repeated session id is refused, not skipped."""
    skips = Skips(strict)
    conversations: list[ConversationIn] = []
    qa: dict[str, list[QAItem]] = {}
    for i, raw in enumerate(items):
        item = Rec(src, f"item #{i}").obj(raw)
        qid = Rec(src, f"item #{i}").label(item, "question_id")
        rec = Rec(src, f"question {qid}")
        skips.at(qid)
        if qid in qa:
            raise rec.error(f"duplicate question id {qid!r}", "question_id")
        conversation, evidence = _conversation(qid, item, rec, skips)
        conversations.append(unique_turns(conversation, rec, "haystack_session_ids", skips))
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
    return Dataset(conversations=conversations, qa=qa, skipped=skips.result())


def _conversation(
    qid: str, item: dict[str, Any], rec: Rec, skips: Skips
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
    first: dict[str, tuple[int, list[Turn]]] = {}  # session id -> its place and turns
    for k, (sid, date, turns_raw) in enumerate(zip(session_ids, dates, haystack, strict=True)):
        srec = rec.at(f"{rec.record} session {sid}")
        srec.label({"haystack_session_ids": sid}, "haystack_session_ids")
        started = srec.stamp({"haystack_dates": date}, "haystack_dates")
        if sid in first and not skips.strict:
            # Its empty turns are not counted: the repeat is skipped whole, as one.
            turns, marked = _turns(sid, started, srec, turns_raw, speakers, Skips())
            _repeat(srec, k, first[sid], turns, skips)
            evidence.extend(e for e in marked if e not in evidence)
            continue
        # Strict: a repeat is kept here and refused by its turn ids (``unique_turns``).
        turns, marked = _turns(sid, started, srec, turns_raw, speakers, skips)
        first.setdefault(sid, (k, turns))
        evidence.extend(e for e in marked if e not in evidence)
        sessions.append(
            SessionIn(
                index=len(sessions),
                source_id=sid,
                started_at=started,
                turns=turns,
                source_date=date,
            )
        )
    meta = {
        "format": "longmemeval",
        "question_type": rec.opt_str(item, "question_type"),
        "question_date": rec.stamp(item, "question_date"),
        "question_date_raw": rec.opt_str(item, "question_date"),
    }
    conv = ConversationIn(conversation_id=qid, speakers=speakers, sessions=sessions, meta=meta)
    return conv, evidence


def _turns(
    sid: str, started: Any, srec: Rec, turns_raw: Any, speakers: list[str], skips: Skips
) -> tuple[list[Turn], list[str]]:
    """A session's turns (empty ones skipped into ``skips``) and the ids marked has_answer."""
    turns: list[Turn] = []
    marked: list[str] = []
    for j, raw in enumerate(srec.items(turns_raw, "turns")):
        trec = srec.at(f"{srec.record} turn {j}")
        turn = trec.obj(raw)
        role = trec.label(turn, "role")
        if role not in speakers:
            speakers.append(role)
        answer = trec.get(turn, "has_answer", (bool,), False)
        text = trec.text(turn, "content", skips)
        if text is None:
            continue  # an empty turn is no evidence: nothing of it is stored
        if answer:
            marked.append(f"{sid}:{j}")
        turns.append(
            Turn(source_id=f"{sid}:{j}", speaker=role, text=text, timestamp=started, index=j)
        )
    return turns, marked


def _repeat(
    srec: Rec, place: int, first: tuple[int, list[Turn]], turns: list[Turn], skips: Skips
) -> None:
    """A session id given again: skipped when its turns are the first copy's, else refused."""
    at, kept = first
    same = [(t.source_id, t.speaker, t.text) for t in turns] == [
        (t.source_id, t.speaker, t.text) for t in kept
    ]
    if not same:
        raise srec.error(
            f"session id given twice in the haystack (sessions {at} and {place}) with "
            "different turns",
            "haystack_session_ids",
            hint="a turn id such as <session id>:0 would name two turns; give the second "
            "copy its own id (an identical copy is skipped)",
        )
    where = srec.at(f"{srec.record} (haystack position {place}, first at {at})")
    skips.repeated_session(where.error("repeated session", "haystack_session_ids"), len(turns))
