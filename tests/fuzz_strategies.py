"""Hypothesis strategies for malformed (and sometimes valid) conversation input: valid
records with fields dropped or replaced by arbitrary JSON (lone surrogates, huge integers,
over-long ids and texts, wrong types, nesting)."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

# Every code point, lone surrogates included (hypothesis leaves them out by default).
ANY_CHAR = st.characters(exclude_categories=())
TEXT = st.one_of(
    st.text(ANY_CHAR, max_size=30),
    st.sampled_from(["", " ", "Ana", "hello there", "2024-03-14T09:30:00", "\udc80", "D1:3"]),
    st.just("x" * 20_001),
    st.just("c" * 9_000),
)
SCALAR = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=10**600, max_value=10**601),
    st.floats(allow_nan=True),
    TEXT,
)
JSON = st.recursive(
    SCALAR,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(TEXT, inner, max_size=4)),
    max_leaves=12,
)


def mutated(base: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    """``base`` (whose values may be strategies) with up to two fields dropped and up to
    two fields (or an extra one) replaced by arbitrary JSON."""
    keys = list(base)
    fixed = st.fixed_dictionaries(
        {k: v if isinstance(v, st.SearchStrategy) else st.just(v) for k, v in base.items()}
    )
    return st.builds(
        lambda record, drop, over: {
            **{k: v for k, v in record.items() if k not in drop},
            **over,
        },
        fixed,
        st.sets(st.sampled_from(keys), max_size=2),
        st.dictionaries(st.sampled_from([*keys, "extra"]), JSON, max_size=2),
    )


MESSAGE = mutated(
    {
        "conversation": "c1",
        "session": st.sampled_from([1, 2, "s1"]),
        "speaker": st.sampled_from(["Ana", "Ben"]),
        "text": "We land in Lisbon on Friday.",
        "timestamp": "2024-03-14T09:30:00",
        "id": st.sampled_from(["m1", "m2", "m3"]),
        "caption": "a photo",
    }
)
MESSAGES = st.lists(MESSAGE, min_size=1, max_size=4)

_LOCOMO_TURN = mutated(
    {"speaker": "Ana", "dia_id": st.sampled_from(["D1:1", "D1:2", "D1:05"]), "text": "Hi there"}
)
_LOCOMO_CONV = mutated(
    {
        "speaker_a": "Ana",
        "speaker_b": "Ben",
        "session_1": st.lists(_LOCOMO_TURN, max_size=3),
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_2": st.lists(_LOCOMO_TURN, max_size=2),
    }
)
_LOCOMO_QA = mutated({"question": "Where?", "answer": "Lisbon", "evidence": ["D1:1"]})
LOCOMO = st.lists(
    mutated(
        {
            "sample_id": st.sampled_from(["s1", "s2"]),
            "conversation": _LOCOMO_CONV,
            "qa": st.lists(_LOCOMO_QA, max_size=2),
        }
    ),
    min_size=1,
    max_size=2,
)

_LME_TURN = mutated({"role": st.sampled_from(["user", "assistant"]), "content": "I like tea"})
LONGMEMEVAL = st.lists(
    mutated(
        {
            "question_id": st.sampled_from(["q1", "q2"]),
            "question": "What do I like?",
            "answer": "tea",
            "haystack_session_ids": ["h1"],
            "haystack_dates": ["2023/05/20 (Sat) 02:21"],
            "haystack_sessions": st.lists(st.lists(_LME_TURN, max_size=3), min_size=1, max_size=1),
        }
    ),
    min_size=1,
    max_size=2,
)
