"""Issue 15 item 7: querying a space that lacks what the strategy reads says what is
missing and how to build it."""

from __future__ import annotations

import pytest

from graphmem.errors import InputError
from graphmem.graph.readiness import required_builders
from graphmem.graph.schema import pin_space_embedder
from graphmem.ingest.models import Dataset
from graphmem.memory import Memory
from tests.integration.helpers import tiny_conversation

pytestmark = pytest.mark.integration


@pytest.mark.parametrize("strategy", ["seem", "hipporag", "anchormem", "dense"])
def test_empty_space_says_ingest_first(memory: Memory, space: str, strategy: str) -> None:
    # A space that exists and holds nothing (a first ingest stopped before its first
    # session); one that does not exist at all is an UnknownSpaceError (test_first_day_output).
    pin_space_embedder(memory.store, space, memory.embedder)
    with pytest.raises(InputError, match="holds no memories") as caught:
        memory.query("Who moved to Toronto?", space, strategy, 200)
    assert "graphmem ingest" in str(caught.value)


@pytest.mark.parametrize("strategy", ["seem", "hipporag"])
def test_core_only_space_names_the_missing_layer(memory: Memory, space: str, strategy: str) -> None:
    if not required_builders(strategy):
        pytest.skip("the design registry does not know this strategy yet")
    conv = tiny_conversation(sessions=1)
    memory.ingest_dataset(Dataset(conversations=[conv], qa={}), space, builders=[])
    with pytest.raises(InputError, match="layer") as caught:
        memory.query("Who moved to Toronto?", space, strategy, 200)
    assert "--builders" in str(caught.value)
