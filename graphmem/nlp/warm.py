"""Process-wide NLP warm-up for a long-lived server (``Memory.prepare``, ``graphmem mcp
--prepare``): the one-off costs a query's first analysis otherwise pays.

Profiled in-process on the shared 2-core machine: loading the spaCy pipeline cost the first
question up to 1.8 s (docs/mcp.md has the numbers over MCP stdio,
``scripts/mcp_first_query.py``); the date rules compile their patterns on first use."""

from __future__ import annotations

from datetime import datetime

from graphmem.nlp.spacy_loader import get_nlp
from graphmem.nlp.temporal import normalise_temporal
from graphmem.nlp.text import analyse

# Past and future relative phrases, a weekday and a period: each family of the date rules.
_WARM_TEXT = "Last weekend Ana said she moved to Lisbon two weeks ago; next month she flies."
_WARM_REFERENCE = datetime(2000, 1, 1, 12, 0)


def warm_nlp() -> None:
    """Load the default spaCy pipeline and run one parse and one date resolution."""
    get_nlp()
    analyse(_WARM_TEXT)
    normalise_temporal(_WARM_TEXT, _WARM_REFERENCE)
