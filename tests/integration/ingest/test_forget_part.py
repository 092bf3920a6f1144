"""Issue 59: forgetting some turns, a session or a conversation leaves the space a build
that never saw them would have made (equal digests), for every design alone and for all
together; unknown ids write nothing; a dry run counts and changes nothing."""

from __future__ import annotations

import json
import uuid

import pytest
from click.testing import CliRunner

from graphmem.cli.main import cli
from graphmem.config import Settings
from graphmem.embed import Embedder
from graphmem.errors import ConfigError, InputError, UnknownIdError
from graphmem.graph.digest import space_digest
from graphmem.graph.store import GraphStore
from graphmem.ingest.forget import ForgetReport, Selection
from graphmem.ingest.models import ConversationIn, Dataset, Turn
from graphmem.memory import Memory
from graphmem.plugin.registry import builder_names
from tests.conftest import delete_space
from tests.integration.helpers import assert_same_digest, files_holding, tiny_conversation

pytestmark = pytest.mark.integration

# Every design alone, and all together (the semantic layer with each: designs build on it).
BUILDERS = [["semantic", name] for name in builder_names() if name != "semantic"]
ALL = list(builder_names())


def _ingest(memory: Memory, space: str, convs: list[ConversationIn], builders: list[str]) -> None:
    memory.ingest_dataset(Dataset(conversations=convs, qa={}), space, builders)


def _without_turn(conv: ConversationIn, session: int, turn: str) -> ConversationIn:
    """The input without one turn: the others keep their ids and positions."""
    sessions = list(conv.sessions)
    kept = [t for t in sessions[session].turns if t.source_id != turn]
    sessions[session] = sessions[session].model_copy(update={"turns": kept})
    return conv.model_copy(update={"sessions": sessions})


def _without_session(conv: ConversationIn, session: int) -> ConversationIn:
    """The input without one session: the later ones move up."""
    kept = [s for s in conv.sessions if s.index != session]
    return conv.model_copy(
        update={"sessions": [s.model_copy(update={"index": i}) for i, s in enumerate(kept)]}
    )


@pytest.mark.parametrize("builders", [*BUILDERS, ALL], ids=lambda b: "+".join(b))
def test_forgetting_a_turn_a_session_or_a_conversation_equals_a_build_without_it(
    settings: Settings,
    store: GraphStore,
    embedder: Embedder,
    space: str,
    clean_space: str,
    builders: list[str],
) -> None:
    memory = Memory(settings, store=store, embedder=embedder)
    conv = tiny_conversation("conv-a", sessions=3)
    other = tiny_conversation("conv-b", sessions=2)
    _ingest(memory, space, [conv, other], builders)

    done = memory.forget(space, turns=["D2:2"], conversation="conv-a")
    assert isinstance(done, ForgetReport) and done.turns == 1 and not done.dry_run
    step = _without_turn(conv, 1, "D2:2")
    _ingest(memory, clean_space, [step, other], builders)
    assert_same_digest(store, space, clean_space)

    memory.forget(space, session="session_1", conversation="conv-a")
    step = _without_session(step, 0)
    delete_space(store, clean_space)
    _ingest(memory, clean_space, [step, other], builders)
    assert_same_digest(store, space, clean_space)

    gone = memory.forget(space, conversation="conv-b")
    assert gone.conversations == 1 and gone.sessions == 2
    delete_space(store, clean_space)
    _ingest(memory, clean_space, [step], builders)
    assert_same_digest(store, space, clean_space)


def test_each_conversation_is_built_again_with_the_builders_that_built_it(
    settings: Settings, store: GraphStore, embedder: Embedder, space: str, clean_space: str
) -> None:
    """A conversation stored with the turns only (``--builders none``) stays so when a
    forget rebuilds the space's other one with every design."""
    memory = Memory(settings, store=store, embedder=embedder)
    conv = tiny_conversation("conv-a", sessions=2)
    bare = tiny_conversation("conv-b", sessions=1)
    _ingest(memory, space, [conv], ALL)
    _ingest(memory, space, [bare], [])
    memory.forget(space, turns=["D1:2"], conversation="conv-a")
    _ingest(memory, clean_space, [_without_turn(conv, 0, "D1:2")], ALL)
    _ingest(memory, clean_space, [bare], [])
    assert_same_digest(store, space, clean_space)


