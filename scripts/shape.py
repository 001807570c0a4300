"""Print the figures of the code's shape: lines per app (migrations left out), the modules over
600 lines, the functions over 80 lines, `dict[str, Any]` and `Any` in the web apps, the share
of untyped parameters per app, the Celery tasks and the modules that send them.

The apps are the import-linter root packages of pyproject.toml; the web apps are all of them
but the rules core (`validation`). Run from anywhere: `python scripts/shape.py [checkout]`
(the checkout this script is in unless another is named).
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else Path(__file__).resolve().parents[1]
RULES_CORE = "validation"
#: Exempt from the function length target: the compiled kernel, written as one loop for numba.
KERNEL = ("validation/games/redline/compiled.py",)
MODULE_LIMIT = 600
FUNCTION_LIMIT = 80
SENDS = (".delay(", ".apply_async(", "send_task(")
TASK_DECORATORS = {"shared_task", "task"}


def apps() -> list[str]:
    """The import-linter root packages, in pyproject's order."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return list(config["tool"]["importlinter"]["root_packages"])


def modules(app: str) -> Iterator[Path]:
    """The app's Python files, migrations left out, in path order."""
    for path in sorted((ROOT / app).rglob("*.py")):
        if "migrations" not in path.relative_to(ROOT).parts:
            yield path


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def functions(tree: ast.AST) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node


def parameters(fn: ast.FunctionDef | ast.AsyncFunctionDef, *, method: bool) -> list[ast.arg]:
    """The parameters that could carry a type (a method's `self`/`cls` left out)."""
    args = fn.args
    params = [*args.posonlyargs, *args.args, *args.kwonlyargs]
    if args.vararg:
        params.append(args.vararg)
    if args.kwarg:
        params.append(args.kwarg)
    if method and params and params[0].arg in ("self", "cls", "mcs"):
        params = params[1:]
    return params


def methods(tree: ast.AST) -> set[int]:
    """The ids of the functions defined directly in a class body."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    found.add(id(item))
    return found


def decorator_name(node: ast.expr) -> str:
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return ""


def main() -> int:
    names = apps()
    lines: dict[str, int] = {}
    big_modules: list[tuple[int, str]] = []
    long_functions: list[tuple[int, str]] = []
    typed: dict[str, list[int]] = {}
    dict_any = any_count = 0
    dict_any_all = any_all = 0
    tasks: list[str] = []
    senders: dict[str, int] = {}
    for app in names:
        lines[app] = 0
        typed[app] = [0, 0]
        for path in modules(app):
            text = path.read_text()
            count = len(text.splitlines())
            lines[app] += count
            if count > MODULE_LIMIT:
                big_modules.append((count, rel(path)))
            tree = ast.parse(text)
            in_class = methods(tree)
            for fn in functions(tree):
                length = (fn.end_lineno or fn.lineno) - fn.lineno + 1
                if length > FUNCTION_LIMIT:
                    mark = " (compiled kernel, exempt)" if rel(path) in KERNEL else ""
                    long_functions.append((length, f"{rel(path)}:{fn.lineno} {fn.name}{mark}"))
                for param in parameters(fn, method=id(fn) in in_class):
                    typed[app][1] += 1
                    typed[app][0] += param.annotation is not None
                if any(decorator_name(d) in TASK_DECORATORS for d in fn.decorator_list):
                    tasks.append(f"{rel(path)}:{fn.name}")
            # Comments and import lines left out: a use of `Any` is counted, not its import.
            code = "\n".join(
                line.split("#", 1)[0]
                for line in text.splitlines()
                if not line.lstrip().startswith(("from typing import", "import typing"))
            )
            d = len(re.findall(r"dict\[str,\s*Any\]", code))
            a = len(re.findall(r"\bAny\b", code))
            dict_any_all += d
            any_all += a
            if app != RULES_CORE:
                dict_any += d
                any_count += a
            sent = sum(code.count(s) for s in SENDS)
            if sent:
                senders[rel(path)] = sent

    print("Lines per app (non-migration)")
    for app in names:
        print(f"  {app:<12} {lines[app]:>7,}")
    print(f"  {'total':<12} {sum(lines.values()):>7,}")
    print(f"\nModules over {MODULE_LIMIT} lines: {len(big_modules)}")
    for count, name in sorted(big_modules, reverse=True):
        print(f"  {count:>5}  {name}")
    outside = [f for f in long_functions if "exempt" not in f[1]]
    print(
        f"\nFunctions over {FUNCTION_LIMIT} lines: {len(long_functions)} "
        f"({len(outside)} outside the compiled kernel)"
    )
    for length, name in sorted(long_functions, reverse=True):
        print(f"  {length:>5}  {name}")
    print("\nAnnotations (comments and typing imports left out)")
    print(f"  dict[str, Any] in the web apps: {dict_any:>5}   (all apps: {dict_any_all})")
    print(f"  Any in the web apps:            {any_count:>5}   (all apps: {any_all})")
    print("\nUntyped parameters per app (self/cls left out)")
    for app in names:
        done, total = typed[app]
        share = 100 * (total - done) / total if total else 0.0
        print(f"  {app:<12} {total - done:>5} of {total:>5}  {share:5.1f} %")
    print(f"\nCelery tasks: {len(tasks)}")
    for name in tasks:
        print(f"  {name}")
    print(f"\nModules that send tasks ({', '.join(SENDS)}): {len(senders)}")
    for name, sent in sorted(senders.items()):
        print(f"  {sent:>3}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
