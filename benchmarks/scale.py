"""``python -m benchmarks scale``: one space's queries and one more conversation's ingest
as the database fills with other spaces (1, 10, 100, 1,000 by default).

Runs against a second, private Neo4j (own home and ports, started here if it is not
running), never the server a developer works with. The measured space is a LoCoMo
conversation ingested with the semantic layer (``scale-src-<target>``); the other dev
conversations are ingested passages-only as sources (``scale-src-<id>``); further spaces
are replicas of the sources' core layer, vectors included (``scale-rNNNN``; nothing is
embedded again). At every step: every strategy's latency and evidence recall over the
target's questions beside the floor, the dense statement's path and time, the label
counts statement, the target's GDS projection, the heap, and the ingest of one more
conversation (the database part alone: its texts are embedded beforehand). Results are
saved after every step in ``<out>/scale.json``; a rerun resumes where the last stopped.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks import query
from benchmarks.common import (
    BUDGET,
    first,
    fmt,
    gds_graphs,
    machine,
    neo4j_heap_mb,
    questions_of,
    table,
    timed_ms,
)
from benchmarks.replicas import CachingEmbedder, SpaceCopy, read_space, write_copy
from graphmem.config import Settings
from graphmem.embed import build_embedder
from graphmem.errors import ConfigError
from graphmem.graph.projections import graph_prefix
from graphmem.ingest.formats import load
from graphmem.ingest.models import ConversationIn, Dataset
from graphmem.ingest.render import render_turn
from graphmem.ingest.writer import session_date_text
from graphmem.memory import Memory
from graphmem.server import process

SOURCE = "scale-src-"
REPLICA = "scale-r"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--home", type=Path, required=True, help="the private server's home")
    p.add_argument("--bolt-port", type=int, default=7697)
    p.add_argument("--http-port", type=int, default=7484)
    p.add_argument("--heap", default="4g")
    p.add_argument("--pagecache", default="2g")
    p.add_argument("--spaces", default="1,10,100,1000", help="steps, comma list")
    p.add_argument("--target", default="conv-26", help="the conversation measured")
    p.add_argument("--probe", default="conv-30", help="the conversation ingested at each step")
    p.add_argument("--strategies", default="fulltext,dense,hybrid,hipporag")
    p.add_argument("--questions", type=int, default=0, help="target questions (0: all)")
    p.add_argument("--ablation", action="store_true", help="last step: without space indexes")
    p.add_argument("--stop", action="store_true", help="stop the private server at the end")


@dataclass(frozen=True)
class ScaleArgs:
    home: Path
    bolt_port: int
    http_port: int
    heap: str
    pagecache: str
    steps: list[int]
    data: Path
    out: Path
    target: str
    probe: str
    strategies: list[str]
    questions: int
    ablation: bool
    stop: bool

    @classmethod
    def from_namespace(cls, ns: argparse.Namespace) -> ScaleArgs:
        return cls(
            home=ns.home,
            bolt_port=ns.bolt_port,
            http_port=ns.http_port,
            heap=ns.heap,
            pagecache=ns.pagecache,
            steps=sorted(int(x) for x in ns.spaces.split(",")),
            data=ns.data,
            out=ns.out or ns.home / "scale-results",
            target=ns.target,
            probe=ns.probe,
            strategies=[s for s in ns.strategies.split(",") if s],
            questions=ns.questions,
            ablation=ns.ablation,
            stop=ns.stop,
        )


def private_settings(a: ScaleArgs) -> Settings:
    """The second server's settings; refuses anything that would reach the usual one."""
    base = Settings()
    if base.external:
        raise ConfigError("the scale run starts its own server: unset NEO4J_URI")
    if a.home.resolve() == base.model_fields["home"].get_default(call_default_factory=True):
        raise ConfigError("--home must not be the default graphmem home (the usual server)")
    if a.bolt_port == 7687 or a.http_port == 7474:
        raise ConfigError("--bolt-port/--http-port must differ from the usual 7687/7474")
    return base.model_copy(
        update={
            "home": a.home,
            "bolt_port": a.bolt_port,
            "http_port": a.http_port,
            "heap_size": a.heap,
            "pagecache_size": a.pagecache,
        }
    )


