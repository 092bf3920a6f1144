"""``graphmem eval dates``: the labels' loader, the scoring rule, the adapter of today's
resolver and the command (which never shows a frozen line)."""

from __future__ import annotations

import json
import sys
import types
from datetime import date, datetime
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from graphmem.cli.main import cli
from graphmem.errors import InputError
from graphmem.eval import dates
from graphmem.eval.dates import DateLabel, Resolved, from_mention, judge, score, summarise
from graphmem.nlp.temporal import TemporalMention

SAID = "2024-02-03T10:12"  # a Saturday


def _line(**over: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "id": "written-1",
        "source": "written",
        "conversation": "porto",
        "part": "dev",
        "said_at": SAID,
        "speaker": "Marta",
        "text": "We move to Porto on August 1.",
        "expression": "August 1",
        "kind": "month_day",
        "tense": "future",
        "meant": {"start": "2024-08-01", "end": "2024-08-01"},
    }
    return {**base, **over}


def _label(**over: Any) -> DateLabel:
    return DateLabel.model_validate(_line(**over))


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# --- loading ---------------------------------------------------------------------------


def test_the_loader_names_the_file_and_line_of_a_bad_line(tmp_path: Path) -> None:
    bad = {k: v for k, v in _line().items() if k != "kind"}
    path = _write(tmp_path / "labels.jsonl", [json.dumps(_line()), "", json.dumps(bad)])
    with pytest.raises(InputError) as caught:
        dates.load_labels(path)
    assert "line 3" in caught.value.message and str(path) in caught.value.message
    assert "kind" in caught.value.message


@pytest.mark.parametrize(
    "over",
    [
        {"kind": "none"},  # a none label with a date
        {"expression": "August 2"},  # not in the text
        {"kind": "duration", "meant": None},  # a duration without its length
        {"meant": {"start": "2024-08-02", "end": "2024-08-01"}},
    ],
)
def test_the_loader_refuses_an_inconsistent_line(tmp_path: Path, over: dict[str, Any]) -> None:
    path = _write(tmp_path / "l.jsonl", ["{not json", json.dumps(_line(**over))])
    with pytest.raises(InputError, match="line 1"):
        dates.load_labels(path)
    _write(path, [json.dumps(_line()), json.dumps(_line(**over))])
    with pytest.raises(InputError, match="line 2"):
        dates.load_labels(path)


def test_the_loader_keeps_the_part_asked_for(tmp_path: Path) -> None:
    path = _write(
        tmp_path / "l.jsonl",
        [json.dumps(_line(id="a")), json.dumps(_line(id="b", part="frozen"))],
    )
    assert [x.id for x in dates.load_labels(path, "dev")] == ["a"]
    assert [x.id for x in dates.load_labels(path, "frozen")] == ["b"]
    assert [x.id for x in dates.load_labels(path)] == ["a", "b"]


def test_a_missing_labels_file_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="source checkout"):
        dates.load_labels(tmp_path / "absent.jsonl")


# --- scoring ---------------------------------------------------------------------------

_AUG1 = date(2024, 8, 1)
_TEXT = "We move to Porto on August 1."  # "August 1" at 20..28


def _on(first: date | None, last: date | None, start: int = 20, end: int = 28) -> Resolved:
    return Resolved(start, end, first, last)


def test_an_exact_interval_is_correct_and_recalled() -> None:
    got = judge(_label(), [_on(_AUG1, _AUG1)])
    assert (len(got.judged), got.correct, got.recalled, got.wrong) == (1, 1, True, False)


def test_a_wrong_interval_is_a_false_positive_and_a_miss() -> None:
    got = judge(_label(), [_on(date(2023, 8, 1), date(2023, 8, 1))])
    assert (len(got.judged), got.correct, got.recalled, got.wrong) == (1, 0, False, True)
    # an open bound equals only None
    open_end = judge(_label(), [_on(_AUG1, None)])
    assert (open_end.correct, open_end.recalled) == (0, False)


