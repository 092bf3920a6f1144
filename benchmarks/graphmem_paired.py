"""The ``graphmem`` strategy against one design, question by question: how many questions
each covers better, and a paired bootstrap interval of the difference, per category.

    python -m benchmarks graphmem-paired ../shared/data/locomo/locomo10-dev.json \\
        --space-prefix t10 --budget 1000 --cache /tmp/strategy-cache --against premem \\
        [--metric answer_token_recall_at_budget] [--resamples 5000]

It reads the members' results as ``benchmarks.graphmem_ablation`` does (the same
``--cache``): the strategy is fused at B from the lists retrieved for 2 x B, the design
alone is its own list for 2 x B packed at B (the ablation's ``only:<name>`` rows: a
prefix-consistent design's ``graphmem eval`` numbers; Amory's list depends on the budget
it is asked for, so its row can differ a little from its own eval). Only questions of
categories 1-4 that have evidence are paired (1,033 of the 1,035 dev questions); file
categories.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from dataclasses import dataclass

from benchmarks.graphmem_ablation import arguments, conversations, token_counter
from graphmem.eval.harness import budget_values
from graphmem.memory import Memory
from graphmem.retrieval.packer import pack
from graphmem.strategy.compose import arrange
from graphmem.strategy.members import plan
from graphmem.strategy.settings import GraphmemSettings


@dataclass(frozen=True)
class Paired:
    group: str
    n: int
    mean: float
    low: float
    high: float
    better: int
    worse: int


def interval(diffs: Sequence[float], resamples: int, seed: int) -> tuple[float, float]:
    """The 2.5th and 97.5th percentiles of the mean over ``resamples`` resamples."""
    rng = random.Random(seed)  # a fixed seed: the same table on every run
    means = sorted(sum(rng.choices(diffs, k=len(diffs))) / len(diffs) for _ in range(resamples))
    return means[int(0.025 * resamples)], means[int(0.975 * resamples) - 1]


def paired(by_group: dict[str, list[float]], resamples: int, seed: int) -> list[Paired]:
    out = []
    for group, diffs in by_group.items():
        low, high = interval(diffs, resamples, seed)
        better = sum(d > 0 for d in diffs)
        worse = sum(d < 0 for d in diffs)
        out.append(Paired(group, len(diffs), sum(diffs) / len(diffs), low, high, better, worse))
    return out


def _extra(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--against", required=True, help="the design (member) to compare with")
    parser.add_argument("--metric", default="evidence_recall_at_budget")
    parser.add_argument("--resamples", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=0)


def main() -> None:
    args = arguments(__doc__.split("\n\n")[0], _extra)
    budgets = sorted(set(args.budgets or [1000]))
    memory = Memory()
    count = token_counter(memory)
    config = GraphmemSettings()
    diffs: dict[int, dict[str, list[float]]] = {b: {"overall": []} for b in budgets}
    for space, built, rows, history in conversations(args, memory, budgets, count):
        current = plan(config, built)
        for budget, questions in rows.items():
            for question, results, _ in questions:
                if args.against not in results:
                    known = ", ".join(sorted(results))
                    raise SystemExit(f"--against {args.against}: not a member in {space} ({known})")
                if not question.evidence or question.group == "adversarial":
                    continue
                ours = pack(arrange(results, current, config, budget, count).hits, budget, count)
                theirs = pack(results[args.against].hits, budget, count)
                a = budget_values(question, ours, None, history)[args.metric]
                b = budget_values(question, theirs, None, history)[args.metric]
                if a is None or b is None:
                    continue
                for group in ("overall", question.group):
                    diffs[budget].setdefault(group, []).append(float(a) - float(b))
    print(f"graphmem − {args.against}, {args.metric}, in points; paired bootstrap 95 % interval")
    print("| B | category | questions | difference | interval | better | worse |")
    print("|---|---|---|---|---|---|---|")
    for budget in budgets:
        for p in paired(diffs[budget], args.resamples, args.seed):
            print(
                f"| {budget} | {p.group} | {p.n} | {100 * p.mean:+.1f} | "
                f"{100 * p.low:+.1f} to {100 * p.high:+.1f} | {p.better} | {p.worse} |"
            )
