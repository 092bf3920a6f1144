"""The options of ``graphmem ingest`` that say how a chat app's export is read
(docs/import.md); they become one ``ImportOptions``, as ``Memory.ingest`` takes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, get_args

import click

from graphmem.config import Settings
from graphmem.ingest.exports import ImportOptions
from graphmem.ingest.exports.base import CSV_FIELDS, DateOrder
from graphmem.ingest.formats import FORMATS

F = TypeVar("F", bound=Callable[..., Any])


def _columns(ctx: click.Context, param: click.Parameter, value: str | None) -> dict[str, str]:
    """``speaker=From,text=Body`` as {field: column}; a field graphmem lacks is refused."""
    if not value:
        return {}
    found: dict[str, str] = {}
    for part in value.split(","):
        field, sep, column = part.partition("=")
        field, column = field.strip(), column.strip()
        if not sep or not column or field not in CSV_FIELDS:
            raise click.BadParameter(
                f"{part.strip()!r}: expected FIELD=COLUMN with FIELD one of {', '.join(CSV_FIELDS)}"
            )
        found[field] = column
    return found


def format_option(help_text: str) -> Callable[[F], F]:
    """``--format``: every input format graphmem reads, ``auto`` by default."""
    return click.option(
        "--format",
        "fmt",
        default="auto",
        show_default=True,
        type=click.Choice(FORMATS),
        help=help_text,
    )


def import_options(command: F) -> F:
    """The export options, outermost last so ``--help`` lists them in this order."""
    for option in reversed(
        (
            click.option(
                "--timezone",
                help="Time zone of the export's instants (epoch times, ISO with a zone), e.g. "
                "Europe/Lisbon; default: this machine's (GRAPHMEM_IMPORT_TIMEZONE).",
            ),
            click.option(
                "--session-gap",
                "session_gap",
                type=click.IntRange(min=1),
                help="Minutes of pause that start a new session where an export has none "
                "(default 240; GRAPHMEM_IMPORT_SESSION_GAP_MINUTES).",
            ),
            click.option(
                "--map",
                "columns",
                callback=_columns,
                help="CSV/TSV columns: speaker=From,text=Body,timestamp=Date (also "
                "conversation, session, id, caption); default: recognised from the header.",
            ),
            click.option(
                "--timestamp-format",
                help="CSV/TSV: the timestamp column's strptime format, e.g. '%d/%m/%Y %H:%M'.",
            ),
            click.option(
                "--date-order",
                type=click.Choice(get_args(DateOrder)),
                default="auto",
                show_default=True,
                help="WhatsApp and CSV dates such as 03/02/2024: day-month-year (dmy), "
                "month-day-year (mdy) or year first; auto decides from the whole file.",
            ),
        )
    ):
        command = option(command)
    return command


def options_of(
    settings: Settings,
    timezone: str | None,
    session_gap: int | None,
    columns: dict[str, str],
    timestamp_format: str | None,
    date_order: str,
) -> ImportOptions:
    """The ``ImportOptions`` of the command's options (those not given: the settings')."""
    return ImportOptions.of(
        settings,
        timezone=timezone,
        session_gap_minutes=session_gap,
        columns=columns or None,
        timestamp_format=timestamp_format,
        date_order=date_order,
    )
