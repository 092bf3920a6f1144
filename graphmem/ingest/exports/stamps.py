"""Times as chat apps write them, turned into the naive wall-clock times graphmem stores.

An app writes either an instant (epoch seconds or milliseconds, as a number or a string;
ISO-8601 with a zone, ``Z`` included) or a local time (ISO without a zone; the locale dates
of a WhatsApp or CSV file). An instant is shown in the user's time zone: ``--timezone``
(``GRAPHMEM_IMPORT_TIMEZONE``), this machine's zone when unset, so "yesterday" in a message
means the day its writer lived. A local time is kept as written.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from graphmem.errors import ConfigError, InputError

ACCEPTED = (
    "epoch seconds or milliseconds (1709370902, 1709370902.5, 1709370902000), "
    "ISO-8601 with or without a zone (2024-03-02T09:15:02, 2024-03-02T09:15:02Z)"
)
_NUMBER = re.compile(r"[+-]?\d+(\.\d*)?")
# A message's numeric timestamp where ISO-8601 is also read: 9 digits and more (1973 on),
# so that a basic ISO date ("20240314") stays a date.
_EPOCH_TEXT = re.compile(r"[+-]?\d{9,}(\.\d*)?")
# Epochs past this are milliseconds: 1e11 seconds is the year 5138, 1e11 ms is 1973.
_MILLIS_FROM = 1e11
_LATEST = 253402300799.0  # 9999-12-31T23:59:59Z, the last second a datetime holds


def zone_named(name: str | None) -> tzinfo | None:
    """The zone ``name`` names (an IANA name such as ``Europe/Lisbon``, or ``UTC``); None
    for this machine's zone. ConfigError (exit 2) for a name the zone database lacks."""
    if not name:
        return None
    if name.upper() == "UTC":
        return UTC
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ConfigError(
            f"unknown time zone {name!r}",
            hint="an IANA name such as Europe/Lisbon, America/New_York or UTC",
        ) from None


def is_epoch(value: object) -> bool:
    """Whether a message's ``timestamp`` is written as an epoch: a number, or a string of
    nine digits and more (every other string is read as ISO-8601 or a dataset's stamp)."""
    if isinstance(value, bool):
        return False
    return isinstance(value, int | float) or (
        isinstance(value, str) and _EPOCH_TEXT.fullmatch(value.strip()) is not None
    )


@dataclass(frozen=True)
class Clock:
    """Turns an app's times into wall-clock times of ``zone`` (None: this machine's)."""

    zone: tzinfo | None = None

    def local(self, instant: datetime) -> datetime:
        """``instant`` (aware) as a naive time in the zone."""
        return instant.astimezone(self.zone).replace(tzinfo=None)

    def epoch(self, value: float | int | str) -> datetime:
        """Epoch seconds or milliseconds; ValueError when ``value`` is not one."""
        if isinstance(value, str):
            if not _NUMBER.fullmatch(value.strip()):
                raise ValueError(f"not an epoch time: {value!r}")
            value = float(value)
        if isinstance(value, bool) or not math.isfinite(value):
            raise ValueError(f"not an epoch time: {value!r}")
        seconds = value / 1000 if abs(value) >= _MILLIS_FROM else float(value)
        if not 0 <= seconds <= _LATEST:
            raise ValueError(f"epoch time out of range: {value!r}")
        return self.local(datetime.fromtimestamp(seconds, UTC))

    def iso(self, value: str) -> datetime:
        """ISO-8601; a zoned one is an instant, shown in the zone, a naive one is kept."""
        text = value.strip()
        parsed = datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith("Z") else text)
        return parsed if parsed.tzinfo is None else self.local(parsed)

    def any(self, value: object) -> datetime:
        """An epoch (number or numeric string) or an ISO-8601 string; ValueError naming
        the accepted forms otherwise."""
        try:
            if isinstance(value, int | float) and not isinstance(value, bool):
                return self.epoch(value)
            if isinstance(value, str):
                return self.epoch(value) if _NUMBER.fullmatch(value.strip()) else self.iso(value)
        except (ValueError, OverflowError, OSError):
            pass
        raise ValueError(f"unrecognised time {value!r}: expected {ACCEPTED}")


def read_epochs(
    records: Iterable[tuple[str, Any]], src: str | None, clock: Clock
) -> Iterator[tuple[str, Any]]:
    """Messages (``(record, message)``) whose ``timestamp`` is an epoch with it as the
    wall-clock time of ``clock``'s zone; the rest as they are. One rule for a file's
    messages (JSONL, a JSON list) and the API's (``add_messages``, HTTP, MCP)."""
    for record, raw in records:
        stamp = raw.get("timestamp") if isinstance(raw, dict) else None
        if is_epoch(stamp):
            try:
                raw = {**raw, "timestamp": clock.epoch(stamp)}  # type: ignore[arg-type]
            except (ValueError, OverflowError, OSError) as exc:
                raise InputError(str(exc), path=src, record=record, field="timestamp") from None
        yield record, raw
