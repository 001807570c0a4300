"""The rule set file: import and export of a format's rule sets in the JSON of the game spec.

A file holds one rule set (a JSON object) or several (a list of them):

    {"rule_set": 1, "game": "<game>", "format": "standard", "code": "S2",
     "name": "Season 2", "announced": "2026-12-01", "effective": "2027-01-01",
     "expansions": ["RL1", "RL2"],
     "cards": [{"name": "Card A", "banned": true}, {"name": "Card B", "limit": 2},
               {"name": "Card C", "cost": 4}, {"name": "Card D", "text": "Errata: …"}],
     "note": "Why it changed.", "sample": false}

An import is all-or-nothing, like an expansion's: every rule set and card row is checked
first and every bad one named (an unknown game, format, expansion or card, a negative limit
or cost, an effective date before the announcement, two rule sets of one format with the same
effective date); only a file without a single error is written, in one transaction. The
identity of a rule set is (game, format, code): importing the same code again updates it, and
a rule set the file leaves as it is stored is not written again. Each rule set written is
announced through `catalogue.rulesets.rule_set_changed` once the transaction commits.

One module per step: `report` (errors, plans and the bounds of a file), `plans` (a rule
set against the stored ones), `checks` (`check_rule_sets`), `importing`
(`rule_set_import`) and `export` (`rule_set_export`).
"""

from .checks import check_rule_sets
from .export import rule_set_export
from .importing import rule_set_import
from .plans import plan_facts
from .report import (
    FILE_VERSION,
    DeckVerdicts,
    Entry,
    Plan,
    RuleSetError,
    RuleSetImportFailed,
    RuleSetImportReport,
)

__all__ = [
    "FILE_VERSION",
    "DeckVerdicts",
    "Entry",
    "Plan",
    "RuleSetError",
    "RuleSetImportFailed",
    "RuleSetImportReport",
    "check_rule_sets",
    "plan_facts",
    "rule_set_export",
    "rule_set_import",
]
