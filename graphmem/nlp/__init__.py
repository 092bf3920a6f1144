"""The offline NLP backend (spaCy + dateparser), used when no LLM is configured."""

from graphmem.nlp.spacy_loader import get_nlp, load_spacy, spacy_model_info, use_model
from graphmem.nlp.temporal import (
    TemporalMention,
    annotate,
    normalise_temporal,
    parse_session_datetime,
    render,
)
from graphmem.nlp.text import (
    analyse,
    analyse_many,
    contentless_many,
    entities,
    first_person_to_name,
    first_person_to_name_many,
    is_contentless,
    keyphrases,
    persons,
    sentences,
)
from graphmem.nlp.triples import Triple, extract_triples, extract_triples_many, query_entities

__all__ = [
    "TemporalMention",
    "Triple",
    "analyse",
    "analyse_many",
    "annotate",
    "contentless_many",
    "entities",
    "extract_triples",
    "extract_triples_many",
    "first_person_to_name",
    "first_person_to_name_many",
    "get_nlp",
    "is_contentless",
    "keyphrases",
    "load_spacy",
    "normalise_temporal",
    "parse_session_datetime",
    "persons",
    "query_entities",
    "render",
    "sentences",
    "spacy_model_info",
    "use_model",
]
