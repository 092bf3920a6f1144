"""The split of hand labels by conversation into a part whoever writes rules may read
(``dev``) and one they never read (``frozen``), measured on both: the rule the date labels
(tests/fixtures/dates/GUIDE.md, "The split") and the precision labels share."""

from __future__ import annotations

import hashlib
from typing import Literal

Part = Literal["dev", "frozen"]
PARTS: tuple[Part, ...] = ("dev", "frozen")


def part_of(conversation: str) -> Part:
    """``frozen`` for a conversation whose sha256 is odd, else ``dev``."""
    odd = int(hashlib.sha256(conversation.encode()).hexdigest(), 16) % 2 == 1
    return "frozen" if odd else "dev"
