"""A verdict crosses from the rules core to the web as a type: `Report.as_dict` is what a saved
deck stores and `Report.from_dict` reads it back, the same report, whatever it holds; a
verdict stored before a key existed reads with that key's default."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from tests.validation import pools
from validation.runner import Report, validate
from validation.types import Violation

text = st.text(max_size=40)
json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**53), max_value=2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | text
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text, inner, max_size=4),
    max_leaves=12,
)
violations = st.builds(
    Violation,
    code=text,
    message=text,
    severity=st.sampled_from(["error", "warning"]),
    section=text,
    cards=st.lists(text, max_size=4).map(tuple),
    lines=st.lists(st.integers(min_value=1, max_value=10_000), max_size=4).map(tuple),
)
reports = st.builds(
    Report,
    legal=st.booleans(),
    errors=st.lists(violations, max_size=4),
    warnings=st.lists(violations, max_size=4),
    totals=st.dictionaries(text, json_values, max_size=5),
    rule_set=st.none() | st.text(min_size=1, max_size=20),
)


@given(reports)
def test_a_report_read_back_from_its_json_is_the_same_report(report):
    stored = json.loads(json.dumps(report.as_dict()))  # as a JSON column keeps it
    assert Report.from_dict(stored) == report
    assert Report.from_dict(stored).as_dict() == stored


def test_real_verdicts_read_back_the_same():
    """Verdicts of the rules core itself, legal and not, with totals, of three games."""
    broken = pools.redline_deck(
        arsenal=pools.replace(pools.redline_sections()["arsenal"], "Tigercat", ("Tigercat", 9))
    )
    for game, deck in (
        ("redline", pools.redline_deck()),
        ("redline", broken),
        ("tactical-assault", pools.ta_deck()),
        ("hex-skirmish", pools.hs_deck()),
    ):
        report = validate(game, "standard", deck)
        assert Report.from_dict(json.loads(json.dumps(report.as_dict()))) == report
    assert not validate("redline", "standard", broken).legal


def test_a_verdict_stored_before_lines_and_warnings_were_kept_reads_with_their_defaults():
    stored = {
        "legal": False,
        "errors": [{"code": "deck.card", "message": "Ghost is no longer in the catalogue"}],
        "totals": {"points": 12},
    }
    report = Report.from_dict(stored)
    assert not report.legal and report.warnings == [] and report.rule_set is None
    assert report.errors == [Violation("deck.card", "Ghost is no longer in the catalogue")]
    assert report.points == 12
