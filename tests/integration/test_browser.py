"""The Neo4j Browser guide and graph style: every guide query runs and returns rows on the
sample conversation, every label of the schema gets a caption the Browser accepts, the guide
server answers the Browser's CORS preflight, and `graphmem browser` prints how to load both."""

from __future__ import annotations

import json
import re
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from graphmem.browser import (
    asset,
    guide_params,
    guide_queries,
    make_server,
    render_guide,
    space_examples,
)
from graphmem.cli.main import cli
from graphmem.config import Settings
from graphmem.embed import Embedder
from graphmem.store import GraphStore
from tests.integration.sample_space import labels_in, sample_space

pytestmark = pytest.mark.integration
ROOT = Path(__file__).resolve().parents[2]
GUIDE = render_guide("demo", "http://localhost:7476")
QUERIES = [q for q in guide_queries(GUIDE) if not q.is_command]
_RULE = re.compile(r"^node\.(\w+)\s*\{(.*?)^\}", re.S | re.M)
_CAPTION = re.compile(r"caption:\s*'([^']*)'")


@pytest.fixture(scope="module")
def sample(settings: Settings, store: GraphStore, embedder: Embedder) -> Iterator[str]:
    with sample_space(settings, store, embedder, prefix="test-browser") as space:
        yield space


def _captions() -> dict[str, str]:
    grass = asset("graphmem.grass").read_text(encoding="utf-8")
    out = {}
    for label, body in _RULE.findall(grass):
        found = _CAPTION.search(body)
        assert found, f"node.{label} has no caption"
        out[label] = found.group(1)
    return out


@pytest.mark.parametrize("number", range(len(QUERIES)))
def test_every_guide_query_returns_rows_on_the_sample(
    number: int, settings: Settings, store: GraphStore, sample: str
) -> None:
    query = QUERIES[number]
    missing = sorted(set(query.requires) - labels_in(store, sample))
    # The sample is built with every builder, so a missing label is a defect (an Insight
    # needs a cross-session rule to fire: the sample's "bowls" in s1 and s2 give one).
    assert not missing, f"the sample space has no {', '.join(missing)} nodes"
    params = {**guide_params(GUIDE), "space": sample}
    with store.driver.session(database=store.database, default_access_mode="READ") as session:
        rows = session.run(query.text, params).data()
    assert rows, f"guide query returned nothing:\n{query.text}"


def test_the_guide_sets_up_its_parameters_and_the_style() -> None:
    commands = [q.text for q in guide_queries(GUIDE) if q.is_command]
    assert ":param space => 'demo'" in commands
    assert ":style http://localhost:7476/graphmem.grass" in commands
    needed = {name for q in QUERIES for name in re.findall(r"\$(\w+)", q.text)}
    assert needed <= set(guide_params(GUIDE)), "a guide query uses a parameter never set"


def test_every_schema_label_has_a_caption_without_a_colon() -> None:
    captions = _captions()
    labels = {
        "".join(part.title() for part in f.stem.split("_"))
        for f in (ROOT / "schema" / "constraints").glob("*.cypher")
    } - {"Meta"}
    assert labels <= set(captions), f"no style for {sorted(labels - set(captions))}"
    # The Browser silently drops a caption containing a colon.
    assert not [label for label, caption in captions.items() if ":" in caption]
    assert captions["Passage"] == "{speaker} said {text}"


def test_captions_name_properties_the_sample_nodes_have(store: GraphStore, sample: str) -> None:
    present = labels_in(store, sample)
    for label, caption in _captions().items():
        if label not in present:
            continue
        for prop in re.findall(r"\{(\w+)\}", caption):
            with store.driver.session(database=store.database) as session:
                has = session.run(
                    f"MATCH (n:{label} {{space: $space}}) WHERE n[$prop] IS NOT NULL "
                    "RETURN count(n) AS n",
                    space=sample,
                    prop=prop,
                ).single()
            assert has and has["n"] > 0, f"{label} nodes have no {prop!r} for the caption"


def test_guide_server_answers_the_browsers_preflight_and_serves_both() -> None:
    server = make_server("127.0.0.1", 0, "alice's space")
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        preflight = urllib.request.Request(f"{base}/graphmem", method="OPTIONS")
        preflight.add_header("Origin", "http://127.0.0.1:7474")
        preflight.add_header("Access-Control-Request-Headers", "pragma,sentry-trace")
        with urllib.request.urlopen(preflight) as response:
            assert response.headers["Access-Control-Allow-Origin"] == "*"
            assert response.headers["Access-Control-Allow-Headers"] == "pragma,sentry-trace"
        with urllib.request.urlopen(f"{base}/graphmem") as response:
            guide = response.read().decode()
        # A Cypher literal in HTML: the quote escaped for Cypher, then for the page.
        commands = [q.text for q in guide_queries(guide) if q.is_command]
        assert ":param space => 'alice\\'s space'" in commands and "<slide" in guide
        with urllib.request.urlopen(f"{base}/graphmem.grass") as response:
            assert response.read().decode() == asset("graphmem.grass").read_text()
        with pytest.raises(urllib.error.HTTPError):
            urllib.request.urlopen(f"{base}/secrets")
    finally:
        server.shutdown()
        server.server_close()


def test_browser_command_prints_address_login_guide_and_style(settings: Settings) -> None:
    result = CliRunner().invoke(cli, ["browser", "--no-serve", "--space", "alice", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["guide"].endswith("/graphmem") and data["style"].endswith("/graphmem.grass")
    assert Path(data["style_file"]).is_file() and data["space"] == "alice"


def test_the_guide_starts_with_the_spaces_own_examples(store: GraphStore, sample: str) -> None:
    found = space_examples(store, sample)
    assert found.character in {"Maya", "Tom"} and found.cited
    guide = render_guide(sample, "http://localhost:7476", found)
    params = guide_params(guide)
    assert (params["character"], params["entity"]) == (found.character, found.entity)
    assert params["cited"] == found.cited
    with store.driver.session(database=store.database, default_access_mode="READ") as session:
        facts = session.run(
            "MATCH (e:Entity {space: $space}) WHERE e.name = $entity RETURN count(e) AS n",
            space=sample,
            entity=found.entity,
        ).single()
    assert facts and facts["n"] == 1
