"""One job system in truth: no module but the job runner (cardsite/jobs.py) sends a Celery
task, except the one-shot tasks listed below, each with its reason; every task the workers
know and every task beat sends is the runner's or listed here; a task is sent by import, or
(where the layers forbid the import) through the one typed registry, `cardsite.task_refs`,
never by a dotted path.

Read from the source with `ast`, so a new hand-written chunked system (its own chunk task, a
sweep that sends chunks, a lock beside them) fails here before it lands: make it a job kind
(`cardsite.jobs.JobKind`) instead. Before, the decklists' legality re-checks sent their own
chunk task from a beat sweep, and a catalogue change re-checked every deck of a game in one
task with no row."""

from __future__ import annotations

import ast
from pathlib import Path

from django.conf import settings

from cardsite import task_refs
from cardsite.celery import app

ROOT = Path(__file__).resolve().parents[2]

#: The job runner: it sends the one chunk task of every job (and the reaper sends again).
RUNNER = {"cardsite.jobs"}

#: Modules that send a task outside the job runner, with the task (as the source names it)
#: and why it is not a job.
ONE_SHOT_SENDS: dict[tuple[str, str], str] = {
    ("cardsite.views", "answer_ping"): (
        "the health page's worker ping: one round trip through the broker that proves a "
        "worker answers; nothing to cut into chunks or resume"
    ),
    ("decklists.services.publish", "task_refs.TELL_FOLLOWERS"): (
        "a decklist's publication told to its author's followers, once (notices are unique "
        "per decklist and follower); told in-process when the broker is down"
    ),
    ("cardsite.task_refs", "self.task()"): (
        "the typed registry's `delay`: it passes on what its callers send, and each caller "
        "is checked here"
    ),
}

#: The tasks the workers know besides the job runner's, and why each is not a job kind.
RUNNER_TASKS = {"jobs.run_chunk", "jobs.reap"}
OTHER_TASKS: dict[str, str] = {
    "cardsite.answer_ping": "the health page's worker ping (one-shot)",
    "decklists.tell_followers": "a publication's notices to followers (one-shot)",
    "notices.send_digests": "the daily digest email of notices (beat, one-shot)",
    "oauth.clear_expired": "deletes expired OAuth tokens (beat, one statement)",
    "decks.recheck_rule_sets_taking_effect": (
        "beat: starts the day's re-check jobs, once per rule set (a job's key)"
    ),
    "decklists.recheck_due": (
        "beat: starts a decklist re-check job of each format whose rows are not today's"
    ),
}

#: Celery's own names for sending a task: calling one of these is sending.
SEND_METHODS = {
    "delay",
    "apply_async",
    "send_task",
    "delay_on_commit",
    "apply_async_on_commit",
}
#: Canvas methods: sending once applied; counted when called on a task (a name imported
#: from a tasks module or the typed registry, or a task defined in the module).
CANVAS_METHODS = {"s", "si", "signature", "map", "starmap", "chunks"}
CANVAS_FUNCTIONS = {"signature", "group", "chain", "chord", "chunks", "xmap", "xstarmap"}


def _app_modules():
    not_app_code = {"tests", "node_modules", "static", "templates", "docs"}
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT).parts
        if parts[0] in not_app_code or parts[0].startswith(".") or "migrations" in parts:
            continue
        if any(p.startswith(".") or p.endswith(".egg-info") for p in parts):
            continue
        module = ".".join(parts)[: -len(".py")].removesuffix(".__init__")
        yield module, ast.parse(path.read_text(), filename=str(path))


