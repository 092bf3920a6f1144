"""``graphmem eval chat``: a user's own chat export and questions about it, evaluated as
LoCoMo is, by the questions' categories, through the CLI."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from graphmem.cli.main import cli
from graphmem.eval.chat import space_name
from graphmem.graph.store import GraphStore
from tests.paths import FIXTURES

pytestmark = pytest.mark.integration


def test_an_export_and_its_questions_are_scored_by_category(
    store: GraphStore, spaces: list[str]
) -> None:
    prefix = "evalchat"
    spaces.append(space_name(prefix, "written-group"))
    done = CliRunner().invoke(
        cli,
        [
            "eval",
            "chat",
            str(FIXTURES / "exports" / "whatsapp" / "written-group.txt"),
            "--questions",
            str(FIXTURES / "questions" / "whatsapp-group.jsonl"),
            "--strategy",
            "dense",
            "--budget",
            "300",
            "--space-prefix",
            prefix,
            "--no-progress",
            "--json",
        ],
    )
    assert done.exit_code == 0, done.output
    result = json.loads(done.output)
    assert result["overall"]["n"] == 3
    assert set(result["by_category"]) == {"single-hop", "poll"}
    assert result["by_category"]["poll"]["n"] == 1
    # the dates are dense's to find: every evidence turn is in a 300-token context
    assert result["overall"]["evidence_recall_at_budget"] == pytest.approx(1.0)
    assert result["meta"]["input_left_out"] == {
        "system messages": 7
    }  # the notice, group changes, joins, a leave
