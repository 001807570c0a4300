"""Fixtures for the play-tool tests: plain CardFacts, no database, no Django."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
if str(ROOT) not in sys.path:  # `pytest` run without the repository root on the path
    sys.path.insert(0, str(ROOT))
