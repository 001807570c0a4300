"""Type-check every app package with mypy: the packages are the import-linter root packages of
pyproject.toml (so a new app is checked as soon as it joins the layers), the options are
pyproject's [tool.mypy] (the Django and DRF plugins; the rules core strictly). Extra
arguments go to mypy. Exits with mypy's status."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parents[1]


def packages() -> list[str]:
    """The import-linter root packages, in pyproject's order."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return list(config["tool"]["importlinter"]["root_packages"])


def main(argv: list[str]) -> int:
    out, err, status = api.run([*argv, *packages()])
    sys.stdout.write(out)
    sys.stderr.write(err)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
