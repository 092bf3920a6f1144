"""The pieces every design shares, each once: the Cypher fragment include, typed rows
checked against a statement's header, the over-fetch, and the semantic layer's entry."""

from __future__ import annotations

from datetime import datetime

import pytest
from neo4j.time import DateTime
from pydantic import BaseModel

from graphmem.errors import CatalogError
from graphmem.graph.catalog import (
    cypher_root,
    expand_fragments,
    load_catalog,
    load_fragments,
    parse_statement,
)
from graphmem.graph.overfetch import LabelCount, over_fetch
from graphmem.graph.rows import typed_rows
from graphmem.plugin.registry import registry
from graphmem.plugin.retriever import PassageRef
from graphmem.semantic import SemanticSettings


def test_fragments_expand_outside_strings_only() -> None:
    fragments = {"passage": ".id, .text"}
    body = "RETURN p {@passage} AS passage, '@passage' AS literal"
    assert expand_fragments(body, fragments) == (
        "RETURN p {.id, .text} AS passage, '@passage' AS literal"
    )
    with pytest.raises(CatalogError, match="no Cypher fragment named 'nope'"):
        parse_statement("x.y", "// params: -\n// returns: a\nRETURN p {@nope} AS a", "x", {})


def test_every_passage_projection_uses_the_fragment() -> None:
    fragment = load_fragments(cypher_root())["passage"]
    assert "ts: toString(p.ts)" in fragment
    for name, found in load_catalog().items():
        assert "@" not in found.text, name  # every include expanded
        # No hand-made copy of the map (it would send the time as a driver object).
        assert ".speaker, .text, .caption, .ts" not in found.text, name
        # The fragment names its variable (the time's text reads p.ts): p it must be.
        pieces = found.text.split(fragment)
        assert all(piece.endswith("p {") for piece in pieces[:-1]), name


class _Scored(BaseModel):
    passage: PassageRef
    score: float


def test_typed_rows_check_the_header_and_convert_values() -> None:
    ts = DateTime(2023, 5, 8, 13, 56)
    row = {"passage": {"id": "a", "source_id": "D1:1", "speaker": "Ana", "text": "hi", "ts": ts}}
    (typed,) = typed_rows("retrieval.dense_passages", [{**row, "score": 0.5}], _Scored)
    assert typed.passage.ts == datetime(2023, 5, 8, 13, 56) and typed.score == 0.5
    # As the passage fragment sends it: the time as its ISO text.
    text = {**row, "passage": {**row["passage"], "ts": "2023-05-08T13:56:00"}}
    (typed,) = typed_rows("retrieval.dense_passages", [{**text, "score": 0.5}], _Scored)
    assert typed.passage.ts == datetime(2023, 5, 8, 13, 56)
    with pytest.raises(CatalogError, match="returned columns"):
        typed_rows("retrieval.dense_passages", [{**row, "score": 0.5, "extra": 1}], _Scored)

    class Wrong(BaseModel):
        nothing_like_this: int

    with pytest.raises(CatalogError, match="does not return"):
        typed_rows("retrieval.dense_passages", [], Wrong)


def test_over_fetch_is_zero_for_an_empty_space() -> None:
    assert over_fetch(5, total=1000, in_space=0) == 0
    assert LabelCount(total=1000, in_space=100).fetch(5) == over_fetch(5, 1000, 100) == 85


def test_semantic_layer_is_registered_below_the_designs() -> None:
    designs = registry()
    semantic = designs["semantic"]
    assert semantic.kind == "layer" and "hipporag" in semantic.retrievers
    assert designs["seem"].requires == ("semantic",)
    assert set(semantic.preset("paper").values) == set(semantic.preset("paper").sources)
    paper = SemanticSettings(**semantic.preset("paper").values)
    assert (paper.synonym_threshold, paper.passage_node_weight, paper.damping) == (0.8, 0.05, 0.5)
    for name in ("seem", "anchormem"):
        preset = designs[name].preset("paper")
        assert set(preset.values) == set(preset.sources), name
