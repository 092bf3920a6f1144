"""Metrics against values computed by hand."""

from __future__ import annotations

import math

import pytest
from pydantic import ValidationError

from graphmem.eval.metrics import (
    CATEGORY_NAMES,
    JUDGE_PROMPT,
    JudgeVerdict,
    answer_token_recall,
    bleu1,
    coverage_at_k,
    evidence_recall_at_k,
    evidence_recall_in,
    f1_multi,
    f1_score,
    locomo_f1,
    mean_defined,
    normalize_answer,
    percentiles,
    recall_all_at_k,
    recall_any_at_k,
)
from graphmem.llm.answer import ANSWER_PROMPT


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("The Cat, and a Dog!", "cat dog"),
        ("Andrew and the band", "andrew band"),  # word boundaries: "and" inside a name stays
        ("Mr. Smith's 1,000 cats", "mr smiths 1000 cats"),
        ("  An   apple\tpie  ", "apple pie"),
        ("the", ""),
    ],
)
def test_normalize_answer(raw: str, expected: str) -> None:
    assert normalize_answer(raw) == expected


def test_f1_score_with_stemming() -> None:
    # [cat, sat] vs [cat, sit]: one common token, P = R = 1/2
    assert f1_score("The cat sat", "a cat sitting") == pytest.approx(0.5)
    # [cat, are, run] vs [cat, run]: P = 2/3, R = 1, F1 = 0.8
    assert f1_score("The cats are running", "a cat runs") == pytest.approx(0.8)
    assert f1_score("Pixel", "pixel.") == 1.0
    assert f1_score("", "pixel") == 0.0
    assert f1_score("the", "the") == 0.0  # nothing left after normalisation


def test_f1_multi() -> None:
    # gold parts: "dog training" 1.0, "pottery" 1.0, "hiking" 0.0
    assert f1_multi("pottery, dog training", "dog training, pottery, hiking") == pytest.approx(
        2 / 3
    )
    # each gold part against "paris rome": P = 1/2, R = 1, F1 = 2/3
    assert f1_multi("Paris and Rome", "Paris, Rome") == pytest.approx(2 / 3)
    assert f1_score("Paris and Rome", "Paris, Rome") == 1.0


def test_locomo_f1_dispatch() -> None:
    assert locomo_f1("Paris and Rome", "Paris, Rome", 1) == pytest.approx(2 / 3)
    assert locomo_f1("Paris and Rome", "Paris, Rome", 4) == 1.0
    assert locomo_f1("Paris and Rome", "Paris, Rome", None) == 1.0
    # category 3 keeps the gold answer before ';'
    assert locomo_f1("psychology", "Psychology; she likes helping people", 3) == 1.0
    assert locomo_f1("psychology", "Psychology; she likes helping people", 4) == pytest.approx(
        2 * (1 / 1) * (1 / 5) / (1 + 1 / 5)
    )
    assert locomo_f1("Not mentioned in the conversation", None, 5) == 1.0
    assert locomo_f1("No information available.", "a puppy", 5) == 1.0
    assert locomo_f1("a puppy", None, 5) == 0.0
    with pytest.raises(ValueError):
        locomo_f1("anything", None, 2)


def test_bleu1() -> None:
    assert bleu1("cat sat", "The cat sat") == 1.0
    # one correct token against four reference tokens: P = 1, BP = exp(1 - 4/1)
    assert bleu1("cat", "the cat sat on mat") == pytest.approx(math.exp(-3))
    # clipped counts: "cat" counts once; longer than the reference, so no penalty
    assert bleu1("cat cat cat dog", "cat sat") == pytest.approx(0.25)
    # P = 1/2, c = 2 < r = 3: BP = exp(1 - 3/2)
    assert bleu1("cat dog", "cat sat mat") == pytest.approx(0.5 * math.exp(-0.5))
    assert bleu1("", "cat") == 0.0


def test_answer_token_recall() -> None:
    context = "[2023-05-08] Ada: I adopted Pixel, a brown puppy, on 7 May 2023."
    assert answer_token_recall(context, "7 May, 2023") == 1.0
    assert answer_token_recall(context, "Pixel the dog") == 0.5
    assert answer_token_recall(context, "adopt") == 0.0  # no stemming
    assert answer_token_recall(context, "New York, New York") == 0.0
    assert answer_token_recall(context, "The") is None
    assert answer_token_recall(context, "-") is None


