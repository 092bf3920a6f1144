"""Writing the semantic layer (HippoRAG 2 style): Entity phrase nodes, Fact quadruples,
MENTIONS, SYNONYM edges and speaker identity, incrementally. ``write_facts`` is the one
entry point, for the semantic builder and for any design that adds facts of its own.

Rules (see docs/semantic.md):
- identity: phrases with the same normalised key are one entity (the id hashes the key);
- near-duplicates: a new phrase whose nearest entity (earlier batches through the vector
  index, or earlier in this batch) has cosine >= ``merge_threshold`` and the same head noun
  is not a new node: it resolves to that entity and is recorded in its ``aliases``;
- synonyms: every new entity with >= ``synonym_min_alnum`` alphanumeric characters gets a
  SYNONYM edge to each of its ``synonym_top_k`` nearest entities of the space with cosine
  >= ``synonym_threshold`` (the neighbour must pass the same length rule).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from graphmem.ingest.writer import content_id
from graphmem.nlp.things import thing_names
from graphmem.plugin.builder import BuildContext
from graphmem.retrieval.exact import ExactIndex
from graphmem.semantic.extract import PassageFacts, usable
from graphmem.semantic.names import (
    alnum_length,
    entity_id,
    head_noun,
    human_date,
    is_name,
    names_only,
    normalise_name,
)
from graphmem.semantic.projection import SemanticGraph
from graphmem.semantic.settings import SemanticSettings

BUILDER = "semantic"
Vector = npt.NDArray[np.float32]


@dataclass
class Resolution:
    """Normalised key -> entity id, for every phrase of a batch."""

    ids: dict[str, str] = field(default_factory=dict)
    new: list[tuple[str, str]] = field(default_factory=list)  # (key, surface name)
    aliases: list[tuple[str, str]] = field(default_factory=list)  # (entity id, alias key)
    vectors: dict[str, Vector] = field(default_factory=dict)  # of the new and pending ones
    # Stored entities whose synonym pass an interrupted run never did (key, stored vector).
    pending: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)

    # Phrase -> the thing it names ("Hey Caroline" -> "Caroline"), None when it names none
    # (``nlp/things.py``); phrases not in it are their own names.
    things: dict[str, str | None] = field(default_factory=dict)

    def of(self, name: str) -> str:
        """The entity of a phrase of the batch; KeyError for one the layer does not keep
        (a phrase that names nothing, ``names.is_name``, or no thing)."""
        thing = self.things.get(name, name)
        if thing is None:
            raise KeyError(name)
        return self.ids[normalise_name(thing)]

    def entity_of(self, name: str) -> str | None:
        try:
            return self.of(name)
        except KeyError:
            return None

    def end(self, name: str) -> str:
        """A fact end's id: its entity's, or for an end that names no thing the id its key
        would have (a fact's id does not depend on which of its ends are entities)."""
        return self.entity_of(name) or entity_id(normalise_name(name))

    def fact_id(self, subject: str, relation: str, obj: str, time: str | None) -> str:
        relation = " ".join(relation.lower().split())
        return content_id("fact", self.end(subject), relation, self.end(obj), time or "")


def write_facts(
    ctx: BuildContext,
    facts: Sequence[PassageFacts],
    *,
    builder: str,
    settings: SemanticSettings | None = None,
    speakers: Sequence[str] = (),
    prompt_version: str | None = None,
) -> Resolution:
    """Add ``facts`` (quadruples and mentioned phrases per passage) to the space's semantic
    layer: their phrases resolve to entities (new ones get synonym edges), each Fact is
    tagged ``builder`` and points ``FROM`` its passage, passages MENTION their phrases and
    each speaker IS its entity. Idempotent (content ids). Drops the space's PageRank
    projection, so the next query walks the new graph. Returns each phrase's entity."""
    writer = SemanticWriter(ctx, settings or ctx.configs.get("semantic"), prompt_version, builder)
    resolution = writer.write(facts, speakers)
    SemanticGraph(ctx.store, ctx.space).drop()
    return resolution


def stored_entity_ids(ctx: BuildContext, names: Sequence[str]) -> dict[str, str]:
    """Normalised key -> id of the stored entity each phrase resolved to (by its own key or
    as a recorded alias of a near-duplicate); phrases with no entity are left out."""
    keys = sorted({normalise_name(n) for n in names if usable(n)})
    rows = ctx.store.read(
        "semantic.entity_ids",
        space=ctx.space,
        rows=[{"key": k, "id": entity_id(k)} for k in keys],
    )
    return {row["key"]: row["id"] for row in rows}


class SemanticWriter:
    def __init__(
        self,
        ctx: BuildContext,
        settings: SemanticSettings,
        prompt_version: str | None,
        builder: str = BUILDER,
    ) -> None:
        self.ctx = ctx
        self.settings = settings
        self.prompt_version = prompt_version
        self.builder = builder

    def _vectors(self, rows: list[dict[str, Any]], k: int) -> list[dict[str, Any]]:
        """The ``k`` nearest entities of the space of each row's ``embedding`` (key, id,
        entity_key, cosine), by exact cosine over the space's entities read once: what
        ``semantic.entity_neighbours_exact`` returns, ties to the smaller id."""
        if not rows:
            return []
        stored = self.ctx.store.read("semantic.entity_vectors", space=self.ctx.space)
        index = ExactIndex.from_rows(stored, self.ctx.embedder.dim)
        found = index.top_many([row["embedding"] for row in rows], k)
        return [
            {
                "key": row["key"],
                "id": index.rows[i]["id"],
                "entity_key": index.rows[i]["key"],
                "cosine": 2 * score - 1,
            }
            for row, hits in zip(rows, found, strict=True)
            for i, score in hits
        ]

    def resolve(self, names: Sequence[str]) -> Resolution:
        """Each phrase's entity: an existing one with its key, else a near-duplicate's
        (stored or earlier in ``names``), else a new one. Writes nothing."""
        surfaces: dict[str, str] = {}
        for name in names:
            if usable(name):
                surfaces.setdefault(normalise_name(name), name.strip())
        res = Resolution()
        found = self.ctx.store.read(
            "semantic.existing_entities",
            space=self.ctx.space,
            ids=[entity_id(k) for k in surfaces],
        )
        existing = {row["id"]: row for row in found}
        fresh = [k for k in surfaces if entity_id(k) not in existing]
        res.ids.update({k: entity_id(k) for k in surfaces if entity_id(k) in existing})
        for key in surfaces:
            row = existing.get(entity_id(key))
            if row is not None and row["pending"]:
                res.pending.append(key)
                res.vectors[key] = np.asarray(row["embedding"], dtype=np.float32)
        vectors = self.ctx.embedder.embed(fresh, "symmetric")  # names meet query phrases
        stored: dict[str, list[tuple[float, str, str]]] = {k: [] for k in fresh}
        rows = [{"key": k, "embedding": v.tolist()} for k, v in zip(fresh, vectors, strict=True)]
        for row in self._vectors(rows, 3):
            stored[row["key"]].append((row["cosine"], row["id"], row["entity_key"]))
        # float64 of the float32 products: the threshold compares as ``float()`` would.
        similarity = (vectors @ vectors.T).astype(np.float64) if len(fresh) else np.zeros((0, 0))
        accepted: list[int] = []
        for i, key in enumerate(fresh):
            # Only earlier accepted phrases above the threshold can be twins: filtering
            # them in numpy first keeps the batch linear in Python, not quadratic.
            earlier = np.asarray(accepted, dtype=np.intp)
            near = earlier[similarity[i, earlier] >= self.settings.merge_threshold]
            local = [(float(similarity[i, j]), entity_id(fresh[j]), fresh[j]) for j in near]
            twins = [
                c
                for c in stored[key] + local
                if c[0] >= self.settings.merge_threshold and head_noun(c[2]) == head_noun(key)
            ]
            if twins:
                best = max(twins)
                res.ids[key] = best[1]
                res.aliases.append((best[1], key))
            else:
                res.ids[key] = entity_id(key)
                res.new.append((key, surfaces[key]))
                accepted.append(i)
        res.vectors.update({fresh[i]: vectors[i] for i in accepted})
        return res

    def _synonyms(self, res: Resolution) -> list[dict[str, Any]]:
        """The synonym pass of the batch's new entities and of the pending ones."""
        min_len = self.settings.synonym_min_alnum
        rows = [
            {"key": key, "embedding": res.vectors[key].tolist()}
            for key in [*(k for k, _ in res.new), *res.pending]
            if alnum_length(key) >= min_len
        ]
        pairs: dict[tuple[str, str], float] = {}
        per_entity: dict[str, int] = {}
        found = self._vectors(rows, self.settings.synonym_top_k + 1)
        for row in sorted(found, key=lambda r: (r["key"], -r["cosine"], r["id"])):
            me, other = entity_id(row["key"]), row["id"]
            if other == me or row["cosine"] < self.settings.synonym_threshold:
                continue
            if alnum_length(row["entity_key"] or "") < min_len:
                continue
            if per_entity.get(me, 0) >= self.settings.synonym_top_k:
                continue
            per_entity[me] = per_entity.get(me, 0) + 1
            pairs[(min(me, other), max(me, other))] = round(float(row["cosine"]), 4)
        return [{"a": a, "b": b, "score": s} for (a, b), s in sorted(pairs.items())]

    def write(self, facts: Sequence[PassageFacts], speakers: Sequence[str]) -> Resolution:
        """Entities, aliases, synonyms, facts, mentions and speaker links of one batch."""
        facts = [_named(pf) for pf in facts]
        speakers = names_only(speakers)
        things = self._things(facts, speakers)
        res = self.resolve([*speakers, *(t for t in things.values() if t)])
        res.things = things
        store, space = self.ctx.store, self.ctx.space
        offline_only = _fallback_keys(facts, speakers, things)
        entity_rows = [
            {
                "id": entity_id(k),
                "key": k,
                "name": name,
                "embedding": res.vectors[k].tolist(),
                **self.ctx.node_backend(k in offline_only),
            }
            for k, name in res.new
        ]
        store.write("semantic.upsert_entities", space=space, rows=entity_rows, builder=BUILDER)
        alias_rows = [{"id": eid, "alias": key} for eid, key in res.aliases]
        store.write("semantic.add_aliases", space=space, rows=alias_rows)
        synonym_rows = self._synonyms(res)
        done = [entity_id(k) for k in [*(k for k, _ in res.new), *res.pending]]
        store.write("semantic.link_synonyms", space=space, rows=synonym_rows, done=done)
        fact_rows = self._facts(facts, res)
        store.write(
            "semantic.upsert_facts",
            space=space,
            rows=fact_rows,
            builder=self.builder,
            prompt_version=self.prompt_version,
        )
        mention_rows = [
            {
                "passage_id": pf.passage_id,
                "entity_ids": sorted({e for n in pf.names() if (e := res.entity_of(n))}),
            }
            for pf in facts
        ]
        store.write("semantic.link_mentions", space=space, rows=mention_rows)
        speaker_rows = [
            {"speaker_id": content_id("speaker", s), "entity_id": res.of(s)}
            for s in speakers
            if usable(s)
        ]
        store.write("semantic.link_speakers", space=space, rows=speaker_rows)
        res.counts = {
            "entities": len(entity_rows),
            "entity_aliases": len(alias_rows),
            "synonyms": len(synonym_rows),
            "facts": len({r["id"] for r in fact_rows}),
            "mentions": sum(len(r["entity_ids"]) for r in mention_rows),
        }
        return res

    def _things(
        self, facts: Sequence[PassageFacts], speakers: Sequence[str]
    ) -> dict[str, str | None]:
        """Each phrase's thing (``Resolution.things``); with ``entities = "phrases"`` every
        phrase is its own, and a speaker always is."""
        names = [n for pf in facts for n in pf.names()]
        unique = list(dict.fromkeys(n for n in names if usable(n)))
        if self.settings.entities == "phrases":
            return {n: n for n in unique}
        verdicts = dict(zip(unique, thing_names(unique), strict=True))
        keys = {normalise_name(s) for s in speakers}
        said_of = _descriptions(facts)
        return {
            n: n if normalise_name(n) in keys else None if n in said_of else verdicts[n]
            for n in unique
        }

    def _facts(self, facts: Sequence[PassageFacts], res: Resolution) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = []
        for pf in facts:
            for quad in pf.quadruples:
                if res.end(quad.subject) == res.end(quad.object):
                    continue
                subject_id, object_id = res.entity_of(quad.subject), res.entity_of(quad.object)
                fact_id = res.fact_id(quad.subject, quad.relation, quad.object, quad.time)
                relation = " ".join(quad.relation.lower().split())
                statement = f"{quad.subject} {relation} {quad.object}"
                when = f" ({human_date(quad.time)})" if quad.time else ""
                rows.append(
                    {
                        "id": fact_id,
                        "subject_id": subject_id,
                        "object_id": object_id,
                        "passage_id": pf.passage_id,
                        "subject": quad.subject,
                        "relation": relation,
                        "object": quad.object,
                        "time": quad.time,
                        "text": statement + when,
                        "statement": statement,
                        **self.ctx.node_backend(pf.fallback),
                    }
                )
        vectors = self.ctx.embedder.embed([r["statement"] for r in rows])
        for row, vector in zip(rows, vectors, strict=True):
            row["embedding"] = vector.tolist()
        return rows


_BE = frozenset({"is", "was", "are", "were", "be", "been", "being", "am", "'s", "'re", "'m"})
_BE |= frozenset({"become", "became", "becomes", "becoming", "seem", "seems", "seemed"})
_AUX = frozenset({"not", "will", "would", "can", "could", "may", "might", "has", "have", "had"})


def _descriptions(facts: Sequence[PassageFacts]) -> set[str]:
    """Phrases the batch only says *of* something, in lower case ("Lisbon is an amazing
    city", "the app was a lifesaver"): the object of "be" or "become" and nothing else, no
    mention and no other fact's end. Such a phrase describes; it names no thing."""
    said_of: set[str] = set()
    elsewhere: set[str] = set()
    for pf in facts:
        elsewhere.update(pf.mentions)
        for q in pf.quadruples:
            words = set(q.relation.lower().split())
            elsewhere.add(q.subject)
            copula = bool(words & _BE) and words <= _BE | _AUX
            (said_of if copula and q.object == q.object.lower() else elsewhere).add(q.object)
    return said_of - elsewhere


def _named(pf: PassageFacts) -> PassageFacts:
    """``pf`` without the quadruples one of whose ends names nothing and without such
    mentions: a design hands over whatever its extractor (or LLM) found, and "-" or an
    emoji must end neither in an entity nor in a lookup that fails."""
    quads = [q for q in pf.quadruples if is_name(q.subject) and is_name(q.object)]
    return replace(pf, quadruples=quads, mentions=names_only(pf.mentions))


def _fallback_keys(
    facts: Sequence[PassageFacts], speakers: Sequence[str], things: dict[str, str | None]
) -> set[str]:
    """Things only passages extracted offline after an LLM fallback named: their new
    entities are labelled as the offline backend's (a speaker never is)."""
    named_by: dict[bool, set[str]] = {False: set(), True: set()}
    for pf in facts:
        named = (things.get(n) for n in pf.names())
        named_by[pf.fallback].update(normalise_name(t) for t in named if t)
    return named_by[True] - named_by[False] - {normalise_name(s) for s in speakers}