def test_nothing_found_is_a_miss_and_judges_nothing() -> None:
    got = judge(_label(), [])
    assert (len(got.judged), got.recalled, got.wrong) == (0, False, True)


def test_a_date_on_a_none_label_is_a_false_positive_with_no_recall() -> None:
    none = _label(kind="none", meant=None)
    got = judge(none, [_on(_AUG1, _AUG1)])
    assert (len(got.judged), got.correct, got.recalled, got.wrong) == (1, 0, None, True)
    assert judge(none, []).wrong is False


def test_only_mentions_overlapping_the_expression_are_judged() -> None:
    elsewhere = Resolved(0, 7, date(2020, 1, 1), date(2020, 1, 1))  # "We move"
    touching = Resolved(16, 20, date(2020, 1, 1), date(2020, 1, 1))  # ends where it starts
    partly = Resolved(25, 29, _AUG1, _AUG1)  # "t 1." overlaps "August 1"
    got = judge(_label(), [elsewhere, touching, partly])
    assert got.judged == (partly,)
    assert got.correct == 1


def test_a_length_counts_on_the_durations_row_only() -> None:
    text = "We stay for two weeks."
    label = _label(
        text=text, expression="for two weeks", kind="duration", meant=None, duration_days=14
    )
    lengths = [Resolved(8, 21, None, None, 14.0)]
    part = summarise(score([label], lambda _t, _s: lengths), "dev")
    duration = next(r for r in part.rows if r.kind == "duration")
    assert (duration.judged, duration.correct) == (0, 0)  # a length claims no date
    assert (part.durations.judged, part.durations.correct, part.durations.recall) == (1, 1, 1.0)
    wrong = summarise(score([label], lambda _t, _s: [Resolved(8, 21, None, None, 7)]), "dev")
    assert (wrong.durations.correct, wrong.durations.recall) == (0, 0.0)


def test_the_rows_add_up_by_kind_and_part() -> None:
    labels = [
        _label(id="a"),
        _label(id="b", part="frozen"),
        _label(id="c", kind="none", meant=None),
    ]
    found = {"a": [_on(_AUG1, _AUG1)], "b": [_on(_AUG1, _AUG1), _on(_AUG1, None)]}
    by_id = {x.id: x for x in labels}
    outcomes = [judge(by_id[i], found.get(i, [_on(_AUG1, _AUG1)])) for i in ("a", "b", "c")]
    rows = {r.kind: r for r in summarise(outcomes, "dev").rows}
    assert (rows["all"].labels, rows["all"].judged, rows["all"].correct) == (2, 2, 1)
    assert (rows["all"].precision, rows["all"].recall) == (0.5, 1.0)
    assert (rows["none"].precision, rows["none"].recall) == (0.0, None)
    assert rows["weekday"].precision is None  # nothing judged
    both = {r.kind: r for r in summarise(outcomes, "all").rows}
    assert (both["month_day"].labels, both["month_day"].judged) == (2, 3)
    assert both["month_day"].precision == pytest.approx(2 / 3)


def test_the_resolver_runs_once_per_turn() -> None:
    calls: list[str] = []

    def counting(text: str, said_at: datetime) -> list[Resolved]:
        calls.append(text)
        return []

    score([_label(id="a"), _label(id="b", expression="Porto")], counting)
    assert calls == [_TEXT]


def test_errors_list_dev_lines_only() -> None:
    labels = [_label(id="f", part="frozen"), _label(id="d")]
    outcomes = score(labels, lambda _t, _s: [])
    assert [e.id for e in dates.dev_errors(outcomes, 10)] == ["d"]
    assert dates.dev_errors(outcomes, 0) == []


