"""Fixtures for the rules core tests: plain CardFacts, no database, no Django."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # `pytest` run without the repository root on the path
    sys.path.insert(0, str(ROOT))