class ScaleRun:
    def __init__(self, a: ScaleArgs, memory: Memory, embedder: CachingEmbedder) -> None:
        self.a = a
        self.memory = memory
        self.embedder = embedder
        self.dataset = load(a.data, "locomo")
        self.convs = {c.conversation_id: c for c in self.dataset.conversations}
        self.target = SOURCE + a.target
        self.results_file = a.out / "scale.json"
        self.results: dict[str, Any] = (
            json.loads(self.results_file.read_text())
            if self.results_file.is_file()
            else {"steps": {}}
        )
        self._sources: list[SpaceCopy] = []

    def save(self) -> None:
        self.a.out.mkdir(parents=True, exist_ok=True)
        self.results_file.write_text(json.dumps(self.results, indent=2, default=str) + "\n")

    def spaces(self) -> list[str]:
        return [r["space"] for r in self.memory.store.read("bench.space_names", prefix="scale-")]

    # --- growing the database ------------------------------------------------------------
    def start(self) -> None:
        if not self.spaces():
            self.results["empty_db_probe"] = self.probe(tag="empty", with_embedding=True)
            conv = self.convs[self.a.target]
            done = self.memory.ingest_dataset(
                Dataset(conversations=[conv], qa={}), self.target, ["semantic"]
            )
            report, builds = done.report, done.builds
            self.results["target_ingest"] = {
                "turns": sum(len(s.turns) for s in conv.sessions),
                "passages_seconds": round(report.seconds, 2),
                "semantic_seconds": round(sum(b.seconds for b in builds), 2),
            }
            self.save()

    def grow_to(self, n: int) -> None:
        have = self.spaces()
        for conv in self.dataset.conversations:
            if len(have) >= n:
                return
            space = SOURCE + conv.conversation_id
            if space not in have:
                self.memory.ingest_dataset(Dataset(conversations=[conv], qa={}), space, builders=[])
                have.append(space)
        sources = self.sources()
        replicas = sum(s.startswith(REPLICA) for s in have)
        started, made = time.perf_counter(), 0
        while len(have) < n:
            replicas += 1
            space = f"{REPLICA}{replicas:04d}"
            if space in have:
                continue
            write_copy(self.memory.store, sources[replicas % len(sources)], space)
            have.append(space)
            made += 1
            if made % 50 == 0:
                rate = made / (time.perf_counter() - started)
                print(f"  {len(have)} spaces ({rate:.2f} replicas/s)", flush=True)

    def sources(self) -> list[SpaceCopy]:
        if not self._sources:
            self._sources = [
                read_space(self.memory.store, SOURCE + c.conversation_id)
                for c in self.dataset.conversations
            ]
        return self._sources

    # --- one step's measurements -----------------------------------------------------------
    def measure(self, n: int) -> dict[str, Any]:
        store = self.memory.store
        # A new Memory per step: retrievers (and the label counts they keep) start afresh,
        # as in a new process.
        fresh = Memory(self.memory.settings, store=store, embedder=self.embedder, tune_process=True)
        conv = self.convs[self.a.target]
        qs = questions_of(
            first(Dataset(conversations=[conv], qa=self.dataset.qa), 1), self.a.questions
        )
        out: dict[str, Any] = {"spaces": len(self.spaces()), "machine": machine()}
        out["query"] = query.strategies(fresh, {self.target: qs}, self.a.strategies)
        out["dense_parts"] = query.dense_parts(fresh, self.target, [q.question for q in qs[:60]])
        out["label_totals_ms"] = self._label_totals_ms()
        out["gds"] = gds_graphs(store, graph_prefix(self.target))
        out["neo4j_heap"] = neo4j_heap_mb(store)
        out["store_mb"] = _du_mb(self.memory.settings.run_dir / "data")
        out["probe"] = self.probe(tag=str(n), with_embedding=False)
        return out

    def _label_totals_ms(self) -> float:
        times = [
            timed_ms(self.memory.store.read, "core.label_totals", space=self.target)[1]
            for _ in range(20)
        ]
        return round(statistics.median(times), 2)

    def probe(self, tag: str, with_embedding: bool) -> dict[str, Any]:
        """One more conversation (passages only) into a fresh space, then forget it. Without
        embedding: its texts are embedded beforehand, so the time is the database's."""
        conv = self.convs[self.a.probe]
        seconds, forget_s = [], []
        for i in range(1 if with_embedding else 3):  # the median of 3 when it is cheap
            space = f"scale-probe-{tag}-{i}"
            self.embedder.enabled = True
            try:
                if not with_embedding:
                    self.embedder.embed(_rendered(conv))
                report = self.memory.ingest_dataset(
                    Dataset(conversations=[conv], qa={}), space, builders=[]
                ).report
            finally:
                self.embedder.enabled = False
            seconds.append(report.seconds)
            forget_s.append(timed_ms(self.memory.forget, space)[1] / 1000)
        turns = sum(len(s.turns) for s in conv.sessions)
        median = statistics.median(seconds)
        return {
            "turns": turns,
            "seconds": round(median, 2),
            "all_seconds": [round(x, 2) for x in seconds],
            "turns_per_s": round(turns / median, 1),
            "with_embedding": with_embedding,
            "forget_seconds": round(statistics.median(forget_s), 2),
        }

    def ablation(self) -> dict[str, Any]:
        """The last step again without the Passage space indexes (then created again)."""
        store = self.memory.store
        store.write("bench.drop_passage_space_index")
        store.write("bench.drop_passage_session_index")
        try:
            fresh = Memory(
                self.memory.settings, store=store, embedder=self.embedder, tune_process=True
            )
            conv = self.convs[self.a.target]
            qs = questions_of(first(Dataset(conversations=[conv], qa=self.dataset.qa), 1), 60)
            return {
                "query": query.strategies(fresh, {self.target: qs}, ["dense", "hipporag"]),
                "label_totals_ms": self._label_totals_ms(),
                "probe": self.probe(tag="noindex", with_embedding=False),
            }
        finally:
            self.memory.init()


