"""Where design records are, found cheaply: the built-in design packages and the targets of
the ``graphmem.designs`` entry points. ``graphmem --help`` lists the commands the designs
declare (``Design.commands``) from their records through these, in about 0.2 s (pydantic
and the records' settings) where importing the designs' code takes seconds (spaCy, torch,
the driver).
"""

from __future__ import annotations

import configparser
import os
import pkgutil
import sys

ENTRY_POINT_GROUP = "graphmem.designs"


def builtin_packages() -> list[str]:
    """The built-in design packages: every sub-package of ``graphmem.designs``, by name.
    The one place below the designs that imports ``graphmem.designs``: for its folder, to
    find the packages in it (their code loads only when the registry asks for a design)."""
    import graphmem.designs as package

    return [
        f"{package.__name__}.{info.name}"
        for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name)
        if info.ispkg
    ]


def entry_point_targets() -> list[str]:
    """The ``graphmem.designs`` entry points' targets (``module:attr``) of the distributions
    on ``sys.path``. Only their ``entry_points.txt`` files are read: ``importlib.metadata``
    reads every distribution's metadata first (35-60 ms with this project's 460 packages;
    this takes about 2 ms). The registry loads the designs through ``importlib.metadata``
    itself; ``graphmem --help`` reads their records through these targets."""
    header = f"[{ENTRY_POINT_GROUP}]"
    targets: list[str] = []
    for folder in sys.path:
        if not folder or not os.path.isdir(folder):
            continue
        for entry in os.scandir(folder):
            if not entry.name.endswith((".dist-info", ".egg-info")):
                continue
            try:
                with open(os.path.join(entry.path, "entry_points.txt"), encoding="utf-8") as f:
                    text = f.read()
            except OSError:
                continue
            if header in text:
                parser = configparser.ConfigParser(delimiters=("=",), interpolation=None)
                parser.optionxform = str  # type: ignore[assignment,method-assign]
                parser.read_string(text)
                targets.extend(parser[ENTRY_POINT_GROUP].values())
    return targets
