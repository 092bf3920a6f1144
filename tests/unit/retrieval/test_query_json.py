"""What ``graphmem query --json`` (and the MCP tools) return for a packed context."""

from __future__ import annotations

from graphmem.memory import QueryResult
from graphmem.plugin.retriever import Hit, PassageRef, RetrievalResult
from graphmem.retrieval.packer import pack


def turn(session: int, index: int) -> PassageRef:
    return PassageRef(
        id=f"p{session}-{index}",
        source_id=f"D{session}:{index}",
        speaker="Ana",
        text=f"turn {index} of session {session}",
        session_index=session,
        turn_index=index,
    )


def test_every_item_names_its_turns_and_citations_follow_the_conversation() -> None:
    late, early, unshown = turn(10, 1), turn(1, 3), turn(2, 5)
    hits = [
        Hit(node_id="a", label="Passage", score=1.0, strategy="s", passages=[late]),
        Hit(node_id="b", label="Passage", score=0.9, strategy="s", passages=[early]),
        Hit(
            node_id="f",
            label="Fragment",
            score=0.8,
            strategy="s",
            text="Ana adopted a dog",
            passages=[unshown],
            cite_only=True,
        ),
    ]
    result = RetrievalResult(query="q", strategy="s", hits=hits)
    data = QueryResult(
        result=result, context=pack(hits, 1000, lambda text: len(text.split()))
    ).as_dict()
    # Sorted as text D10:1 would come before D1:3; conversation order puts it last.
    assert data["citations"] == ["D1:3", "D2:5", "D10:1"]
    assert [(i["kind"], i["source_id"], i["turns"]) for i in data["items"]] == [
        ("passage", "D10:1", ["D10:1"]),
        ("passage", "D1:3", ["D1:3"]),
        ("Fragment", None, ["D2:5"]),  # a memory: the turn it stands for, not shown
    ]


def test_the_rendered_context_costs_what_was_charged_and_fits_the_budget() -> None:
    """Headings, bullets and session dates are charged too: the text a host hands its model
    (the MCP query tool's text content) is within the budget, to the token."""

    def words(text: str) -> int:
        return len(text.split())

    hits = [
        Hit(
            node_id=f"m{i}",
            label="Fact",
            score=1.0 - i / 100,
            strategy="s",
            text=f"fact number {i} about Ana",
            passages=[turn(i % 3, i)],
        )
        for i in range(12)
    ]
    for budget in range(5, 120, 7):
        context = pack(hits, budget, words)
        assert words(context.render()) == context.tokens <= budget
        assert sum(item.tokens for item in context.items) == context.tokens
