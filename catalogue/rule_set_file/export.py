"""`rule_set_export`: a stored rule set as the document the import reads back unchanged."""

from __future__ import annotations

from typing import Any

from ..models import RuleSet
from .plans import (
    _stored,
)
from .report import (
    FILE_VERSION,
)


def rule_set_export(*, game_slug: str, format: str, code: str) -> dict[str, Any]:
    """A stored rule set as the document `rule_set_import` reads back unchanged.
    RuleSet.DoesNotExist when there is none."""
    rule_set = RuleSet.objects.select_related("game").get(
        game__slug=game_slug, format=format, code=code
    )
    fields, entries = _stored(rule_set)
    doc: dict[str, Any] = {
        "rule_set": FILE_VERSION,
        "game": game_slug,
        "format": format,
        "code": rule_set.code,
        "name": rule_set.name,
        "announced": rule_set.announced.isoformat(),
        "effective": rule_set.effective.isoformat(),
        "expansions": fields["expansions"],
        "cards": [
            {"name": name, **entry.as_dict()}
            for name, entry in sorted(entries.items(), key=lambda kv: kv[0].lower())
        ],
        "note": rule_set.note,
    }
    if rule_set.sample:
        doc["sample"] = True
    return doc
