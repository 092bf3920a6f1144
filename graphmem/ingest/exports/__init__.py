"""Importers of the chat exports people have: one module per app, each an ``IMPORTER``.

``IMPORTERS`` lists them in the order ``--format auto`` asks them whether a file is theirs
(each answers from file names and the first bytes, never the whole file). docs/import.md
tells, for each app, how to get the export and what is kept.
"""

from __future__ import annotations

from graphmem.ingest.exports import chatgpt, claude, discord, slack, table, telegram, whatsapp
from graphmem.ingest.exports.base import Importer, ImportOptions

IMPORTERS: tuple[Importer, ...] = (
    chatgpt.IMPORTER,
    claude.IMPORTER,
    telegram.IMPORTER,
    discord.IMPORTER,
    slack.IMPORTER,
    whatsapp.IMPORTER,
    table.IMPORTER,
)
BY_NAME = {i.name: i for i in IMPORTERS}

__all__ = ["BY_NAME", "IMPORTERS", "ImportOptions", "Importer"]