def _task_names(tree: ast.Module) -> set[str]:
    """Names in a module bound to tasks: imported from a tasks module or the typed
    registry, or defined there as a task."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            last = node.module.rsplit(".", 1)[-1]
            if last in ("tasks", "task_refs"):
                names |= {a.asname or a.name for a in node.names}
        elif isinstance(node, ast.FunctionDef) and any(
            "task" in ast.unparse(d) for d in node.decorator_list
        ):
            names.add(node.name)
    return names


def _canvas_imports(tree: ast.Module) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("celery"):
            names |= {a.asname or a.name for a in node.names if a.name in CANVAS_FUNCTIONS}
    return names


def _root(node: ast.expr) -> str:
    while isinstance(node, ast.Attribute | ast.Call):
        node = node.value if isinstance(node, ast.Attribute) else node.func
    return node.id if isinstance(node, ast.Name) else ""


def sends(tree: ast.Module) -> list[tuple[str, int]]:
    """(what is sent, as the source names it; line) of every task sent in a module."""
    tasks, canvas = _task_names(tree), _canvas_imports(tree)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute):
            receiver = ast.unparse(func.value)
            if func.attr in SEND_METHODS:
                found.append((receiver, node.lineno))
            elif func.attr in CANVAS_METHODS and _root(func.value) in tasks:
                found.append((receiver, node.lineno))
        elif isinstance(func, ast.Name) and func.id in canvas:
            found.append((func.id, node.lineno))
    return found


def test_no_module_but_the_job_runner_sends_a_task_unless_it_is_a_listed_one_shot():
    seen = set()
    strays = []
    for module, tree in _app_modules():
        for what, line in sends(tree):
            if module in RUNNER:
                continue
            if (module, what) in ONE_SHOT_SENDS:
                seen.add((module, what))
                continue
            strays.append(f"{module}:{line} sends {what}")
    assert not strays, (
        "only the job runner sends tasks: make this work a job kind (cardsite.jobs), or add a "
        "one-shot task to ONE_SHOT_SENDS with its reason:\n" + "\n".join(strays)
    )
    # Each listed one-shot is still sent where it says (the list does not go stale).
    assert seen == set(ONE_SHOT_SENDS)


def test_the_reader_finds_every_way_of_sending():
    source = """
from celery import group, signature as sig
from .tasks import work, other
work.delay(1)
other.apply_async((1,), countdown=3)
app.send_task("x.y", (1,))
work.s(1).delay()
group(work.si(i) for i in range(3))()
sig("x.y")
services.signature(game_slug="a")  # not a task: a decklist's signature
"""
    found = sends(ast.parse(source))
    assert sorted(found) == sorted(
        [
            ("work", 4),
            ("other", 5),
            ("app", 6),
            ("work", 7),
            ("work.s(1)", 7),
            ("group", 8),
            ("work", 8),
            ("sig", 9),
        ]
    )


def test_every_task_is_the_job_runners_or_a_listed_one_shot():
    app.loader.import_default_modules()
    known = {name for name in app.tasks if not name.startswith("celery.")}
    assert known == RUNNER_TASKS | set(OTHER_TASKS), (
        "a new task: make the work a job kind (cardsite.jobs), or list a one-shot task in "
        "OTHER_TASKS with its reason"
    )
    scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert scheduled <= known and "jobs.reap" in scheduled


def test_tasks_are_named_by_dotted_path_only_in_the_typed_registry():
    """A task's name is written where it is defined (`name=`), in beat's schedule and the
    control queue's routing, and in `cardsite.task_refs`; nowhere else is a task sent or
    imported by a string (`import_string`, `send_task`)."""
    app.loader.import_default_modules()
    names = {name for name in app.tasks if not name.startswith("celery.")}
    dotted_tasks = set()
    for name in names:
        task = app.tasks[name]
        dotted_tasks.add(f"{task.__module__}.{task.__name__}")
    allowed = {"cardsite.settings", "cardsite.celery", "cardsite.task_refs"}
    strays = []
    for module, tree in _app_modules():
        defined = {
            kw.value.value
            for node in ast.walk(tree)
            if isinstance(node, ast.Call)
            for kw in node.keywords
            if kw.arg == "name" and isinstance(kw.value, ast.Constant)
        }
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
                continue
            if node.value in dotted_tasks:
                strays.append(f"{module}:{node.lineno} names {node.value}")
            elif node.value in names and module not in allowed and node.value not in defined:
                strays.append(f"{module}:{node.lineno} names {node.value}")
    assert not strays, "\n".join(strays)
    for ref in task_refs.ALL:
        assert ref.name in names, ref
