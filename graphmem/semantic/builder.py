"""``SemanticBuilder`` (builder ``semantic``): the HippoRAG 2 semantic layer for each batch
of sessions: quadruple facts and mentioned phrases per passage (offline: the spaCy parse;
with an LLM: the OpenIE prompt), resolved to entities and written by ``write_facts``.

Designs that build on the layer declare ``requires=("semantic",)``: this builder then runs
before theirs for the same batch. Every build drops the space's PageRank projection (the
next query projects the new graph).
"""

from __future__ import annotations

from dataclasses import replace

from graphmem.llm import map_attempts
from graphmem.nlp.roles import SpeakerRoles
from graphmem.plugin.builder import BuildContext, Builder, BuildReport, SessionBatch
from graphmem.semantic.extract import (
    batch_passages,
    batch_speakers,
    llm_facts,
    offline_facts_many,
    with_session_dates,
)
from graphmem.semantic.projection import SemanticGraph
from graphmem.semantic.prompts import PROMPT_VERSION
from graphmem.semantic.settings import SemanticSettings
from graphmem.semantic.writer import BUILDER, write_facts


class SemanticBuilder(Builder[SemanticSettings]):
    name = BUILDER

    def __init__(self, ctx: BuildContext, settings: SemanticSettings) -> None:
        super().__init__(ctx, settings)
        self.prompt_version = PROMPT_VERSION if ctx.llm else None

    def build(self, batch: SessionBatch) -> BuildReport:
        llm = self.ctx.llm
        passages = batch_passages(batch)
        speakers = batch_speakers(batch, passages)
        if llm is not None:
            # A passage the LLM gives up on (after retries and repairs) is extracted offline,
            # and its facts say so (backend 'offline', fallback).
            mentions = self.settings.mentions_per_passage
            outcomes = map_attempts(
                llm,
                lambda p: llm_facts(llm, [p])[0],
                lambda p: offline_facts_many([p], mentions)[0],
                passages,
                what="quadruples",
            )
            facts = [replace(o.value, fallback=o.fallback) for o in outcomes]
        else:
            roles = SpeakerRoles.of(speakers, self.ctx.settings.assistant_speakers)
            answers = frozenset(roles.assistants if roles.user_assistant else ())
            facts = offline_facts_many(
                passages,
                self.settings.mentions_per_passage,
                answers,
                self.ctx.settings.answer_sentences,
            )
        if self.settings.fact_session_time:
            facts = with_session_dates(facts, passages)
        resolution = write_facts(
            self.ctx,
            facts,
            builder=BUILDER,
            settings=self.settings,
            speakers=speakers,
            prompt_version=self.prompt_version,
        )
        report = BuildReport(self.name, sessions=len(batch.sessions))
        report.counts = {"turns": len(passages), **resolution.counts}
        return report

    def finish(self) -> None:
        SemanticGraph(self.ctx.store, self.ctx.space).drop()
