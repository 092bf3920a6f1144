"""Short captions for the Neo4j Browser: a few words saying what a node is. Designs whose
display text starts with a date (``(2024-03-02 18:10) Maya: ...``, ``On 2 March 2024,
...``) store one of these beside it (``caption``), since a Browser caption can only name
properties and shows the first dozen characters of a node."""

from __future__ import annotations

import re

CAPTION_WORDS = 12
# "(2024-03-02 18:10) ", "(1:56 pm on 8 May, 2023) ", "On 2 March 2024, ",
# "On 8 May 2023 to 25 May 2023, ": a parenthesis first, or "On" with a number before a comma.
_LEADING_DATE = re.compile(r"^\s*(?:\([^)]*\)\s*|On [^,]*\d[^,]*,\s*)")


def short_caption(text: str, words: int = CAPTION_WORDS) -> str:
    """``text`` without a leading date, cut to ``words`` words (``...`` marks the cut)."""
    kept = _LEADING_DATE.sub("", text, count=1).split()
    return " ".join(kept[:words]) + (" ..." if len(kept) > words else "")