def test_unknown_ids_are_named_and_nothing_is_written(
    settings: Settings, store: GraphStore, embedder: Embedder, space: str
) -> None:
    memory = Memory(settings, store=store, embedder=embedder)
    conv, other = tiny_conversation("conv-a", sessions=2), tiny_conversation("conv-b", 1)
    _ingest(memory, space, [conv, other], ["semantic", "anchormem"])
    before = space_digest(store, space).sha256
    with pytest.raises(UnknownIdError, match="'D9:9'"):
        memory.forget(space, turns=["D1:1", "D9:9"], conversation="conv-a")
    with pytest.raises(UnknownIdError, match="several conversations"):
        memory.forget(space, turns=["D1:1"])  # both conversations have a D1:1
    with pytest.raises(UnknownIdError, match="session 'session_7'"):
        memory.forget(space, session="session_7")
    with pytest.raises(UnknownIdError, match="conversation 'conv-z'"):
        memory.forget(space, conversation="conv-z")
    with pytest.raises(ConfigError, match="not both"):
        memory.forget(space, turns=["D1:1"], session="session_1")
    assert space_digest(store, space).sha256 == before


def test_a_dry_run_counts_what_would_go_and_changes_nothing(
    settings: Settings, store: GraphStore, embedder: Embedder, space: str
) -> None:
    memory = Memory(settings, store=store, embedder=embedder)
    _ingest(memory, space, [tiny_conversation("conv-a", sessions=2)], ["semantic", "anchormem"])
    before = space_digest(store, space).sha256
    plan = memory.forget(space, session="session_2", dry_run=True)
    assert plan.dry_run and plan.turns == 6 and plan.sessions == 1 and plan.conversations == 0
    assert plan.rebuilt == ["conv-a"]
    assert plan.removed["Passage"] == 6 and plan.removed["AtomicFact"] > 0
    assert space_digest(store, space).sha256 == before


def test_the_cli_counts_first_forgets_with_yes_and_names_unknown_ids(
    memory: Memory, store: GraphStore, space: str
) -> None:
    _ingest(memory, space, [tiny_conversation("conv-a", sessions=2)], ["semantic", "anchormem"])
    before = space_digest(store, space).sha256
    unknown = CliRunner().invoke(cli, ["forget", "--space", space, "--turn", "D7:7"])
    assert unknown.exit_code == 2 and "no turn 'D7:7'" in unknown.output
    counted = CliRunner().invoke(cli, ["forget", "--space", space, "--turn", "D1:2", "--json"])
    assert counted.exit_code == 0, counted.output
    plan = json.loads(counted.output)
    assert plan["dry_run"] and plan["turns"] == 1 and plan["removed"]["Passage"] == 1
    assert space_digest(store, space).sha256 == before
    done = CliRunner().invoke(cli, ["forget", "--space", space, "--turn", "D1:2", "--yes"])
    assert done.exit_code == 0, done.output
    assert "forgot 1 turn" in done.output and "removed" in done.output
    assert space_digest(store, space).sha256 != before
    again = CliRunner().invoke(cli, ["forget", "--space", space, "--turn", "D1:2", "--yes"])
    assert again.exit_code == 2, "a turn forgotten is no longer in the space"


