"""Imports inside function bodies in the apps' code are few, and each says why it is there.

An import inside a function hides a dependency from the reader and from import-linter's
view of the layers until the function runs; most were there to step round an import cycle.
The apps have no import cycle now (an `acyclic_siblings` contract in pyproject.toml), so an
import belongs at the top of its module unless it must wait: an app's `ready()` importing
what imports the models, an import that would reach back into a module still loading. Each
such import carries the reason in a comment on its line or on the lines just above it.

`python -m tests.site.test_late_imports` lists them.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: The apps' code: not the tests, the migrations, the benchmarks or the rules core (which
#: imports no Django and has its own contract).
APPS = (
    "cardsite",
    "catalogue",
    "notices",
    "decks",
    "collection",
    "tabletop",
    "simulations",
    "decklists",
    "play",
)
#: At most this many imports inside function bodies in the apps' code.
LIMIT = 20


@dataclass(frozen=True)
class LateImport:
    path: str
    line: int
    statement: str
    reason: str

    def __str__(self) -> str:
        said = f"  # {self.reason}" if self.reason else "  (no reason given)"
        return f"{self.path}:{self.line}: {self.statement}{said}"


def _comment(line: str) -> str:
    """The comment of a source line ("" when none), left out when it is only a linter's
    instruction (`noqa`, `type: ignore`), which is no reason."""
    if "#" not in line:
        return ""
    text = line.split("#", 1)[1].strip()
    return "" if text.startswith(("noqa", "type:")) else text


def _reason(lines: list[str], node: ast.stmt) -> str:
    """The comment that gives the reason for the import `node`: on its own lines, or the
    block of comment lines just above it."""
    end = node.end_lineno or node.lineno
    for number in range(node.lineno, end + 1):
        said = _comment(lines[number - 1])
        if said:
            return said
    above: list[str] = []
    number = node.lineno - 1
    while number >= 1 and lines[number - 1].strip().startswith("#"):
        said = _comment(lines[number - 1])
        if said:
            above.insert(0, said)
        number -= 1
    return " ".join(above)


def late_imports_in(source: str, path: str = "<source>") -> list[LateImport]:
    """The imports inside function bodies of `source`, each with its reason ("" when none)."""
    lines = source.splitlines()
    found: list[LateImport] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if in_function and isinstance(child, (ast.Import, ast.ImportFrom)):
                statement = " ".join(lines[child.lineno - 1].split())
                found.append(LateImport(path, child.lineno, statement, _reason(lines, child)))
            visit(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)))

    visit(ast.parse(source), False)
    return found


def late_imports() -> list[LateImport]:
    """Every import inside a function body in the apps' code."""
    found: list[LateImport] = []
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            relative = path.relative_to(ROOT)
            if "migrations" in relative.parts:
                continue
            found += late_imports_in(path.read_text(encoding="utf-8"), str(relative))
    return found


def test_the_counter_finds_an_import_in_a_function_and_its_reason():
    source = (
        "import os\n"
        "\n"
        "def f():\n"
        "    import json\n"
        "    # Imported here: it reads the settings.\n"
        "    from django.conf import settings\n"
        "    return json, settings\n"
        "\n"
        "class A:\n"
        "    def g(self):\n"
        "        from x import y  # noqa: F401\n"
        "        import z  # a late import, for z's sake\n"
    )
    found = late_imports_in(source)
    assert [(i.line, i.reason) for i in found] == [
        (4, ""),
        (6, "Imported here: it reads the settings."),
        (11, ""),
        (12, "a late import, for z's sake"),
    ]


def test_the_apps_import_inside_functions_rarely_and_each_time_say_why():
    found = late_imports()
    listed = "\n".join(str(i) for i in found)
    assert len(found) <= LIMIT, (
        f"{len(found)} imports inside functions (at most {LIMIT}):\n{listed}"
    )
    unexplained = [str(i) for i in found if not i.reason]
    assert not unexplained, "imports inside functions without a reason:\n" + "\n".join(unexplained)


if __name__ == "__main__":
    everything = late_imports()
    for late in everything:
        print(late)
    print(f"{len(everything)} imports inside function bodies in {', '.join(APPS)}")