# --- the adapter and the registry ------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "granularity", "form", "first", "last"),
    [
        ("2024-02-07", "day", "absolute", date(2024, 2, 7), date(2024, 2, 7)),
        ("2024-02-05", "week", "absolute", date(2024, 2, 5), date(2024, 2, 11)),
        ("2024-02", "month", "absolute", date(2024, 2, 1), date(2024, 2, 29)),
        ("2023-12", "month", "absolute", date(2023, 12, 1), date(2023, 12, 31)),
        ("2021", "year", "absolute", date(2021, 1, 1), date(2021, 12, 31)),
        ("2024-02", "month", "before", None, date(2024, 2, 29)),
        ("2024-02-05", "week", "after", date(2024, 2, 5), None),
    ],
)
def test_the_adapter_maps_a_mention_to_its_days(
    value: str, granularity: Any, form: Any, first: date | None, last: date | None
) -> None:
    mention = TemporalMention("x", 3, 9, value, granularity, form, False)
    assert from_mention(mention) == Resolved(3, 9, first, last, None)


def test_the_current_resolver_runs_today_s_normaliser() -> None:
    got = dates.resolver("current")("I went there yesterday.", datetime(2023, 5, 8, 13, 56))
    assert got == [Resolved(13, 22, date(2023, 5, 7), date(2023, 5, 7))]


def test_a_registered_module_function_is_imported_when_chosen(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    found = types.SimpleNamespace(start=1, end=4, first="2024-01-02", last=None, duration_days=3)
    module = types.ModuleType("fake_grounding")
    module.ground = lambda text, said_at: [found]  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "fake_grounding", module)
    monkeypatch.setitem(dates.RESOLVERS, "fake", dates.imported("fake_grounding", "ground"))
    got = dates.resolver("fake")("text", datetime(2024, 1, 1))
    assert got == [Resolved(1, 4, date(2024, 1, 2), None, 3.0)]
    with pytest.raises(InputError, match="no date resolver"):
        dates.resolver("absent")


# --- the command -----------------------------------------------------------------------


def _run(*args: str) -> Any:
    return CliRunner().invoke(cli, ["eval", "dates", *args], catch_exceptions=False)


def test_the_command_scores_both_parts_of_the_fixture() -> None:
    dev = len(dates.load_labels(dates.DEFAULT_LABELS, "dev"))
    total = len(dates.load_labels(dates.DEFAULT_LABELS))
    result = _run()
    assert result.exit_code == 0, result.output
    for heading in ("dev:", "frozen:", "all:"):
        assert heading in result.output.splitlines()
    alls = [line for line in result.output.splitlines() if line.startswith("| all |")]
    assert [int(line.split("|")[2]) for line in alls] == [dev, total - dev, total]
    data = json.loads(_run("--json").output)
    assert [p["part"] for p in data["parts"]] == ["dev", "frozen", "all"]
    assert data["parts"][0]["rows"][-1]["labels"] == dev
    assert "errors" not in data


def test_errors_never_show_a_frozen_line() -> None:
    dev_ids = {x.id for x in dates.load_labels(dates.DEFAULT_LABELS, "dev")}
    text = _run("--errors", "1000").output
    assert "(dev lines only)" in text
    shown = [line.split()[1] for line in text.splitlines() if line.startswith("- ")]
    assert shown and set(shown) <= dev_ids
    listed = json.loads(_run("--errors", "1000", "--json").output)["errors"]
    assert listed and {e["id"] for e in listed} <= dev_ids
    assert len(json.loads(_run("--errors", "2", "--json").output)["errors"]) == 2
    refused = _run("--part", "frozen", "--errors", "5")
    assert refused.exit_code == 2 and "dev lines only" in refused.output


def test_the_command_says_what_is_wrong_with_its_options(tmp_path: Path) -> None:
    missing = _run("--labels", str(tmp_path / "absent.jsonl"))
    assert missing.exit_code == 3 and "source checkout" in missing.output
    unknown = _run("--resolver", "nope")
    assert unknown.exit_code == 2 and "current" in unknown.output
    only_dev = _run("--part", "dev")
    assert "dev:" in only_dev.output and "frozen:" not in only_dev.output
