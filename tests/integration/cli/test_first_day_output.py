"""Issue 57, a user's first day: output a person reads (``--explain`` in words, ``stats``
without its zeros, the ingest's wall time and build progress, plurals), and spaces that do
not exist (every command that reads or deletes one fails with exit 2, naming the closest
existing space, before it asks anything)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from click.testing import CliRunner

from graphmem.cli.main import cli
from graphmem.config import Settings
from graphmem.embed import Embedder
from graphmem.errors import UnknownSpaceError
from graphmem.graph.store import GraphStore
from graphmem.ingest.models import Dataset
from graphmem.memory import Memory
from graphmem.serving.render import render_query
from tests.integration.helpers import tiny_conversation
from tests.integration.sample_space import SAMPLE, sample_space

pytestmark = pytest.mark.integration
QUESTION = "Where is Maya moving, and what is the dog called?"
# What the old explain lines said that no reader understands.
JARGON = re.compile(r"rank \d+ score|score \d|cosine|PPR|BM25|\brrf\b|\(k \d|-FROM->| #\d| via ")


@pytest.fixture(scope="module")
def built(settings: Settings, store: GraphStore, embedder: Embedder) -> Iterator[str]:
    """The sample conversation, built offline by every builder."""
    with sample_space(settings, store, embedder, prefix="first-day") as space:
        yield space


def _typo(space: str) -> str:
    """The name with its last letter changed: a swap of two letters is no typo when both
    are the same (the random name of the test's space may end in "00")."""
    return space[:-1] + ("x" if space[-1] != "x" else "y")


def test_every_read_and_delete_of_a_space_that_does_not_exist_fails(
    memory: Memory, store: GraphStore, space: str
) -> None:
    memory.ingest_dataset(Dataset(conversations=[tiny_conversation(sessions=1)], qa={}), space)
    typo = _typo(space)
    said = f"no space {typo!r}; did you mean {space!r}?"
    for call in (
        lambda: memory.query("Who moved?", typo),
        lambda: memory.ask("Who moved?", typo, "dense"),
        lambda: memory.history(typo, "Ana"),
        lambda: memory.prepare(typo, "dense"),
        lambda: memory.forget(typo),
    ):
        with pytest.raises(UnknownSpaceError) as caught:
            call()
        assert str(caught.value) == said and caught.value.exit_code == 2
    assert memory.forget(typo, missing_ok=True) == 0  # a clean-up of what may not exist
    runner = CliRunner()
    for args in (
        ["query", "Who moved?"],
        ["ask", "Who moved?"],
        ["stats"],
        ["stats", "--json"],
        ["history", "--subject", "Ana"],
        ["profile", "--character", "Ana"],
        ["forget"],  # without --yes: refused before the question
    ):
        out = runner.invoke(cli, [*args, "--space", typo], input="y\n")
        assert out.exit_code == 2, (args, out.output)
        assert f"error: {said}" in out.output and "Traceback" not in out.output
        assert "Delete every memory" not in out.output
    assert store.read("core.space_built", space=space)[0]["sessions"] == 1  # untouched


def _explained(memory: Memory, space: str, strategy: str) -> dict[str, Any]:
    return memory.query(QUESTION, space, strategy, budget=400).as_dict(explain=True)


# The built-in strategies (a test elsewhere registers an example design of its own).
STRATEGIES = [
    *("dense", "fulltext", "hybrid", "hipporag"),
    *("amory", "anchormem", "cast", "premem", "seem", "graphmem"),
]


def test_explain_reads_as_words_for_every_strategy(memory: Memory, built: str) -> None:
    for strategy in STRATEGIES:
        data = _explained(memory, built, strategy)
        assert data["items"], strategy
        for item in data["items"]:
            found = item["explanation"]
            assert item["path"], (strategy, item)  # the path data is kept beside it
            assert not JARGON.search(found["text"]), (strategy, found["text"])
            first = found["steps"][0]["how"] if found["steps"] else ""
            # every step the strategies write is one the words know
            assert first not in found["text"], (strategy, found["text"])
        text = render_query(data, explain=True).split("\n# explain\n", 1)[1]
        lines = text.splitlines()
        assert len([ln for ln in lines if not ln.startswith("note: ")]) == len(data["items"])
        assert not JARGON.search(text), (strategy, text)


def test_explain_json_keeps_the_numbers(memory: Memory, built: str) -> None:
    dense = _explained(memory, built, "dense")["items"][0]["explanation"]
    assert dense["rank"] == 1 and dense["steps"][0]["rank"] == 1
    assert 0 < dense["steps"][0]["score"] <= 1
    fused = _explained(memory, built, "graphmem")
    turn = next(i["explanation"] for i in fused["items"] if "fusion" in i["explanation"])
    assert turn["fusion"]["k"] > 0 and turn["fusion"]["score"] > 0
    assert turn["fusion"]["found_by"] == len(turn["votes"]) <= turn["fusion"]["members"]
    weights = turn["fusion"]["weights"]
    assert weights and all(v["weight"] == weights[v["member"]] for v in turn["votes"])
    assert re.fullmatch(r"found by \d of \d searches \(best: .+\); fused rank \d+", turn["text"])


def test_explain_on_the_command_line(built: str) -> None:
    args = ["query", QUESTION, "--space", built, "--budget", "300", "--explain"]
    out = CliRunner().invoke(cli, args)
    assert out.exit_code == 0, out.output
    explained = out.output.split("\n# explain\n", 1)[1]
    assert "searches vote for the turns they find: " in explained
    assert re.search(
        r"^\S+: found by \d of \d searches \(best: .+\); fused rank 1$", explained, re.M
    )
    assert not JARGON.search(explained)
    data = json.loads(CliRunner().invoke(cli, [*args, "--json"]).output)
    assert all(item["explanation"]["text"] in explained for item in data["items"])


def test_stats_shows_what_is_not_zero(built: str) -> None:
    runner = CliRunner()
    shown = runner.invoke(cli, ["stats", "--space", built])
    assert shown.exit_code == 0, shown.output
    # An offline build made no LLM call: none of its zero LLM figures is printed.
    assert "llm_calls" not in shown.output and "Passage: 19" in shown.output
    assert re.search(r"^\(\d+ figures of 0 not shown; --all shows them\)$", shown.output, re.M)
    every = runner.invoke(cli, ["stats", "--space", built, "--all"])
    assert "llm_calls: 0" in every.output and "not shown" not in every.output
    data = json.loads(runner.invoke(cli, ["stats", "--space", built, "--json"]).output)
    assert data["build_cost"]["total"]["llm_calls"] == 0  # the JSON keeps every figure


def test_ingest_says_its_wall_time_and_shows_the_build(memory: Memory, space: str) -> None:
    told: list[tuple[str, int]] = []
    dataset = Dataset(conversations=[tiny_conversation(sessions=2)], qa={})
    done = memory.ingest_dataset(
        dataset, space, ["seem"], build_progress=lambda b, n: told.append((b, n))
    )
    assert told == [("semantic", 0), ("semantic", 2), ("seem", 0), ("seem", 2)]
    built = sum(b.seconds for b in done.builds)
    assert done.seconds >= done.report.seconds + built
    assert done.as_dict()["wall_seconds"] == round(done.seconds, 2)
    told.clear()
    memory.ingest_dataset(dataset, space, ["seem"], build_progress=lambda b, n: told.append((b, n)))
    assert told[-1] == ("seem", 2)  # stored already: the bar still reaches its end


def test_ingest_and_add_on_the_command_line(spaces: list[str]) -> None:
    space = "test-first-day-ingest"
    spaces.append(space)
    runner = CliRunner()
    out = runner.invoke(cli, ["ingest", str(SAMPLE), "--space", space, "--builders", "semantic"])
    assert out.exit_code == 0, out.output
    summary = re.search(
        r"^1 conversation: 3 sessions written, 0 already stored; 19 turns in ([\d.]+) s "
        r"\(passages ([\d.]+) s, builders ([\d.]+) s(?:, other ([\d.]+) s)?\)$",
        out.stdout,
        re.M,
    )
    assert summary, out.stdout
    wall, *parts = (float(p or 0) for p in summary.groups())
    assert wall == pytest.approx(sum(parts), abs=0.15)
    assert re.search(r"build: 100%\|\S+\| 3/3 ", out.stderr)  # the build has its own bar
    added = runner.invoke(
        cli, ["add", "hi", "--space", space, "--speaker", "Ana", "--builders", "none"]
    )
    assert added.exit_code == 0, added.output
    assert re.search(r"\(1 turn; [\d.]+ s\)$", added.stdout.strip()), added.stdout
