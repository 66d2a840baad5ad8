"""A private copy of one game to change freely."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CONTENT = ROOT / "content"


@pytest.fixture
def content(tmp_path: Path) -> Path:
    """tmp/content with klepka, without its translations (the shared strings are cardgen's own)."""
    target = tmp_path / "content"
    for name in ("klepka",):
        shutil.copytree(CONTENT / name, target / name, ignore=shutil.ignore_patterns("*.po", "*.pot"))
    return target

