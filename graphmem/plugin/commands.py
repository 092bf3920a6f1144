"""The commands designs add to ``graphmem``, as their packages declare them, found without
importing any design: ``graphmem --help`` lists them in milliseconds, where importing the
designs takes seconds (spaCy, torch, the driver).

A design package that adds commands (``Design.commands``) declares them in its
``__init__.py`` as well: ``COMMANDS = {"profile": "<the command's one-line help>"}``. The
packages are the built-in ones under ``graphmem/designs/`` and those of the ``graphmem.designs``
entry points (``pkg.design:DESIGN`` -> ``pkg``). The commands themselves still come from
``Design.commands`` when one runs; the contract suite checks that the two agree.
"""

from __future__ import annotations

import configparser
import importlib
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


def design_packages() -> list[str]:
    """The built-in design packages, then every entry point's package."""
    found = builtin_packages()
    for target in _entry_point_targets():
        module = target.partition(":")[0].strip()
        found.append(module.rpartition(".")[0] or module)
    return found


def _entry_point_targets() -> list[str]:
    """The ``graphmem.designs`` entry points' targets (``module:attr``) of the distributions
    on ``sys.path``. Only their ``entry_points.txt`` files are read: ``importlib.metadata``
    reads every distribution's metadata first (35-60 ms with this project's 460 packages,
    more than the rest of ``graphmem --help``; this takes about 2 ms). The registry loads
    the designs through ``importlib.metadata`` itself."""
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


def declared_commands(packages: list[str] | None = None) -> dict[str, str]:
    """Command name -> its one-line help, as the design packages declare them (``COMMANDS``
    in each package's ``__init__``); a package that cannot be imported declares nothing
    here (running a command reports it)."""
    found: dict[str, str] = {}
    for name in design_packages() if packages is None else packages:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        declared = getattr(module, "COMMANDS", {})
        if isinstance(declared, dict):
            found.update({str(k): str(v) for k, v in declared.items()})
    return found


def package_of(hook: object) -> str:
    """The package whose ``COMMANDS`` should list a ``Design.commands`` hook's commands:
    the package of the module that defines the hook."""
    module = str(getattr(hook, "__module__", ""))
    return module.rpartition(".")[0] or module
