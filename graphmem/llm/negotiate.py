"""Which structured-output mode a server accepts, learnt from its answers.

Until a request succeeds, requests negotiate one at a time: each tries the current mode and
a rejection of the request (HTTP 4xx, or a 500 carrying a validation message) steps down to
the next weaker mode. The first success settles the mode for the client's lifetime; later
rejections are then about the request itself (too long, say), not about the format.
"""

from __future__ import annotations

import threading

from graphmem.llm.types import FORMAT_MODES, FormatMode


class FormatNegotiator:
    def __init__(self, configured: str = "auto") -> None:
        self.lock = threading.Lock()
        if configured == "auto":
            self._index = 0
            self.settled = False
        else:
            self._index = FORMAT_MODES.index(configured)
            self.settled = True

    @property
    def mode(self) -> FormatMode:
        return FORMAT_MODES[self._index]

    def step_down(self) -> FormatMode | None:
        """The next weaker mode (now current), or None when every mode was rejected; then
        the request, not the format, is the problem, so negotiation starts over next time."""
        if self._index + 1 < len(FORMAT_MODES):
            self._index += 1
            return self.mode
        self._index = 0
        return None

    def settle(self) -> None:
        self.settled = True
