"""A large chat export read within a memory target: a generated ChatGPT-shaped
``conversations.json`` (the published shape: the ``mapping`` tree, metadata on every
message, a hidden system message per conversation) of ``--mb`` megabytes is read three
ways, each in a process of its own so each peak is its own:

- ``floor``: the interpreter with graphmem's reader imported, nothing read;
- ``json.load``: the whole document parsed at once (what the importer does not do);
- ``graphmem``: ``graphmem.ingest.formats.load`` (ijson, one conversation at a time), the
  dataset a ``graphmem ingest`` holds before it writes.

It prints each one's peak resident memory and seconds, and the ratios against the floor
and ``json.load`` measured in the same run. The target (docs/import.md): graphmem's peak
above the floor at most half of ``json.load``'s (the point of reading a record at a time)
and at most 1.5 times the file's size (a 500 MB export in under 750 MB beside the
interpreter: room for Neo4j's heap and the models on a small machine). The load validates
everything before the first write, so it holds every kept word: its memory grows with the
words kept, not with the JSON around them.

    python -m benchmarks import-size [--mb 500] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

WORDS = [
    "the",
    "plan",
    "trip",
    "visa",
    "apartment",
    "lease",
    "bakery",
    "porto",
    "lisbon",
    "job",
    "interview",
    "recipe",
    "garden",
    "budget",
    "flight",
    "train",
    "museum",
    "doctor",
    "appointment",
    "birthday",
    "gift",
    "weekend",
    "concert",
    "ticket",
    "project",
    "deadline",
    "report",
    "meeting",
    "python",
    "error",
    "server",
    "database",
    "backup",
    "camera",
    "lens",
    "running",
    "marathon",
    "knee",
    "physio",
    "coffee",
    "tea",
    "dinner",
    "friends",
    "family",
    "sister",
    "brother",
]
_CHILD = r"""
import json, sys, time
from pathlib import Path
how, path = sys.argv[1], Path(sys.argv[2])
from graphmem.ingest.exports import ImportOptions
from graphmem.ingest.formats import ReadLimits, load
started = time.perf_counter()
turns = 0
if how == "json.load":
    with path.open("rb") as handle:
        turns = len(json.load(handle))
elif how == "graphmem":
    data = load(path, "chatgpt", ReadLimits(max_file_bytes=4 << 30), ImportOptions(timezone="UTC"))
    turns = data.turn_count()
seconds = time.perf_counter() - started
# VmHWM, not getrusage's ru_maxrss: that one outlives exec, so it would report the
# parent's peak (the generator's) when it is larger.
status = Path("/proc/self/status").read_text().splitlines()
peak = next(int(line.split()[1]) for line in status if line.startswith("VmHWM")) / 1024
print(json.dumps({"peak_mb": round(peak, 1), "seconds": round(seconds, 1), "count": turns}))
"""


def _text(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words)).capitalize() + "."


def _node(
    rng: random.Random, role: str, text: str, at: float, parent: str | None
) -> dict[str, Any]:
    node_id = str(uuid.UUID(int=rng.getrandbits(128)))
    message = {
        "id": node_id,
        "author": {"role": role, "name": None, "metadata": {}},
        "create_time": at,
        "update_time": None,
        "content": {"content_type": "text", "parts": [text]},
        "status": "finished_successfully",
        "end_turn": role == "assistant",
        "weight": 1.0,
        "metadata": {
            "model_slug": "gpt-4o",
            "default_model_slug": "gpt-4o",
            "request_id": uuid.UUID(int=rng.getrandbits(128)).hex,
            "timestamp_": "absolute",
            "is_visually_hidden_from_conversation": role == "system",
        },
        "recipient": "all",
        "channel": None,
    }
    return {"id": node_id, "message": message, "parent": parent, "children": []}


def conversation(rng: random.Random, at: float) -> dict[str, Any]:
    """One conversation: a root, a hidden system message, then user and assistant turns."""
    root, started = str(uuid.UUID(int=rng.getrandbits(128))), at
    mapping: dict[str, Any] = {root: {"id": root, "message": None, "parent": None, "children": []}}
    last = root
    turns = [("system", "")] + [
        (role, _text(rng, rng.randint(5, 40) if role == "user" else rng.randint(80, 400)))
        for _ in range(rng.randint(2, 30))
        for role in ("user", "assistant")
    ]
    for role, text in turns:
        node = _node(rng, role, text, at, last)
        mapping[last]["children"].append(node["id"])
        mapping[node["id"]] = node
        last, at = node["id"], at + rng.uniform(5, 300)
    cid = str(uuid.UUID(int=rng.getrandbits(128)))
    return {
        "title": _text(rng, 4)[:-1],
        "create_time": started,
        "update_time": at,
        "mapping": mapping,
        "moderation_results": [],
        "current_node": last,
        "plugin_ids": None,
        "conversation_id": cid,
        "conversation_template_id": None,
        "gizmo_id": None,
        "is_archived": False,
        "safe_urls": [],
        "default_model_slug": "gpt-4o",
        "id": cid,
    }


def generate(path: Path, megabytes: int, seed: int = 60) -> int:
    """Writes an export of about ``megabytes`` MB; returns its conversations."""
    rng = random.Random(seed)
    at, count, target = 1_700_000_000.0, 0, megabytes << 20
    with path.open("w", encoding="utf-8") as out:
        out.write("[")
        while out.tell() < target:
            out.write((", " if count else "") + json.dumps(conversation(rng, at)))
            at, count = at + rng.uniform(3600, 86400), count + 1
        out.write("]")
    return count


def _measure(how: str, path: Path) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, how, str(path)], capture_output=True, text=True
    )
    if done.returncode != 0:
        raise SystemExit(f"{how} failed: {done.stderr.strip().splitlines()[-1:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks import-size")
    parser.add_argument("--mb", type=int, default=500, help="size of the generated export")
    parser.add_argument("--keep", type=Path, help="write the export here and keep it")
    args = parser.parse_args()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="graphmem-import-"))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "conversations.json"
    started = time.perf_counter()
    conversations = generate(path, args.mb)
    size_mb = path.stat().st_size / (1 << 20)
    print(
        f"generated {size_mb:.0f} MB, {conversations:,} conversations in "
        f"{time.perf_counter() - started:.0f} s"
    )
    rows = {how: _measure(how, path) for how in ("floor", "json.load", "graphmem")}
    floor = rows["floor"]["peak_mb"]
    whole = rows["json.load"]["peak_mb"] - floor
    print("\n| read | peak MB | above floor MB | / json.load | / file size | seconds |")
    print("|---|---:|---:|---:|---:|---:|")
    for how, row in rows.items():
        above = row["peak_mb"] - floor
        print(
            f"| {how} | {row['peak_mb']:.0f} | {above:.0f} | {above / whole:.2f} | "
            f"{above / size_mb:.2f} | {row['seconds']} |"
        )
    mine = rows["graphmem"]["peak_mb"] - floor
    met = mine <= 0.5 * whole and mine <= 1.5 * size_mb
    said = "met" if met else "MISSED"
    print(
        f"\ntarget (above floor <= 0.5 x json.load and <= 1.5 x file size): {said}"
        f"; {rows['graphmem']['count']:,} turns kept"
    )
    if args.keep is None:
        path.unlink()
        folder.rmdir()


if __name__ == "__main__":
    main()
