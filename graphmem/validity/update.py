"""Keep a space's valid time in step with its statements: run after every build.

1. Read every statement node of the space (``core.validity_statements``: the labels the
   designs declare in ``Design.statements``) with its earliest turn and what was computed
   before.
2. Read the claim of each statement that has none yet and store it with ``valid_from`` and
   ``recorded_at`` (``validity.set_claims``): a statement is parsed once, so a streaming
   session costs its new statements only. An assistant's statements get no claim: in a
   chat with an AI assistant the memory is about the person, and the assistant's answers
   are advice (``graphmem.nlp.roles``).
3. Judge the candidate pairs (``validity.detect``, or ``judge`` given by the caller, e.g.
   the LLM's) and derive the supersessions.
4. Write the difference with what the graph holds: supersessions no longer supported are
   released, new ones written. The result is a function of the statements alone, so a
   rerun after a crash, an incremental build and a batch build agree, and replacing a
   session updates the intervals it caused.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from graphmem.graph.rows import chunks, native
from graphmem.graph.store import GraphStore
from graphmem.plugin.label_statements import VALIDITY_STATEMENTS
from graphmem.validity.detect import Supersession, candidates, chains
from graphmem.validity.detect import judge as judge_pair
from graphmem.validity.types import CLAIM_VERSION, Candidate, Claim, Judgement, Statement
from graphmem.validity.values import Said, Value, parse_values

if TYPE_CHECKING:
    from graphmem.nlp.roles import SpeakerRoles

Judge = Callable[[Sequence[Candidate]], list[Judgement]]
_WRITE_BATCH = 500


class ValidityReport(BaseModel):
    """What one refresh did: statements seen, claims read, pairs judged, supersessions
    written and released, and how many statements are superseded now."""

    statements: int = 0
    claimed: int = 0
    candidates: int = 0
    written: int = 0
    released: int = 0
    superseded: int = 0


def refresh(
    store: GraphStore, space: str, assistants: str, judge: Judge | None = None
) -> ValidityReport:
    """Bring ``space``'s valid time in step with its statements (module docstring);
    ``judge`` None: claims and ``valid_from`` only, no statement supersedes another."""
    rows = store.read(VALIDITY_STATEMENTS, space=space)
    if not rows:
        return ValidityReport()
    report = ValidityReport(statements=len(rows))
    roles = _roles(rows, assistants)
    people = [r for r in rows if not roles[r["conversation"]].is_assistant(r["speaker"])]
    statements = [_statement(r) for r in people]
    known = {r["node"]: _stored_claim(r) for r in people}
    fresh = [
        (s, r["node"]) for s, r in zip(statements, people, strict=True) if known[r["node"]] is None
    ]
    from graphmem.validity.claim_reader import claims  # spaCy: when there is something to read

    read = claims([s for s, _ in fresh]) if fresh else []
    for (_, node), claim in zip(fresh, read, strict=True):
        known[node] = claim
    report.claimed = _write_claims(store, space, rows, people, known, roles)
    pairs = candidates(statements, [_known(known, r["node"]) for r in people]) if judge else []
    report.candidates = len(pairs)
    wanted = chains(pairs, judge(pairs)) if judge is not None else []
    report.released, report.written = _write_difference(store, space, rows, wanted)
    report.superseded = len(wanted)
    return report


def judged_pairs(
    store: GraphStore, space: str, assistants: str, judge: Judge | None = None
) -> list[tuple[Candidate, Judgement]]:
    """The candidate pairs of a refreshed space (claims as stored) with their verdicts,
    writing nothing: what ``graphmem eval validity`` scores."""
    rows = store.read(VALIDITY_STATEMENTS, space=space)
    roles = _roles(rows, assistants)
    people = [r for r in rows if not roles[r["conversation"]].is_assistant(r["speaker"])]
    stored = [(r, _stored_claim(r)) for r in people]
    kept = [(_statement(r), c) for r, c in stored if c is not None]
    pairs = candidates([s for s, _ in kept], [c for _, c in kept])
    return list(zip(pairs, (judge or offline_judge)(pairs), strict=True))


def offline_judge(pairs: Sequence[Candidate]) -> list[Judgement]:
    """The offline rules' verdicts (``validity.detect.judge``)."""
    return [judge_pair(p) for p in pairs]


def _roles(rows: Sequence[dict[str, Any]], assistants: str) -> dict[str, SpeakerRoles]:
    # graphmem.nlp loads spaCy: here, when a space has statements, not at import.
    from graphmem.nlp.roles import SpeakerRoles

    speakers: dict[str, list[str]] = defaultdict(list)
    for r in rows:
        speakers[r["conversation"]].append(r["speaker"])
    return {conv: SpeakerRoles.of(names, assistants) for conv, names in speakers.items()}


def _said_at(value: Any) -> datetime | None:
    found = native(value)
    if found is None:  # an undated turn
        return None
    return found if isinstance(found, datetime) else datetime.combine(found, datetime.min.time())


