"""``graphmem forget``: a whole space, or some turns, a session or a conversation of it."""

from __future__ import annotations

from typing import Any, NamedTuple

import click

from graphmem.cli.common import app, emit, handle_errors, json_option
from graphmem.cli.memory_cmds import space_option
from graphmem.graph.readiness import check_exists
from graphmem.graph.stats import space_stats
from graphmem.ingest.forget import REDACTED
from graphmem.serving.render import plural


@click.command("forget")
@space_option
@click.option(
    "--turn",
    "turns",
    multiple=True,
    metavar="ID",
    help="A turn to forget, by its id as the input gave it (D1:3); repeat for more.",
)
@click.option("--session", metavar="ID", help="A session to forget, by its id in the input.")
@click.option(
    "--conversation",
    metavar="ID",
    help="A conversation to forget whole; with --turn or --session, the one they are in "
    "(when ids repeat across conversations).",
)
@click.option(
    "--dry-run",
    is_flag=True,
    help="Print what would go, per label, and change nothing: what a forget of a part does "
    "without --yes.",
)
@click.option(
    "--yes",
    is_flag=True,
    help="Forget without asking (a whole space) or for real (a part: not a dry run).",
)
@json_option
@click.pass_context
@handle_errors
def forget(
    ctx: click.Context,
    space: str,
    turns: tuple[str, ...],
    session: str | None,
    conversation: str | None,
    dry_run: bool,
    yes: bool,
    as_json: bool,
) -> None:
    """Forget a whole space, or some turns, a session or a conversation of it. A part is
    forgotten as if it had never been ingested: the sessions and conversations it was in,
    and those that share a memory with them, are built again without it; the other turns
    keep their ids. Without --yes a part is a dry run: the counts of what would go."""
    with app(ctx).memory() as memory:
        check_exists(memory.store, space)  # a misspelt name: said before anything else
        if not (turns or session is not None or conversation is not None):
            if dry_run:
                labels = space_stats(memory.store, space)["labels"]
                emit({"space": space, "dry_run": True, "removed": labels}, as_json, _space_text)
                return
            if not yes:
                click.confirm(f"Delete every memory of space {space!r}?", abort=True)
            emit({"space": space, "deleted_nodes": memory.forget(space)}, as_json)
            return
        report = memory.forget(
            space,
            turns=turns,
            session=session,
            conversation=conversation,
            dry_run=dry_run or not yes,
        )
    emit(report.model_dump(), as_json, _part_text)


def _space_text(data: dict[str, Any]) -> str:
    total = sum(data["removed"].values())
    rows = "\n".join(f"  {label:<14} {n:>8}" for label, n in sorted(data["removed"].items()))
    return (
        f"would delete every node of space {data['space']!r} ({total}):\n{rows}\n"
        "run again without --dry-run to delete them"
    )


class Verbs(NamedTuple):
    """How the report of a forget or a redaction speaks."""

    would: str  # a dry run
    did: str
    verb: str  # the word for it, in "run again with --yes to ..."


FORGET = Verbs("would forget", "forgot", "forget")
REDACT = Verbs("would redact", "redacted", "redact")


def _part_text(data: dict[str, Any], verbs: Verbs = FORGET) -> str:
    what = plural(data["turns"], "turn")
    whole = [
        plural(data["sessions"], "session") if data["sessions"] else "",
        plural(data["conversations"], "conversation") if data["conversations"] else "",
    ]
    gone = " and ".join(w for w in whole if w)
    head = f"{verbs.would if data['dry_run'] else verbs.did} {what} of space {data['space']!r}" + (
        f" ({gone} whole)" if gone else ""
    )
    labels = sorted(set(data["removed"]) | set(data["recomputed"]))
    table = [f"  {'label':<14} {'removed':>8} {'rebuilt':>8}"] + [
        f"  {label:<14} {data['removed'].get(label, 0):>8} {data['recomputed'].get(label, 0):>8}"
        for label in labels
    ]
    rebuilt = data["rebuilt"]
    if rebuilt:
        shown = ", ".join(rebuilt[:5]) + (
            f" and {len(rebuilt) - 5} more" if len(rebuilt) > 5 else ""
        )
        table.append(f"built again: {plural(len(rebuilt), 'conversation')} ({shown})")
    tail = (
        f"run again with --yes to {verbs.verb} it"
        if data["dry_run"]
        else f"the space is as a build of the input so changed ({data['seconds']:.1f} s)"
    )
    return "\n".join([head + ":", *table, tail])


@click.command("redact")
@space_option
@click.option(
    "--turn",
    "turns",
    multiple=True,
    required=True,
    metavar="ID",
    help="A turn to redact, by its id as the input gave it (D1:3); repeat for more.",
)
@click.option(
    "--text",
    default=REDACTED,
    show_default=True,
    help="What the turns say instead; their captions go.",
)
@click.option(
    "--conversation", metavar="ID", help="The conversation of the turns, when ids repeat."
)
@click.option("--dry-run", is_flag=True, help="Print what would change; change nothing.")
@click.option("--yes", is_flag=True, help="Redact for real (without it: a dry run).")
@json_option
@click.pass_context
@handle_errors
def redact(
    ctx: click.Context,
    space: str,
    turns: tuple[str, ...],
    text: str,
    conversation: str | None,
    dry_run: bool,
    yes: bool,
    as_json: bool,
) -> None:
    """Replace what some turns say, keeping their ids, speakers and times: what they fed is
    built again from the new text. Without --yes a dry run."""
    with app(ctx).memory() as memory:
        check_exists(memory.store, space)
        report = memory.redact(
            space, turns, text=text, conversation=conversation, dry_run=dry_run or not yes
        )
    data = report.model_dump()
    emit(data, as_json, lambda d: _part_text(d, REDACT))
