"""The Neo4j Browser guide and graph style: every guide query runs on its own (with the
`:param` blocks above it on its slide) and returns rows on the sample conversation, a
drawing at most ~25 nodes; every caption of the sample's nodes says what the node is (no
hash, no leading date); the guide server answers the Browser's CORS preflight and serves
the generated style, and `graphmem browser` prints how to load both."""

from __future__ import annotations

import json
import re
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from graphmem.browser import (
    GuideExamples,
    GuideQuery,
    guide_params,
    guide_queries,
    guide_slides,
    make_server,
    render_guide,
    space_examples,
)
from graphmem.browser.style import grass, label_counts_query
from graphmem.cli.main import cli
from graphmem.config import Settings
from graphmem.embed import Embedder
from graphmem.graph.store import GraphStore
from tests.integration.sample_space import labels_in, sample_space
from tests.paths import ROOT
from tests.unit.browser.test_browser_style import parse_grass

pytestmark = pytest.mark.integration
GUIDE = render_guide("demo", "http://localhost:7476")
QUERIES = [q for q in guide_queries(GUIDE) if not q.is_command]
MAX_DRAWN = 25  # nodes a drawing of the guide shows, readable without zooming
_HASH = re.compile(r"\b[0-9a-f]{24}\b")
# A date or time first: "2024-03-02", "(2024-03-02 18:10)", "(1:56 pm on 8 May, 2023)",
# "On 2 March 2024, ...".
_LEADING_DATE = re.compile(
    r"^(\(?\s*(\d{4}-\d{2}|\d{1,2}:\d{2}|\d{1,2} [A-Z][a-z]+,? \d{4})|On [^,]*\d[^,]*,)"
)


@pytest.fixture(scope="module")
def sample(settings: Settings, store: GraphStore, embedder: Embedder) -> Iterator[str]:
    # The offline change rules (the default) find the sample's one change, which a slide draws.
    judged = settings.model_copy(update={"validity_judge": "offline"})
    with sample_space(judged, store, embedder, prefix="test-browser") as space:
        yield space


def _captions() -> dict[str, str]:
    rules = parse_grass(grass())
    return {
        selector.removeprefix("node."): props["caption"]
        for selector, props in rules.items()
        if selector.startswith("node.") and "caption" in props  # not the faded Superseded
    }


def _standalone(slides: list[list[GuideQuery]], number: int) -> tuple[str, dict[str, Any]]:
    """Query ``number`` of the guide and the parameters the ``:param`` blocks above it on
    its own slide set: what a user has after clicking them, whatever they ran before."""
    seen = 0
    for slide in slides:
        params: dict[str, Any] = {}
        for query in slide:
            if query.is_command:
                params.update(guide_params(f'<pre class="runnable">{query.text}</pre>'))
                continue
            if seen == number:
                return query.text, params
            seen += 1
    raise IndexError(number)


@pytest.mark.parametrize("number", range(len(QUERIES)))
def test_every_guide_query_runs_on_its_own_and_draws_a_readable_graph(
    number: int, settings: Settings, store: GraphStore, sample: str
) -> None:
    query = QUERIES[number]
    missing = sorted(set(query.requires) - labels_in(store, sample))
    # The sample is built with every builder, so a missing label is a defect (an Insight
    # needs a cross-session rule to fire: the sample's "bowls" in s1 and s2 give one).
    assert not missing, f"the sample space has no {', '.join(missing)} nodes"
    text, params = _standalone(guide_slides(render_guide(sample, "http://localhost:7476")), number)
    needed = set(re.findall(r"\$(\w+)", text))
    assert needed <= set(params), f"{sorted(needed - set(params))} not set on its slide:\n{text}"
    with store.driver.session(database=store.database, default_access_mode="READ") as session:
        result = session.run(text, params)
        rows = list(result)
        drawn = len(result.graph().nodes)
    assert rows, f"guide query returned nothing:\n{text}"
    assert drawn <= MAX_DRAWN, f"{drawn} nodes drawn:\n{text}"


