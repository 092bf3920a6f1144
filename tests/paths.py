"""The checkout's folders, for tests wherever their module sits under tests/ (a test moved to
another folder keeps finding the fixtures, the examples and the docs)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
