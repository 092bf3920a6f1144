"""One set of defaults and limits for every way in: the CLI, ``Memory`` (Python), the HTTP
API, the MCP tools and the LangChain / LlamaIndex adapters. Each surface reads its defaults,
bounds, help texts and schema bounds from here and refuses a bad value with the check here,
so the same value is refused with the same words everywhere.

- builders: ``all`` by default on every write (``graphmem ingest``, ``graphmem add``,
  ``Memory.ingest`` / ``ingest_dataset`` / ``add_messages``, ``POST /v1/messages``, the MCP
  ``ingest_messages`` tool, the adapters' writes); ``none`` (or ``[]``) stores the turns only.
- the context budget of a query: DEFAULT_BUDGET tokens, from MIN_BUDGET to MAX_BUDGET (an
  evaluation's budgets too: it measures what a query can be asked for).
- a question: at most MAX_QUESTION_CHARS characters, not blank.
- a strategy: one the registry knows (``graphmem designs``).

An unknown strategy or builder, a budget out of range and a bad question are the caller's
mistake: an ``InputError`` naming the field on every surface (HTTP 400 ``input``, an MCP tool
error with the same message; the CLI reports it as a bad option value, exit code 2, like
every other option value it refuses).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date, datetime
from typing import Annotated, Any

from pydantic import BeforeValidator, StrictBool, StrictInt, StrictStr

from graphmem.errors import InputError, shown
from graphmem.ingest.exports.stamps import is_epoch
from graphmem.ingest.validate import (
    MAX_ID_CHARS,
    STAMP_HINT,
    check_text,
    control_at,
    encodable,
    parse_timestamp,
    type_name,
)
from graphmem.plugin.registry import build_order, builder_names
from graphmem.plugin.registry import strategy_names as _registered

DEFAULT_BUDGET = 1000
# The smallest context that holds a cited turn with its date line; the largest bounds what
# a retriever fetches per query (a list of k_for_budget(budget) items) for any caller.
MIN_BUDGET = 50
MAX_BUDGET = 32_000
MAX_QUESTION_CHARS = 20_000
# What ``query`` and ``ask`` use without a strategy: the cross-design strategy (the one the
# registry's entries declare, ``plugin.registry.default_strategy``), which answers a space
# without designs with its fallback, hybrid, and says so in the result's notes.
DEFAULT_STRATEGY = "graphmem"
ALL_BUILDERS = "all"
NO_BUILDERS = "none"
DEFAULT_BUILDERS = ALL_BUILDERS

# A builders argument: "all", "none", a comma string ("semantic,seem") or a list of names
# (which may be ["all"] or []); None is the default.
BuilderChoice = str | Sequence[str] | None

BUDGET_RANGE = f"{MIN_BUDGET} to {MAX_BUDGET:,}"
BUDGET_HELP = f"Context budget in tokens, {BUDGET_RANGE}."
BUILDERS_HELP = (
    "Memory builders to run: 'all' (the default), 'none' (store the turns only, fastest) "
    "or a comma list of names (see `graphmem designs`)."
)
# The same rule as a JSON field (HTTP, MCP), which also takes a list.
BUILDERS_FIELD_HELP = (
    "Memory builders to run: 'all' (the default), 'none' or [] (store the turns only), a "
    "list of names or a comma string of them."
)
QUESTION_HELP = (
    f"What to retrieve memories for: at most {MAX_QUESTION_CHARS:,} characters, no control "
    "character but tab and newline."
)
SUBJECT_HELP = (
    f"Whose changes (the user, a person) or a thing they are about: at most {MAX_ID_CHARS} "
    "characters, no control character."
)
# A question may span lines (a pasted paragraph); any other control character (NUL, an ANSI
# escape) is refused: it reaches logs and terminals, and no question needs one.
_QUESTION_CONTROLS_ALLOWED = "\t\n\r"


def _no_controls(value: str, field: str, allowed: str = "") -> None:
    """The ingest rule for labels (graphmem.ingest.validate), less the ``allowed`` ones."""
    at = control_at(value.translate({ord(c): " " for c in allowed}))  # same positions
    if at >= 0:
        code = f"U+{ord(value[at]):04X}"
        raise InputError(f"holds the control character {code} at position {at}", field=field)


def check_budget(budget: object) -> int:
    """A context budget: a whole number of tokens from MIN_BUDGET to MAX_BUDGET."""
    if not isinstance(budget, int) or isinstance(budget, bool):
        raise InputError(f"expected an integer, got {type_name(budget)}", field="budget")
    if not MIN_BUDGET <= budget <= MAX_BUDGET:
        raise InputError(
            f"must be from {BUDGET_RANGE} tokens, got {budget:,}",
            field="budget",
        )
    return budget


def check_question(question: object) -> str:
    """A question: non-empty text of at most MAX_QUESTION_CHARS characters (an empty one
    would be answered with an arbitrary context); tabs and line breaks allowed."""
    return _text(question, "question", MAX_QUESTION_CHARS, _QUESTION_CONTROLS_ALLOWED)


def check_subject(subject: object) -> str:
    """A history subject: a label (a name or a thing), non-blank, at most MAX_ID_CHARS
    characters, no control character."""
    return _text(subject, "subject", MAX_ID_CHARS)


def _text(value: object, field: str, limit: int, allowed: str = "") -> str:
    """``value`` as a non-blank string of at most ``limit`` encodable characters, without
    control characters but ``allowed``; an InputError naming ``field`` otherwise."""
    value = check_text(value, field, limit)
    if not encodable(value):
        raise InputError("holds unencodable characters", field=field)
    _no_controls(value, field, allowed)
    return value


def strategy_names() -> list[str]:
    """The strategies a query accepts, as the registry lists them."""
    return _registered()


def check_strategy(strategy: object) -> str:
    """A strategy the registry knows."""
    known = strategy_names()
    if not isinstance(strategy, str) or strategy not in known:
        raise InputError(
            f"unknown strategy {shown(strategy)}",
            field="strategy",
            hint=f"choose one of {', '.join(known)}",
        )
    return strategy


def parse_strategies(values: Iterable[str]) -> list[str]:
    """Strategies to evaluate: names, comma lists and ``all`` (every registered one), each
    once, in the order given."""
    known = strategy_names()
    names: list[str] = []
    for value in values:
        for name in (part.strip() for part in value.split(",")):
            if not name:
                continue
            for one in known if name == "all" else [check_strategy(name)]:
                if one not in names:
                    names.append(one)
    if not names:
        raise InputError("no strategy given", field="strategy", hint="name one, or all")
    return names


def parse_builders(value: BuilderChoice = DEFAULT_BUILDERS) -> list[str]:
    """The builders a builders argument names, in build order (each after the layers it
    requires). ``all`` (alone or in a list) is every builder; ``none``, ``""`` and ``[]``
    are no builder; otherwise a comma string or a list of names, each a builder the
    registry knows. None is the default (all)."""
    if value is None:
        value = DEFAULT_BUILDERS
    if isinstance(value, str):
        parts = [part.strip() for part in value.split(",")]
    elif isinstance(value, Sequence) and all(isinstance(v, str) for v in value):
        parts = [v.strip() for v in value]
    else:
        raise InputError(
            f"expected 'all', 'none', a comma string or a list of names, got {type_name(value)}",
            field="builders",
        )
    names = [p for p in parts if p]
    if ALL_BUILDERS in names:
        return build_order(builder_names())
    if NO_BUILDERS in names:
        if len(names) > 1:
            raise InputError(
                f"{NO_BUILDERS!r} cannot be combined with builder names", field="builders"
            )
        return []
    known = builder_names()
    unknown = [n for n in names if n not in known]
    if unknown:
        raise InputError(
            f"unknown builder {', '.join(shown(n) for n in unknown[:5])}",
            field="builders",
            hint=f"choose from {ALL_BUILDERS}, {NO_BUILDERS}, {', '.join(known)}",
        )
    return build_order(names)


# --- JSON argument types (HTTP bodies, MCP tool arguments) ------------------------------
# Strict: a JSON "100" is no budget and "yes" no flag (pydantic's lax mode would take both),
# and a number is no date (lax mode reads -1 as a Unix time).


def _iso_text(value: Any) -> Any:
    if value is None or isinstance(value, str | date):  # date: a datetime too (Python callers)
        return value
    raise ValueError(f"expected an ISO-8601 date or time as a string, got {type_name(value)}")


def _message_time(value: Any) -> Any:
    """A message's time as given: None, a datetime, an ISO-8601 string (checked here), or an
    epoch number or numeric string, which ``add_messages`` shows in the import time zone,
    as a file's (``graphmem.ingest.exports.stamps.read_epochs``)."""
    if value is None or isinstance(value, datetime) or is_epoch(value):
        return value
    if isinstance(value, str):
        try:
            parse_timestamp(value)
        except ValueError as exc:
            raise ValueError(f"{exc}: {STAMP_HINT}") from None
        return value
    raise ValueError(f"expected an ISO-8601 time or epoch seconds, got {type_name(value)}")


# A message's time over HTTP and MCP: the value reaches add_messages as given, so it is read
# by the one rule of every input (an ISO string as written, an epoch in the import zone).
MessageMoment = Annotated[datetime | int | float | str | None, BeforeValidator(_message_time)]
StrictBudget = StrictInt
StrictFlag = StrictBool
StrictText = StrictStr
IsoMoment = Annotated[datetime | None, BeforeValidator(_iso_text)]
IsoDateOrMoment = Annotated[datetime | date | None, BeforeValidator(_iso_text)]
