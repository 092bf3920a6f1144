"""``graphmem ingest``'s progress: one bar for the turns written, one for the build (each
builder over each session), so the bar does not sit at 100% while the designs build."""

from __future__ import annotations

from pathlib import Path
from types import TracebackType

from tqdm import tqdm

from graphmem.ingest.exports.bundle import input_size
from graphmem.ingest.models import Dataset
from graphmem.plugin.registry import build_order

# Below this a file reads in a blink: no bar (a bar that flashes is noise).
_READ_BAR_FROM = 8 << 20


class IngestProgress:
    """The two bars of an ingest of ``dataset`` with ``builders`` (and what they require);
    ``turns`` and ``built`` are the callbacks ``Memory.ingest_dataset`` takes."""

    def __init__(self, dataset: Dataset, builders: list[str], hidden: bool) -> None:
        sessions = sum(len(c.sessions) for c in dataset.conversations)
        steps = len(build_order(builders)) * sessions
        self._turns = tqdm(
            total=dataset.turn_count(), unit="turn", desc="turns", disable=hidden, position=0
        )
        # A builder is told about a conversation's sessions all at once, so the build bar
        # moves one builder and conversation at a time; its label names the one running.
        self._build = tqdm(
            total=steps, unit="session", desc="build", disable=hidden or not steps, position=1
        )

    def turns(self, written: int) -> None:
        self._turns.update(written)

    def built(self, builder: str, sessions: int) -> None:
        if sessions:
            self._build.update(sessions)
        else:
            self._build.set_description(f"build: {builder}")

    def __enter__(self) -> IngestProgress:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._build.set_description("build")
        self._build.close()
        self._turns.close()


class ReadProgress:
    """The bar of reading a large input (``read``: the callback ``load`` takes); bytes of a
    zip are its unpacked ones."""

    def __init__(self, path: Path, hidden: bool) -> None:
        size = None if str(path) == "-" else input_size(path)
        self._bar = tqdm(
            total=size,
            unit="B",
            unit_scale=True,
            desc="read",
            disable=hidden or size is None or size < _READ_BAR_FROM,
        )

    def read(self, count: int) -> None:
        self._bar.update(count)

    def __enter__(self) -> ReadProgress:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._bar.close()
