"""LongMemEval: a JSON list of questions, each with its own haystack of sessions."""

from __future__ import annotations

from typing import Any, cast

from graphmem.ingest.models import ConversationIn, Dataset, QAItem, SessionIn, Turn
from graphmem.ingest.validate import Rec, check_unique_ids


def load_longmemeval(items: list[Any], src: str) -> Dataset:
    conversations: list[ConversationIn] = []
    qa: dict[str, list[QAItem]] = {}
    for i, raw in enumerate(items):
        item = Rec(src, f"item #{i}").obj(raw)
        qid = Rec(src, f"item #{i}").label(item, "question_id")
        rec = Rec(src, f"question {qid}")
        if qid in qa:
            raise rec.error(f"duplicate question id {qid!r}", "question_id")
        conversation, evidence = _conversation(qid, item, rec)
        check_unique_ids(conversation, rec, "haystack_session_ids")
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


def _conversation(qid: str, item: dict[str, Any], rec: Rec) -> tuple[ConversationIn, list[str]]:
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
        srec.label({"haystack_session_ids": sid}, "haystack_session_ids")
        started = srec.stamp({"haystack_dates": date}, "haystack_dates")
        turns: list[Turn] = []
        for j, raw in enumerate(srec.items(turns_raw, "turns")):
            trec = srec.at(f"{srec.record} turn {j}")
            turn = trec.obj(raw)
            role = trec.label(turn, "role")
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