def _rendered(conv: ConversationIn) -> list[str]:
    return [
        render_turn(t.speaker, t.text, date_text=session_date_text(s), caption=t.caption)
        for s in conv.sessions
        for t in s.turns
    ]


def _du_mb(path: Path) -> float | None:
    done = subprocess.run(["du", "-sm", str(path)], capture_output=True, text=True, check=False)
    return float(done.stdout.split()[0]) if done.returncode == 0 and done.stdout else None


def run_scale(a: ScaleArgs) -> dict[str, Any]:
    settings = private_settings(a)
    if process.running_pid(settings) is None:
        process.start(settings)
    embedder = CachingEmbedder(build_embedder(settings))
    embedder.enabled = False
    try:
        with Memory(settings, embedder=embedder, tune_process=True) as memory:
            memory.init()
            run = ScaleRun(a, memory, embedder)
            run.start()
            for n in a.steps:
                if str(n) in run.results["steps"]:
                    continue
                started = time.perf_counter()
                run.grow_to(n)
                print(f"{n} spaces ready in {time.perf_counter() - started:.0f} s", flush=True)
                run.results["steps"][str(n)] = run.measure(n)
                run.save()
                print(render_scale(run.results), flush=True)
            if a.ablation and "ablation" not in run.results:
                run.results["ablation"] = run.ablation()
                run.save()
    finally:
        if a.stop:
            process.stop(settings)
    text = render_scale(run.results)
    (a.out / "scale.md").write_text(text)
    print(text)
    return run.results


