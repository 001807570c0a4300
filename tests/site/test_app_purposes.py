"""Every app says what it is for in its package's docstring, the first thing a newcomer reads
(docs/architecture.md's map points there)."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _apps() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return list(config["tool"]["importlinter"]["root_packages"])


def test_every_app_opens_with_its_purpose():
    missing = []
    for app in _apps():
        source = (ROOT / app / "__init__.py").read_text()
        doc = ast.get_docstring(ast.parse(source)) or ""
        if len(doc.split()) < 8:
            missing.append(f"{app}/__init__.py: {doc!r}")
    assert not missing, "apps without a docstring saying what they are for:\n" + "\n".join(missing)


def test_every_app_is_on_the_map():
    text = (ROOT / "docs" / "architecture.md").read_text()
    the_map = text.split("## The map", 1)[1].split("\n## ", 1)[0]
    assert [app for app in _apps() if f"`{app}/`" not in the_map] == []