RANKED = ["D1:1", "D1:2", "D1:1", "D3:4", "D4:1"]


def test_evidence_recall_at_k() -> None:
    # top 3 distinct ids: D1:1, D1:2, D3:4
    assert evidence_recall_at_k(RANKED, {"D3:4", "D9:9"}, 3) == 0.5
    assert evidence_recall_at_k(RANKED, {"D3:4", "D9:9"}, 2) == 0.0
    assert evidence_recall_at_k(RANKED, {"D1:1", "D4:1"}, 10) == 1.0
    assert evidence_recall_at_k(RANKED, set(), 5) is None
    with pytest.raises(ValueError):
        evidence_recall_at_k(RANKED, {"D1:1"}, 0)


def test_coverage_at_k() -> None:
    assert coverage_at_k(RANKED, {"D1:1", "D3:4"}, 3) == 1.0
    assert coverage_at_k(RANKED, {"D1:1", "D3:4"}, 2) == 0.0
    assert coverage_at_k(RANKED, set(), 2) is None


def test_evidence_recall_in() -> None:
    assert evidence_recall_in({"D1:1", "D2:2"}, {"D1:1", "D3:3", "D4:4", "D5:5"}) == 0.25
    assert evidence_recall_in(set(), {"D1:1"}) == 0.0
    assert evidence_recall_in({"D1:1"}, set()) is None


def test_longmemeval_session_recall() -> None:
    ranked = ["s3", "s1", "s3", "s2", "s7"]
    answers = ["s1", "s2"]
    assert recall_any_at_k(ranked, answers, 1) == 0.0
    assert recall_any_at_k(ranked, answers, 2) == 1.0
    assert recall_all_at_k(ranked, answers, 2) == 0.0
    assert recall_all_at_k(ranked, answers, 3) == 1.0  # the repeated s3 takes no slot
    assert recall_any_at_k(ranked, [], 5) is None
    assert recall_all_at_k(ranked, [], 5) is None


def test_mean_defined() -> None:
    assert mean_defined([1.0, None, 0.0]) == (0.5, 1)
    assert mean_defined([None, None]) == (None, 2)
    assert mean_defined([]) == (None, 0)


def test_percentiles() -> None:
    values = [float(v) for v in range(1, 101)]
    # numpy linear interpolation: 1 + q/100 * 99
    assert percentiles(values) == pytest.approx({"p50": 50.5, "p95": 95.05, "p99": 99.01})
    assert percentiles([3.0, 1.0, 2.0], (90, 99.9)).keys() == {"p90", "p99.9"}
    assert percentiles([7.0]) == {"p50": 7.0, "p95": 7.0, "p99": 7.0}
    with pytest.raises(ValueError):
        percentiles([])


def test_category_names() -> None:
    assert CATEGORY_NAMES == {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}


def test_judge_prompt_and_verdict() -> None:
    prompt = JUDGE_PROMPT.format(
        question="When did Ada adopt Pixel?", gold_answer="7 May 2023", generated_answer="May 7"
    )
    assert "Gold answer: 7 May 2023" in prompt
    assert "generous" in prompt and "same date or time period" in prompt
    # Mem0's wording, as the papers reproduce it (CAST Table 2), including the JSON request.
    assert 'in a json format with the key as "label"' in prompt
    assert "or it will break the evaluation script" in prompt
    verdict = JudgeVerdict.model_validate_json('{"reasoning": "Same date.", "label": "CORRECT"}')
    assert verdict.label == "CORRECT"
    assert JudgeVerdict.model_validate_json('{"label": " wrong"}') == JudgeVerdict(label="WRONG")
    with pytest.raises(ValidationError):
        JudgeVerdict.model_validate_json('{"label": "MAYBE"}')


def test_answer_prompt_abstention_matches_adversarial_check() -> None:
    prompt = ANSWER_PROMPT.format(memories="[2023-05-08 13:56] Ada: hi", question="Who?")
    assert prompt.endswith("Question: Who?\nAnswer:")
    abstention = "Not mentioned in the conversation."
    assert abstention in prompt
    assert locomo_f1(abstention, None, 5) == 1.0
