"""Issue 57: the defaults of graphmem/serving/limits.py against the real database. A write builds
every design unless told otherwise (``builders=["all"]`` too); an evaluation of
``graphmem`` builds every layer ``graphmem`` reads, so its numbers are its own and not its
fallback's; a strategy whose layers a space lacks is refused, never silently replaced."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest

from graphmem.errors import EvaluationIncomplete, InputError
from graphmem.eval import harness
from graphmem.eval.longmemeval import run_longmemeval
from graphmem.graph.readiness import builders_read, check_ready
from graphmem.memory import Memory
from graphmem.plugin.registry import build_order, builder_names
from graphmem.retrieval.registry import build_retriever
from graphmem.strategy.retriever import GraphmemRetriever

pytestmark = pytest.mark.integration

FIXTURES = Path(__file__).parent.parent / "fixtures"


def _every() -> list[str]:
    """Every builder, read when asked (a test may have registered a design meanwhile)."""
    return build_order(builder_names())


MESSAGES = [
    {"speaker": "Ana", "text": "I adopted a rescue dog called Biscuit."},
    {"speaker": "Ben", "text": "What breed is he?"},
]


def _built(memory: Memory, space: str) -> list[str]:
    return sorted(memory.store.read("core.space_built", space=space)[0]["builders"])


@pytest.fixture
def haystack(tmp_path: Path) -> Path:
    """One LongMemEval item (two sessions, four turns)."""
    data = json.loads((FIXTURES / "longmemeval_tiny.json").read_text(encoding="utf-8"))
    path = tmp_path / "one.json"
    path.write_text(json.dumps(data[:1]), encoding="utf-8")
    return path


def test_a_write_builds_every_design_by_default_and_all_is_accepted(
    memory: Memory, spaces: list[str]
) -> None:
    default, listed, none = (f"test-{uuid.uuid4().hex[:10]}" for _ in range(3))
    spaces.extend([default, listed, none])
    memory.add_messages(default, "c", "s1", MESSAGES)
    assert _built(memory, default) == sorted(_every())
    done = memory.add_messages(listed, "c", "s1", MESSAGES, builders=["all"])
    assert [b.builder for b in done.builds] == _every()
    assert _built(memory, listed) == sorted(_every())
    assert memory.add_messages(none, "c", "s1", MESSAGES, builders="none").builds == []
    assert _built(memory, none) == []


def test_graphmem_on_a_space_without_designs_says_it_answered_with_its_fallback(
    memory: Memory, space: str
) -> None:
    """An ad-hoc query keeps the documented fallback, and its notes say so."""
    memory.add_messages(space, "c", "s1", MESSAGES, builders=[])
    found = memory.query("What is the dog called?", space, "graphmem", 300)
    assert found.result.strategy == "graphmem"
    (said,) = [n for n in found.result.notes if n.startswith("no design is built")]
    assert "answered by the fallback hybrid alone" in said and "--builders all" in said
    # ... but the space is not complete for it: an evaluation refuses it
    with pytest.raises(InputError, match="strategy 'graphmem' needs the semantic, ") as caught:
        check_ready(memory.store, space, "graphmem", complete=True, configs=memory.configs)
    assert caught.value.field == "strategy" and "--builders semantic," in str(caught.value)
    # a design's strategy is refused either way
    with pytest.raises(InputError, match="strategy 'seem' needs the semantic, seem layer"):
        memory.query("What is the dog called?", space, "seem", 300)


def test_an_eval_of_graphmem_builds_every_design_it_reads(
    memory: Memory, haystack: Path, spaces: list[str]
) -> None:
    prefix = f"test-{uuid.uuid4().hex[:10]}"
    space = f"{prefix}-q-001"
    spaces.append(space)
    assert builders_read(["graphmem"], memory.configs) == _every()
    (result,) = run_longmemeval(
        memory, haystack, ["graphmem"], [300], space_prefix=prefix, progress=False
    )
    assert result["strategy"] == "graphmem" and result["meta"]["failed"] == []
    assert _built(memory, space) == sorted(_every())
    # what it was evaluated with: every design fused, no fallback, nothing missing
    retriever = build_retriever("graphmem", memory.retrieval_context(space), valid_time=False)
    assert isinstance(retriever, GraphmemRetriever)
    plan = retriever.plan()
    assert not plan.fallback and not plan.missing and "hybrid" not in plan.members
    assert {"seem", "anchormem", "premem", "amory"} <= set(plan.members)


def test_an_eval_refuses_a_strategy_whose_layers_are_missing(
    memory: Memory, haystack: Path, spaces: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Were its layers not built (here: the harness told to build none), the haystack
    fails with the readiness error and no number is reported under graphmem's name."""
    prefix = f"test-{uuid.uuid4().hex[:10]}"
    spaces.append(f"{prefix}-q-001")
    monkeypatch.setattr(harness, "builders_read", lambda strategies, configs=None: [])
    with pytest.raises(EvaluationIncomplete) as caught:
        run_longmemeval(memory, haystack, ["graphmem"], [300], space_prefix=prefix, progress=False)
    (failed,) = caught.value.results[0]["meta"]["failed"]
    assert failed["conversation"] == "q-001"
    assert "InputError" in failed["error"] and "strategy 'graphmem' needs the" in failed["error"]
    assert caught.value.results[0]["meta"]["n_conversations"] == 0
