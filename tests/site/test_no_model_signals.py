"""No business logic in signals: what a write causes (a rule set's pins released before it
is deleted, the bulk files rebuilt after a card changes, saved decks re-checked after the
catalogue changes) is done by the service that writes, called explicitly, never by a
model signal a reader cannot see from the call. The apps' code connects no model signal."""

from __future__ import annotations

import ast
from pathlib import Path

from django.db.models import signals

from catalogue.models import Card, Expansion, Printing, RuleSet

ROOT = Path(__file__).resolve().parents[2]
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
MODEL_SIGNALS = {
    "pre_init",
    "post_init",
    "pre_save",
    "post_save",
    "pre_delete",
    "post_delete",
    "m2m_changed",
}


def _uses_of_model_signals() -> list[str]:
    found = []
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            tree = ast.parse(path.read_text(), filename=str(path))
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and node.module == "django.db.models.signals":
                    names = {a.name for a in node.names} & MODEL_SIGNALS
                    if names:
                        where = f"{path.relative_to(ROOT)}:{node.lineno}"
                        found.append(f"{where} imports {', '.join(sorted(names))}")
    return found


def test_the_apps_connect_no_model_signal():
    assert _uses_of_model_signals() == []


def test_no_receiver_listens_to_the_catalogue_models():
    for model in (Card, Expansion, Printing, RuleSet):
        for name in sorted(MODEL_SIGNALS - {"pre_init", "post_init", "m2m_changed"}):
            signal = getattr(signals, name)
            assert not signal.has_listeners(model), f"{name} of {model.__name__} has a receiver"
