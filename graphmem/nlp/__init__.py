"""The offline NLP backend (spaCy and rules), used when no LLM is configured.

Its public API is what this module exports (``__all__``): the designs import these names
from ``graphmem.nlp``, never its submodules (tests/unit/plugin/test_plugin_layers.py). Importing
them all here loads nothing the package did not load before: ``text`` brings in spaCy, and
the other modules need only it.
"""

from graphmem.nlp.lexicon import NON_TOPICAL_LABELS
from graphmem.nlp.openings import analyse_turns
from graphmem.nlp.people import PersonEvidence, person_name
from graphmem.nlp.roles import SpeakerRoles
from graphmem.nlp.second_person import persons_to_names
from graphmem.nlp.spacy_loader import get_nlp, load_spacy, spacy_model_info, using_model
from graphmem.nlp.speech_acts import SpeechAct, reported, speaker_names, speech_act
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
    contentless_texts,
    entities,
    first_person_to_name,
    is_content_token,
    is_contentless,
    keyphrases,
    persons,
    phrase_key,
    sentences,
    trim_span,
)
from graphmem.nlp.triples import Triple, extract_triples, query_entities

__all__ = [
    "NON_TOPICAL_LABELS",
    "PersonEvidence",
    "SpeakerRoles",
    "SpeechAct",
    "TemporalMention",
    "Triple",
    "analyse",
    "analyse_many",
    "analyse_turns",
    "annotate",
    "contentless_texts",
    "entities",
    "extract_triples",
    "first_person_to_name",
    "get_nlp",
    "is_content_token",
    "is_contentless",
    "keyphrases",
    "load_spacy",
    "normalise_temporal",
    "parse_session_datetime",
    "person_name",
    "persons",
    "persons_to_names",
    "phrase_key",
    "query_entities",
    "render",
    "reported",
    "sentences",
    "spacy_model_info",
    "speaker_names",
    "speech_act",
    "trim_span",
    "using_model",
]
