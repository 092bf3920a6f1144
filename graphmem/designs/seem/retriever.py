"""``--strategy seem``: HippoRAG 2 over the semantic layer (``graphmem.semantic``) plus
SEEM's Reverse Provenance Expansion. After each retrieved passage comes the frame it belongs
to with every source passage of that frame (at most ``rpe_factor`` times the initial
passages in all), and the top facts, as memories with their provenance.

The space's frames are read with the rest of its snapshot (``_read_space``) and renewed
with it whenever the space's projection changes.
"""

from __future__ import annotations

from dataclasses import dataclass

from graphmem.designs.seem.answer import answer_messages
from graphmem.designs.seem.settings import SeemSettings
from graphmem.llm import Message
from graphmem.plugin import Hit, PackedContext, PassageRef, RetrievalContext
from graphmem.semantic import FactHit, GraphInfo, RankedPassage, SemanticRetriever, SpaceSnapshot


@dataclass(frozen=True)
class FrameRow:
    id: str
    summary: str
    sources: list[PassageRef]  # in conversation order
    backend: str = "offline"


def expand(
    ranked: list[RankedPassage], frames: dict[str, list[FrameRow]], factor: float, decay: float
) -> tuple[list[RankedPassage], dict[str, str]]:
    """Reverse Provenance Expansion: every source of the frames of the retrieved passages
    joins the ranking with its activating passage's score times ``decay`` (the best
    activation wins), within ``factor`` times the retrieved passages in all. Returns the
    new ranking and, for each added passage, why it was added."""
    initial = {p.ref.id for p in ranked}
    best: dict[str, tuple[float, PassageRef, str]] = {}
    for passage in ranked:
        score = passage.score * decay
        for frame in frames.get(passage.ref.id, []):
            for source in frame.sources:
                if source.id in initial or best.get(source.id, (-1.0,))[0] >= score:
                    continue
                why = f"reverse provenance expansion: frame of {passage.ref.source_id}"
                best[source.id] = (score, source, why)
    room = max(0, int(factor * len(ranked)) - len(ranked))
    extra = sorted(best.values(), key=lambda item: (-item[0], item[1].id))[:room]
    merged = ranked + [RankedPassage(ref, -1, score) for score, ref, _ in extra]
    merged.sort(key=lambda p: -p.score)
    return merged, {ref.id: why for _, ref, why in extra}


class SeemRetriever(SemanticRetriever[SeemSettings]):
    """HippoRAG 2 with the semantic layer's settings (``ctx.configs.get("semantic")``), then
    Reverse Provenance Expansion with SEEM's own (``self.settings``)."""

    name = "seem"

    def __init__(self, ctx: RetrievalContext, settings: SeemSettings) -> None:
        super().__init__(ctx, settings, ctx.configs.get("semantic"))
        self._frames: dict[str, list[FrameRow]] = {}

    def answer_messages(self, question: str, context: PackedContext) -> list[Message] | None:
        return answer_messages(question, context)  # SEEM's Prompt 3

    def _read_space(self, info: GraphInfo) -> SpaceSnapshot:
        snapshot = super()._read_space(info)
        by_id = snapshot.by_id
        frames: dict[str, list[FrameRow]] = {}
        for row in self.ctx.store.read("seem.space_frames", space=self.ctx.space):
            sources = [by_id[pid] for pid in row["source_ids"] if pid in by_id]
            frame = FrameRow(row["frame"], row["summary"], sources, row["backend"] or "")
            for source in sources:
                frames.setdefault(source.id, []).append(frame)
        self._frames = frames
        return snapshot

    def _hits(
        self, snapshot: SpaceSnapshot, ranked: list[RankedPassage], facts: list[FactHit], path: str
    ) -> list[Hit]:
        frames, seem = self._frames, self.settings
        # The paper's RPE (section 3.4.2, section 4): the top k passages, their frames'
        # provenance passages, the final set at most factor * k; else every ranked passage.
        initial = ranked[: seem.rpe_top_k] if seem.rpe_top_k else ranked
        final, origin = expand(initial, frames, seem.rpe_factor, seem.rpe_decay)
        chosen = {p.ref.id for p in final}
        top_facts = facts[: seem.context_facts]
        out = [self._fact_hit(f) for f in top_facts] if seem.facts_first else []
        waiting_facts = [] if seem.facts_first else list(top_facts)
        emitted: set[str] = set()
        shown: set[str] = set()
        for rank, passage in enumerate(final):
            how = origin.get(passage.ref.id, path)
            out.append(self._passage_hit(passage, rank, how))
            emitted.add(passage.ref.id)
            # A frame (and a fact) follows the last of its chosen sources: by then every
            # passage it points at is in the context, and its text is the only cost.
            for frame in frames.get(passage.ref.id, []):
                if frame.id in shown:
                    continue
                mine = [s for s in frame.sources if s.id in chosen]
                if all(s.id in emitted for s in mine):
                    shown.add(frame.id)
                    hit = self._frame_hit(frame, mine, passage)
                    out += [hit] if hit else []
            for fact in [f for f in waiting_facts if passage.ref.id in {s.id for s in f.sources}]:
                if all(s.id in emitted for s in fact.sources if s.id in chosen):
                    waiting_facts.remove(fact)
                    out.append(self._fact_hit(fact))
        return out + [self._fact_hit(f) for f in waiting_facts]  # K_top is always offered

    def _fact_hit(self, fact: FactHit) -> Hit:
        return Hit(
            node_id=fact.id,
            label="Fact",
            score=fact.cosine,
            strategy=self.name,
            path=[f"{self._fact_search} cosine {fact.cosine:.3f}"],
            text=fact.text,
            passages=fact.sources,
        )

    def _frame_hit(
        self, frame: FrameRow, chosen: list[PassageRef], last: RankedPassage
    ) -> Hit | None:
        mode = self.settings.frame_summaries
        if (
            mode == "none"
            or (mode == "fused" and len(frame.sources) < 2)
            or (mode == "llm" and not frame.backend.startswith("llm:"))
        ):
            return None
        return Hit(
            node_id=frame.id,
            label="EventFrame",
            score=last.score,
            strategy=self.name,
            path=[f"event frame of {', '.join(p.source_id for p in chosen)}"],
            text=frame.summary,
            passages=chosen,
        )
