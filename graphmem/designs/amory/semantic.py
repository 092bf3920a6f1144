"""Amory's semantic-memory query at retrieval time.

Offline: side facts whose subject or object is a name of the question (entity-matched),
nearest the question first. With an LLM: the paper's graph query, written by the LLM and
run read-only through ``safe_cypher``; a refused or failing query falls back to the
entity-matched facts, and the hit's explain path says why.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from graphmem.designs.amory import prompts
from graphmem.designs.amory.config import AmorySettings
from graphmem.designs.amory.safe_cypher import CypherFailed, CypherRefused, Policy, run_read_only
from graphmem.designs.amory.semantic_bridge import side_facts
from graphmem.designs.amory.timeline import Vector
from graphmem.llm import Message, StructuredLLM
from graphmem.nlp import query_entities
from graphmem.plugin import GraphStore, Hit, LLMError, PassageRef, RetrievalContext
from graphmem.semantic import normalise_name as entity_key

LABELS = frozenset({"Fact", "Entity"})
RELATIONSHIPS = frozenset({"SUBJECT", "OBJECT", "SYNONYM"})
PARAMS = frozenset({"space", "names"})


@dataclass(frozen=True)
class FactIndex:
    """The space's side facts and their vectors, one row each; part of the retriever's
    snapshot, read again with it."""

    facts: list[dict[str, Any]]
    matrix: npt.NDArray[np.float32]
    # Per fact: its subject's and object's keys and its padded lower-case text, computed
    # once with the snapshot instead of at every query (~570 facts a LoCoMo conversation).
    keys: list[tuple[str, str, str]]

    @classmethod
    def read(cls, store: GraphStore, space: str) -> FactIndex:
        facts = side_facts(store, space)
        vectors = [np.asarray(f["embedding"], dtype=np.float32) for f in facts]
        matrix = np.vstack(vectors) if vectors else np.zeros((0, 0), dtype=np.float32)
        keys = [
            (entity_key(f["subject"]), entity_key(f["object"]), f" {f['text'].lower()} ")
            for f in facts
        ]
        return cls(facts, matrix, keys)


class SemanticSearch:
    def __init__(
        self, ctx: RetrievalContext, settings: AmorySettings, llm: StructuredLLM | None
    ) -> None:
        self.ctx, self.settings, self.llm = ctx, settings, llm
        self.policy = Policy(
            LABELS, RELATIONSHIPS, PARAMS, settings.cypher_row_cap, settings.cypher_timeout_s
        )

    def search(
        self, question: str, query: Vector, passages: dict[str, PassageRef], index: FactIndex
    ) -> tuple[list[Hit], str]:
        """Fact hits and how they were found (for --explain, even when none were)."""
        if self.settings.fact_k == 0:
            return [], "semantic: off (fact_k = 0)"
        names = [entity_key(n) for n in query_entities(question)]
        names = [n for n in names if n]
        how = "semantic: entity-matched facts"
        if self.llm is not None:
            found = self._generated(question, names, passages)
            if isinstance(found, list):
                return found, "semantic: generated Cypher"
            how = f"semantic: {found}; entity-matched facts instead"
        hits = self._matched(names, query, passages, how, index)
        return hits, f"{how} ({len(hits)} for names: {', '.join(names) or 'none'})"

    def _matched(
        self,
        names: list[str],
        query: Vector,
        passages: dict[str, PassageRef],
        how: str,
        index: FactIndex,
    ) -> list[Hit]:
        wanted = set(names)
        padded = [f" {n} " for n in wanted]
        picked = [
            i
            for i, (subject, obj, text) in enumerate(index.keys)
            if subject in wanted or obj in wanted or any(n in text for n in padded)
        ]
        if not picked:
            return []
        scores = index.matrix[picked] @ query
        best = [picked[j] for j in np.argsort(-scores, kind="stable")[: self.settings.fact_k]]
        path = [how, f"names: {', '.join(names)}"]
        return [
            self._hit(index.facts[i], float(index.matrix[i] @ query), path, passages) for i in best
        ]

    def _generated(
        self, question: str, names: list[str], passages: dict[str, PassageRef]
    ) -> list[Hit] | str:
        """Hits of the LLM's query, or the reason it could not be used."""
        assert self.llm is not None
        prompt = prompts.CYPHER.format(
            limit=self.settings.fact_k, question=question, names=", ".join(names) or "none"
        )
        try:
            cypher = self.llm.generate([Message(role="user", content=prompt)], prompts.CypherOut)
            outcome = run_read_only(
                self.ctx.store,
                cypher.cypher,
                {"space": self.ctx.space, "names": names},
                self.policy,
            )
        except (CypherRefused, CypherFailed, LLMError) as exc:
            return f"generated Cypher not used ({exc.message})"
        ids = [str(r.get("id")) for r in outcome.rows if r.get("id") is not None]
        rows = self.ctx.store.read("amory.facts_by_ids", space=self.ctx.space, ids=ids)
        capped = f" (capped at {self.policy.row_cap} rows)" if outcome.capped else ""
        path = [f"semantic: generated Cypher{capped}", cypher.cypher]
        by_id = {r["id"]: r for r in rows}
        hits = [self._hit(by_id[i], 0.0, path, passages) for i in ids if i in by_id]
        return hits[: self.settings.fact_k]

    def _hit(
        self, fact: dict[str, Any], score: float, path: list[str], passages: dict[str, PassageRef]
    ) -> Hit:
        return Hit(
            node_id=fact["id"],
            label="Fact",
            score=round(score, 4),
            strategy="amory",
            path=[*path, f"fact: {fact['text']}"],
            passages=[passages[p] for p in fact["passage_ids"] if p in passages],
        )