@pytest.mark.parametrize("stop_at", ["release", "rewrite_sessions", "ingest"])
def test_a_forget_stopped_part_way_finishes_when_run_again(
    settings: Settings,
    store: GraphStore,
    embedder: Embedder,
    space: str,
    clean_space: str,
    stop_at: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A crash after the request is written, at one of its write steps: the same forget run
    again reaches the graph a build without the turns has (its ids are gone by then)."""
    memory = Memory(settings, store=store, embedder=embedder)
    builders = ["semantic", "anchormem", "amory"]
    conv = tiny_conversation("conv-a", sessions=3)
    _ingest(memory, space, [conv], builders)
    real_write, real_ingest = store.write, memory._ingest_dataset
    statements = {"release": "core.delete_session", "rewrite_sessions": "core.rewrite_sessions"}

    def crashing_write(name: str, **params: object) -> list[dict[str, object]]:
        if name == statements.get(stop_at):
            raise RuntimeError("killed")
        return real_write(name, **params)

    def crashing_ingest(*args: object, **kwargs: object) -> object:
        raise RuntimeError("killed")

    monkeypatch.setattr(store, "write", crashing_write)
    if stop_at == "ingest":
        monkeypatch.setattr(memory, "_ingest_dataset", crashing_ingest)
    with pytest.raises(RuntimeError, match="killed"):
        memory.forget(space, session="session_2")
    asked = Selection(session="session_2").key
    assert store.read("core.forget_request_pending", space=space, id=asked)
    monkeypatch.setattr(store, "write", real_write)
    monkeypatch.setattr(memory, "_ingest_dataset", real_ingest)
    memory.forget(space, session="session_2")
    _ingest(memory, clean_space, [_without_session(conv, 1)], builders)
    assert_same_digest(store, space, clean_space)
    assert not store.read("core.forget_request_pending", space=space, id=asked)


@pytest.mark.parametrize("builders", [["semantic", "anchormem", "amory"], ALL], ids=len)
def test_a_redacted_turn_equals_a_build_of_the_redacted_input(
    settings: Settings,
    store: GraphStore,
    embedder: Embedder,
    space: str,
    clean_space: str,
    builders: list[str],
) -> None:
    memory = Memory(settings, store=store, embedder=embedder)
    conv = tiny_conversation("conv-a", sessions=2)
    _ingest(memory, space, [conv], builders)
    done = memory.redact(space, ["D1:2"], text="[removed]")
    assert done.turns == 1 and not done.dry_run
    sessions = list(conv.sessions)
    turns = [
        t.model_copy(update={"text": "[removed]", "caption": None}) if t.source_id == "D1:2" else t
        for t in sessions[0].turns
    ]
    sessions[0] = sessions[0].model_copy(update={"turns": turns})
    _ingest(memory, clean_space, [conv.model_copy(update={"sessions": sessions})], builders)
    assert_same_digest(store, space, clean_space)
    marathon = store.read(
        "core.forget_targets", space=space, conversation=None, session=None, turns=["D1:2"]
    )
    assert [r["text"] for r in marathon] == ["[removed]"]  # the id, speaker and time kept
    with pytest.raises(InputError, match="blank"):
        memory.redact(space, ["D1:2"], text="  ")
    with pytest.raises(ConfigError, match="names turns"):
        memory.redact(space, [])


def test_a_forgotten_secret_is_in_no_property_and_no_file_but_neo4js_own(
    settings: Settings, store: GraphStore, embedder: Embedder, space: str
) -> None:
    """A unique secret planted in one turn, forgotten: no node or relationship property
    holds it, nor any file graphmem wrote under its home and cache folder; Neo4j's own
    store and transaction files are left out (docs/privacy.md says what they keep)."""
    memory = Memory(settings, store=store, embedder=embedder)
    secret = f"PIN-{uuid.uuid4().hex[:12]}"
    conv = tiny_conversation("conv-a", sessions=2)
    sessions = list(conv.sessions)
    said = sessions[0].turns[1].model_copy(update={"text": f"My bank PIN is {secret}, shh."})
    sessions[0] = sessions[0].model_copy(
        update={"turns": [sessions[0].turns[0], said, *sessions[0].turns[2:]]}
    )
    _ingest(memory, space, [conv.model_copy(update={"sessions": sessions})], ALL)
    assert _holding(store, space, secret), "planted"
    memory.forget(space, turns=[said.source_id])
    assert not _holding(store, space, secret)
    # Left out: Neo4j's store, and what graphmem fetched rather than wrote (the server's
    # jars, the models, the datasets): nothing a user said is in them.
    fetched = [settings.home / "neo4j" / "data", settings.runtime_dir]
    fetched += [settings.cache_dir / name for name in ("models", "onnx", "data")]
    assert files_holding(secret, [settings.home, settings.cache_dir], fetched) == []


def _holding(store: GraphStore, space: str, secret: str) -> int:
    """Nodes and relationships of ``space`` with a text property holding ``secret``."""
    holds = (
        "any(k IN [k IN keys(x) WHERE k <> 'embedding'] WHERE "
        "(x[k] IS :: STRING AND x[k] CONTAINS $s) OR "
        "(x[k] IS :: LIST<STRING> AND any(v IN x[k] WHERE v CONTAINS $s)))"
    )
    with store.driver.session(database=store.database) as session:
        nodes = session.run(
            f"MATCH (x) WHERE x.space = $space AND {holds} RETURN count(x) AS n",
            space=space,
            s=secret,
        ).single()
        rels = session.run(
            f"MATCH (a)-[x]->() WHERE a.space = $space AND {holds} RETURN count(x) AS n",
            space=space,
            s=secret,
        ).single()
    assert nodes is not None and rels is not None
    return int(nodes["n"]) + int(rels["n"])


def test_an_entity_named_by_a_forgotten_turn_takes_a_kept_turns_words(
    settings: Settings, store: GraphStore, embedder: Embedder, space: str, clean_space: str
) -> None:
    """An entity's name is its first mention's: the forgotten turn said "Pottery Studio",
    the kept ones "pottery studio", in this conversation and in another one."""
    memory = Memory(settings, store=store, embedder=embedder)
    conv = tiny_conversation("conv-a", sessions=2)
    other = tiny_conversation("conv-b", sessions=1)
    first = (
        conv.sessions[0]
        .turns[0]
        .model_copy(update={"text": "I signed up at the Pottery Studio downtown."})
    )
    later = (
        conv.sessions[1]
        .turns[0]
        .model_copy(update={"text": "The pottery studio downtown is lovely."})
    )
    elsewhere = (
        other.sessions[0]
        .turns[0]
        .model_copy(update={"text": "My aunt runs the pottery studio downtown."})
    )

    def swapped(c: ConversationIn, session: int, turn: Turn) -> ConversationIn:
        sessions = list(c.sessions)
        turns = [turn if t.source_id == turn.source_id else t for t in sessions[session].turns]
        sessions[session] = sessions[session].model_copy(update={"turns": turns})
        return c.model_copy(update={"sessions": sessions})

    conv = swapped(swapped(conv, 0, first), 1, later)
    other = swapped(other, 0, elsewhere)
    _ingest(memory, space, [conv, other], ["semantic"])
    memory.forget(space, turns=[first.source_id], conversation="conv-a")
    _ingest(memory, clean_space, [_without_turn(conv, 0, first.source_id), other], ["semantic"])
    assert_same_digest(store, space, clean_space)


@pytest.mark.parametrize("strategy", ["hybrid", "fulltext", "graphmem"])
def test_another_process_sees_the_forget_at_its_next_query(
    settings: Settings, store: GraphStore, embedder: Embedder, space: str, strategy: str
) -> None:
    """A serving process (its own Memory, snapshots warm) queries, another forgets a turn:
    the server's next query cites it no more (its snapshots check the space's version)."""
    serving = Memory(
        settings.model_copy(update={"snapshot_recheck_seconds": 0.0}),
        store=store,
        embedder=embedder,
    )
    writer = Memory(settings, store=store, embedder=embedder)
    _ingest(writer, space, [tiny_conversation("conv-a", sessions=2)], ALL)
    question = "Who finished the marathon in Lisbon?"
    before = serving.query(question, space, strategy).as_dict()["citations"]
    assert "conv-a/D1:2" in before, before
    writer.forget(space, turns=["D1:2", "D2:2"])
    after = serving.query(question, space, strategy).as_dict()["citations"]
    assert not {"conv-a/D1:2", "conv-a/D2:2"} & set(after), after
