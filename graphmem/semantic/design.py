"""The HippoRAG 2 semantic layer as a registry entry (``kind="layer"``): builder
``semantic``, strategy ``hipporag``; SEEM, CAST and Amory require it."""

from __future__ import annotations

from graphmem.plugin.design import Design, Label, Preset, Reembed
from graphmem.plugin.style import NodeStyle
from graphmem.semantic.settings import SemanticSettings

_HIPPORAG2 = "HippoRAG 2 (Gutierrez et al., 2025)"
_CODE = f"{_HIPPORAG2}, released code (BaseConfig)"

DESIGN = Design(
    name="semantic",
    kind="layer",
    title="HippoRAG 2 semantic layer",
    summary="entities, quadruple facts, synonym and mention edges; Personalized PageRank "
    "from the query's facts and phrases (strategy hipporag)",
    settings=SemanticSettings,
    builder="graphmem.semantic.builder:SemanticBuilder",
    retrievers={"hipporag": "graphmem.semantic.retriever:HippoRagRetriever"},
    labels={
        "Entity": Label(
            indexed=True,
            style=NodeStyle(
                color="#FFD23F",
                border="#D9A900",
                diameter=45,
                caption="{name}",
                meaning="a thing, place or person the turns mention (semantic layer)",
            ),
        ),
        "Fact": Label(
            derived=True,
            indexed=True,
            statement="text",
            valid_time=True,
            style=NodeStyle(
                color="#1B9E4B",
                border="#127536",
                text="#FFFFFF",
                diameter=55,
                caption="{text}",
                meaning="a subject-relation-object statement read from a turn (semantic layer)",
            ),
        ),
    },
    pagerank=True,
    reembed=Reembed(labels=("Entity", "Fact"), run="graphmem.semantic.reembed:reembed_semantic"),
    relationships=("MENTIONS", "SUBJECT", "OBJECT", "SYNONYM", "IS"),
    presets={
        "paper": Preset(
            description="HippoRAG 2's published values and seed formula (phrase weights: "
            "mean of min-max normalised fact scores / passage count; every passage seeded "
            "with its min-max dense score x 0.05; exact weighted PageRank)",
            values={
                "synonym_threshold": 0.8,
                "synonym_top_k": 2047,
                "synonym_min_alnum": 3,
                "fact_top_k": 5,
                "seed_entities": 5,
                "passage_node_weight": 0.05,
                "damping": 0.5,
                "seed_formula": "hipporag2",
                "fact_session_time": True,
                "fact_filter": "lexical",
                "fact_min_score": 0.0,
                "passage_prior": "pagerank",
                "passage_seed_levels": 0,
                "entity_seed_levels": 0,
                "entities": "phrases",
            },
            sources={
                "synonym_threshold": f"{_HIPPORAG2}, section 3 (synonym edges between phrase "
                f"nodes above a similarity threshold); 0.8 in {_CODE}: "
                "synonymy_edge_sim_threshold",
                "synonym_top_k": f"{_CODE}: synonymy_edge_topk = 2047 nearest phrases",
                "synonym_min_alnum": f"{_CODE}: phrases of more than 2 alphanumeric "
                "characters get synonym edges",
                "fact_top_k": f"{_HIPPORAG2}, section 3.2 (query-to-triple linking, top-5 "
                "facts; linking_top_k = 5)",
                "seed_entities": f"{_CODE}: the phrase weights are cut to the top "
                "linking_top_k = 5",
                "passage_node_weight": f"{_HIPPORAG2}, section 3.2 (passage node weight "
                "factor 0.05)",
                "damping": f"{_CODE}: PageRank damping 0.5",
                "seed_formula": f"{_CODE}: graph_search_with_fact_entities (phrase weight "
                "+= fact score / passages of the phrase, then divided by its number of "
                "occurrences; fact scores min-max normalised over all facts)",
                "fact_session_time": "SEEM, section 3.3.1, Eq. 4 (facts are quadruples "
                "(s, r, o, tau)); appendix B.1, Table 10 (most facts carry a temporal anchor)",
                "fact_filter": f"{_HIPPORAG2}, section 3.2 (recognition memory: an LLM "
                "drops linked facts unrelated to the query); offline stand-in: a fact is "
                "kept when it shares a content word with the query",
                "fact_min_score": f"{_CODE}: no score floor on the linked facts",
                "entities": f"{_HIPPORAG2}, section 3.1 (every subject and object phrase of "
                "an OpenIE triple is a phrase node)",
                "passage_prior": f"{_CODE}: passage nodes are part of the PageRank reset "
                "vector (node_weights = phrase_weights + passage_weights)",
                "passage_seed_levels": f"{_CODE}: each passage keeps its own weight "
                "(0 = one exact PageRank run per passage, summed by linearity)",
                "entity_seed_levels": f"{_CODE}: each phrase keeps its own weight",
            },
        )
    },
    cypher=("semantic",),
    stats="graphmem.semantic.stats:semantic_stats",
    docs="docs/semantic.md",
    build_settings=(
        "synonym_threshold",
        "synonym_top_k",
        "synonym_min_alnum",
        "merge_threshold",
        "fact_session_time",
        "mentions_per_passage",
    ),
)