def _shown(caption: str, props: dict[str, Any]) -> str:
    """The caption as the Browser fills it in (a missing property shows nothing)."""
    return re.sub(r"\{(\w+)\}", lambda m: str(props.get(m.group(1), "")), caption).strip()


def test_the_captions_of_the_samples_nodes_say_what_they_are(
    store: GraphStore, sample: str
) -> None:
    captions = _captions()
    present = labels_in(store, sample) & set(captions)
    assert {"StoryItem", "Cluster", "EventFrame", "Fact", "AtomicFact"} <= present
    with store.driver.session(database=store.database, default_access_mode="READ") as session:
        for label in sorted(present):
            nodes = session.run(
                f"MATCH (n:{label} {{space: $space}}) RETURN properties(n) AS p", space=sample
            ).data()
            for node in nodes:
                shown = _shown(captions[label], node["p"])
                assert shown, f"{label}: empty caption {captions[label]!r}"
                assert not _HASH.search(shown), f"{label} caption shows a hash: {shown!r}"
                assert not _LEADING_DATE.match(shown), (
                    f"{label} caption starts with a date: {shown!r}"
                )


def test_the_label_counts_slide_counts_what_stats_counts(store: GraphStore, sample: str) -> None:
    query = label_counts_query()
    with store.driver.session(database=store.database, default_access_mode="READ") as session:
        rows = session.run(query, space=sample).data()
    assert {row["label"] for row in rows} == labels_in(store, sample)
    assert "$(" not in query  # a dynamic label would scan every space's nodes


def test_the_why_slide_cites_what_its_query_cites(sample: str) -> None:
    """The sample's `$cited` is what the slide's command prints for its question."""
    found = GuideExamples()
    result = CliRunner().invoke(
        cli, ["query", found.question, "--space", sample, "--budget", "60", "--json"]
    )
    assert result.exit_code == 0, result.output
    # The guide matches turns by their source id in the sample's one conversation; the JSON
    # cites turn ids (<conversation>/<source id>).
    assert json.loads(result.output)["citations"] == [f"maya-and-tom/{c}" for c in found.cited]
    guide = render_guide(sample, "http://localhost:7476", found)
    assert f'graphmem query "{found.question}"' in guide and "--budget 60" in guide


def test_the_guide_sets_up_its_parameters_the_style_and_a_legend() -> None:
    commands = [q.text for q in guide_queries(GUIDE) if q.is_command]
    assert ":param space => 'demo'" in commands
    assert ":style http://localhost:7476/graphmem.grass" in commands
    assert "<h3>Legend</h3>" in GUIDE and ">StoryItem</code>" in GUIDE


def test_every_schema_label_has_a_caption_without_a_colon() -> None:
    captions = _captions()
    labels = {
        "".join(part.title() for part in f.stem.split("_"))
        for f in (ROOT / "schema" / "constraints").glob("*.cypher")
    } - {"Meta"}
    assert labels <= set(captions), f"no style for {sorted(labels - set(captions))}"
    # The Browser cuts a caption short at a colon.
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
            assert response.read().decode() == grass()
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
    style = Path(data["style_file"])
    assert style.read_text(encoding="utf-8") == grass()
    assert style.stat().st_mode & 0o777 == 0o600 and style.parent.stat().st_mode & 0o777 == 0o700
    assert data["space"] == "alice"


def test_the_guide_starts_with_the_spaces_own_examples(store: GraphStore, sample: str) -> None:
    asked: list[str] = []

    def cite(question: str) -> list[str]:
        asked.append(question)
        return ["s3:1"]

    found = space_examples(store, sample, cite)
    assert found.character in {"Maya", "Tom"} and found.cited == ["s3:1"]
    assert asked == ["Where is Maya moving?"]
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