# ---------------------------------------------------------------- rendering


def render_scale(r: dict[str, Any]) -> str:
    steps = r["steps"]
    if not steps:
        return "no step measured yet\n"
    names = [k for k in next(iter(steps.values()))["query"] if k != "floor"]
    base = steps[min(steps, key=_order)]
    lines = [
        "# Scale: one space's queries as the database fills",
        "",
        f"Budget {BUDGET}; latency in ms (p50 / p95 / p99); `x floor`: p95 over the same "
        "step's floor p95 (question embedding + numpy search).",
        "",
    ]
    if "steps_overfetch_1000" in r:  # the 1,000 step measured before the full-text filter
        steps = {**steps, "1000 (over-fetch)": r["steps_overfetch_1000"]}
    header = ["spaces", "passages in DB", "floor p95", "load"]
    header += [f"{n} p50/p95/p99 (x floor)" for n in names]
    rows = []
    for key in sorted(steps, key=_order):
        s = steps[key]
        q = s["query"]
        cells: list[object] = [
            key,
            f"{s['dense_parts']['passages_total']:,}",
            q["floor"]["floor"]["p95"],
            s["machine"]["load_avg_1m"],
        ]
        for n in names:
            cells.append(
                f"{q[n]['p50']} / {q[n]['p95']} / {q[n]['p99']} ({q[n]['p95_over_floor']}x)"
            )
        rows.append(cells)
    lines += table(header, rows)
    lines += ["", "Evidence recall of the target's questions (ER@10 / ER@B, %):", ""]
    lines += table(
        ["spaces", *names],
        [
            [
                k,
                *(
                    f"{fmt(steps[k]['query'][n]['er_at_10'])} / "
                    f"{fmt(steps[k]['query'][n]['er_at_budget'])}"
                    for n in names
                ),
            ]
            for k in sorted(steps, key=_order)
        ],
    )
    lines += ["", "Database side:", ""]
    lines += table(
        [
            "spaces",
            "dense path",
            "dense statement p50/p95",
            "label counts ms",
            "probe ingest s (DB only)",
            "vs first step",
            "forget s",
            "target GDS MB",
            "heap used MB",
            "store MB",
        ],
        [[k, *_db_row(steps[k], base)[1:]] for k in sorted(steps, key=_order)],
    )
    if "empty_db_probe" in r:
        p = r["empty_db_probe"]
        lines += [
            "",
            f"Into the empty database, with embedding: {p['seconds']} s for {p['turns']} turns "
            f"({p['turns_per_s']} turns/s).",
        ]
    if "ablation" in r:
        a = r["ablation"]
        lines += [
            "",
            "Last step without the Passage space indexes: dense p50/p95 "
            f"{a['query']['dense']['p50']} / {a['query']['dense']['p95']} ms, hipporag "
            f"{a['query']['hipporag']['p50']} / {a['query']['hipporag']['p95']} ms, label counts "
            f"{a['label_totals_ms']} ms, probe ingest {a['probe']['seconds']} s.",
        ]
    return "\n".join(lines) + "\n"


def _order(key: str) -> tuple[int, str]:
    return int(key.split()[0]), key


def _db_row(s: dict[str, Any], base: dict[str, Any]) -> list[object]:
    d = s["dense_parts"]
    gds = sum(g["bytes"] for g in s["gds"]) / 2**20
    ratio = s["probe"]["seconds"] / base["probe"]["seconds"]
    return [
        s["spaces"],
        d["path"] + (f" (fetch {d['index_fetch']})" if d["index_fetch"] else ""),
        f"{d['statement']['p50']} / {d['statement']['p95']}",
        s["label_totals_ms"],
        s["probe"]["seconds"],
        f"{ratio:.2f}x",
        s["probe"]["forget_seconds"],
        f"{gds:.1f}",
        s["neo4j_heap"]["used_mb"],
        s["store_mb"],
    ]