def _statement(row: dict[str, Any]) -> Statement:
    return Statement(
        label=row["label"],
        id=row["id"],
        text=row["text"] or "",
        key=row["key"] or "",
        speaker=row["speaker"],
        said_at=_said_at(row["said_at"]),
        session_index=row["session_index"],
        turn_index=row["turn_index"],
        turn=row["turn"],
        conversation=row["conversation"],
    )


def _stored_claim(row: dict[str, Any]) -> Claim | None:
    # An undated statement's claim has no valid_from: its version alone says it was read.
    if row["claim_version"] != CLAIM_VERSION or (
        row["valid_from"] is None and row["said_at"] is not None
    ):
        return None
    valid_from = row["valid_from"]
    return Claim(
        subject=row["claim_subject"],
        predicate=row["claim_predicate"] or "",
        object=row["claim_object"] or "",
        topics=tuple(row["claim_topics"] or ()),
        values=parse_values(row["claim_values"]),
        measures=_said(parse_values(row["claim_measures"])),
        clause_measures=_said(parse_values(row["claim_clause_measures"])),
        cues=tuple(row["claim_cues"] or ()),
        valid_from=native(valid_from),
    )


def _said(values: tuple[Value, ...]) -> tuple[Said, ...]:
    # A measure is an amount, a time or a rate: the reader writes nothing else there.
    return tuple(v for v in values if isinstance(v, Said))


def _known(known: dict[str, Claim | None], node: str) -> Claim:
    claim = known[node]
    if claim is None:  # every person's statement was read above
        raise KeyError(node)
    return claim


def _write_claims(
    store: GraphStore,
    space: str,
    rows: Sequence[dict[str, Any]],
    people: Sequence[dict[str, Any]],
    known: dict[str, Claim | None],
    roles: dict[str, SpeakerRoles],
) -> int:
    """Store the claims read now, and an empty claim (valid time only) for an assistant's
    statements that have none."""
    out = []
    stored = {r["node"] for r in people if _stored_claim(r) is not None}
    for r in rows:
        if r["node"] in stored:
            continue
        if roles[r["conversation"]].is_assistant(r["speaker"]):
            if _stored_claim(r) is not None:
                continue
            said = _said_at(r["said_at"])
            claim = _empty_claim(said.date() if said else None)
        else:
            found = known.get(r["node"])
            if found is None:
                continue
            claim = found
        out.append(_claim_row(r, claim))
    for part in chunks(out, _WRITE_BATCH):
        store.write("validity.set_claims", space=space, rows=part, version=CLAIM_VERSION)
    return len(out)


def _empty_claim(said: date | None) -> Claim:
    return Claim(subject="", predicate="", topics=(), values=(), cues=(), valid_from=said)


def _claim_row(row: dict[str, Any], claim: Claim) -> dict[str, Any]:
    return {
        "node": row["node"],
        "id": row["id"],
        "valid_from": claim.valid_from.isoformat() if claim.valid_from else None,
        "subject": claim.subject,
        "predicate": claim.predicate,
        "object": claim.object,
        "topics": list(claim.topics),
        "values": [str(v) for v in claim.values],
        "measures": [str(v) for v in claim.measures],
        "clause_measures": [str(v) for v in claim.clause_measures],
        "cues": list(claim.cues),
    }


def _write_difference(
    store: GraphStore, space: str, rows: Sequence[dict[str, Any]], wanted: Sequence[Supersession]
) -> tuple[int, int]:
    """Release what the graph holds and ``wanted`` does not; write what is new."""
    node = {(r["label"], r["id"]): r["node"] for r in rows}
    held = {
        (r["label"], r["id"]): (r["superseded_by"], _day(r["valid_to"]))
        for r in rows
        # A superseder deleted with its session leaves valid_to and the label behind.
        if r["superseded_by"] is not None or r["valid_to"] is not None or r["superseded"]
    }
    want = {(s.label, s.older): s for s in wanted}
    stale = [
        node[key]
        for key, (newer, until) in held.items()
        if key not in want or want[key].newer != newer or want[key].until != until
    ]
    for part in chunks(stale, _WRITE_BATCH):
        store.write("validity.release", space=space, nodes=part)
    # Who judged it and why follow the judge of the day: a pair the LLM now calls what the
    # offline rules called it before says so.
    judged = {
        (r["label"], r["id"]): (
            r["superseded_verdict"],
            r["superseded_reason"],
            r["superseded_backend"],
        )
        for r in rows
    }
    fresh = [
        {
            "newer": node[(s.label, s.newer)],
            "older": node[(s.label, s.older)],
            "until": s.until.isoformat(),
            "verdict": s.verdict,
            "reason": s.reason,
            "backend": s.backend,
        }
        for key, s in sorted(want.items())
        if key not in held
        or held[key] != (s.newer, s.until)
        or judged[key] != (s.verdict, s.reason, s.backend)
    ]
    for part in chunks(fresh, _WRITE_BATCH):
        store.write("validity.supersede", space=space, rows=part)
    return len(stale), len(fresh)


def _day(value: Any) -> date | None:
    if value is None:
        return None
    found = native(value)
    return found if isinstance(found, date) else None
