"""The rule set file: `import_rule_set` and `export_rule_set`, all-or-nothing, every bad row
named; re-importing a code updates it."""

from __future__ import annotations

import json

import pytest
from django.core.management import CommandError, call_command

from catalogue.models import RuleSet, RuleSetCard
from catalogue.rule_set_file import RuleSetImportFailed, rule_set_export, rule_set_import
from catalogue.services import sample_rule_set_files

pytestmark = pytest.mark.django_db


def doc(**changes):
    base = {
        "rule_set": 1,
        "game": "redline",
        "format": "standard",
        "code": "T1",
        "name": "Test season",
        "announced": "2026-12-01",
        "effective": "2027-03-01",
        "expansions": ["RL1"],
        "cards": [
            {"name": "Tigercat", "banned": True},
            {"name": "Kestrel", "limit": 2},
            {"name": "Longbow", "cost": 4},
            {"name": "Smoke Screen", "text": "Errata: only on your turn."},
        ],
        "note": "Why it changed.",
    }
    base.update(changes)
    return base


def errors_of(data):
    with pytest.raises(RuleSetImportFailed) as exc:
        rule_set_import(data=data)
    return [str(e) for e in exc.value.report.errors]


def test_the_sample_rule_sets_are_loaded_and_marked_sample(sample_catalogue):
    assert len(sample_rule_set_files()) == 2
    sets = RuleSet.objects.order_by("game__slug", "effective")
    assert [(s.game.slug, s.code) for s in sets] == [
        ("hex-skirmish", "P1"),
        ("hex-skirmish", "P2"),
        ("redline", "S1"),
        ("redline", "S2"),
    ]
    assert all(s.sample and "Sample data" in s.note for s in sets)


def test_import_writes_the_set_and_its_entries(sample_catalogue):
    report = rule_set_import(data=doc())
    assert report.summary() == "1 rule set: 1 was created, 0 updated, 0 unchanged."
    rs = RuleSet.objects.get(code="T1")
    assert list(rs.expansions.values_list("code", flat=True)) == ["RL1"]
    entries = {e.card.name: (e.banned, e.limit, e.cost, e.text) for e in rs.cards.all()}
    assert entries == {
        "Tigercat": (True, None, None, ""),
        "Kestrel": (False, 2, None, ""),
        "Longbow": (False, None, 4, ""),
        "Smoke Screen": (False, None, None, "Errata: only on your turn."),
    }


def test_reimport_updates_in_place_and_the_same_file_changes_nothing(sample_catalogue):
    rule_set_import(data=doc())
    again = rule_set_import(data=doc())
    assert again.summary() == "1 rule set: 0 were created, 0 updated, 1 unchanged."
    changed = doc(cards=[{"name": "Tigercat", "limit": 1}], name="Renamed")
    preview = rule_set_import(data=changed, dry_run=True)
    assert preview.plans[0].changes == [
        "name: 'Test season' → 'Renamed'",
        "Kestrel no longer limited (was 2)",
        "Longbow cost 4 → 3",
        "Smoke Screen errata removed",
        "Tigercat no longer banned",
        "Tigercat limited to 1",
    ]
    assert RuleSet.objects.get(code="T1").name == "Test season"  # a dry run writes nothing
    rule_set_import(data=changed)
    rs = RuleSet.objects.get(code="T1")
    assert rs.name == "Renamed"
    assert list(rs.cards.values_list("card__name", "limit")) == [("Tigercat", 1)]
    assert RuleSet.objects.filter(code="T1").count() == 1


def test_export_reads_back_unchanged(sample_catalogue):
    rule_set_import(data=doc())
    exported = rule_set_export(game_slug="redline", format="standard", code="T1")
    assert exported == {**doc(), "cards": sorted(doc()["cards"], key=lambda c: c["name"])}
    assert rule_set_import(data=exported).plans[0].unchanged


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        (
            {"game": "chess"},
            "rule set #1 (T1), game: 'chess' is not a game; use one of",
        ),
        (
            {"format": "sealed"},
            "rule set #1 (T1), format: 'sealed' is not a format of REDLINE: Tactical Card Combat; use one of standard, scramble, scenario",
        ),
        (
            {"expansions": ["RL1", "RL9"]},
            "rule set #1 (T1), expansions[1]: 'RL9' is not an expansion of REDLINE: Tactical Card Combat; known: RL1",
        ),
        (
            {"cards": [{"name": "Tigercat", "banned": True}, {"name": "Tigercatt", "limit": 1}]},
            "rule set #1 (T1), card #1 (Tigercatt), name: no card named 'Tigercatt' in REDLINE: Tactical Card Combat",
        ),
        (
            {"cards": [{"name": "Kestrel", "limit": -1}]},
            "rule set #1 (T1), card #0 (Kestrel), limit: -1 is not a whole number from 0 to 1000",
        ),
        (
            {"cards": [{"name": "Longbow", "cost": -2}]},
            "rule set #1 (T1), card #0 (Longbow), cost: -2 is not a whole number from 0 to "
            "1,000,000",
        ),
        (
            {"announced": "2027-04-01"},
            "rule set #1 (T1), effective: 2027-03-01 is before the announcement on 2027-04-01",
        ),
        (
            {"effective": "2027-13-01"},
            "rule set #1 (T1), effective: '2027-13-01' is not a date like 2027-01-01",
        ),
        (
            {"cards": [{"name": "Kestrel", "limit": 2}, {"name": "kestrel", "limit": 1}]},
            "rule set #1 (T1), card #1 (kestrel), name: Kestrel has two entries in this rule set",
        ),
        (
            {"cards": [{"name": "Kestrel", "limits": 2}]},
            "rule set #1 (T1), card #0 (Kestrel), limits: unknown field",
        ),
        ({"code": "has space"}, "rule set #1 (has space), code: required: a short code"),
    ],
)
def test_every_bad_row_is_named_and_nothing_is_written(sample_catalogue, changes, expected):
    errors = errors_of([doc(code="OK", effective="2028-01-01"), doc(**changes)])
    assert any(e.startswith(expected) for e in errors), errors
    assert not RuleSet.objects.filter(code__in=["OK", "T1"]).exists()


def test_two_sets_of_a_format_on_one_date_in_the_file_or_stored(sample_catalogue):
    errors = errors_of([doc(), doc(code="T2")])
    assert errors == [
        "rule set #1 (T2), effective: another rule set of standard in this file (#0) takes "
        "effect on 2027-03-01 too"
    ]
    # S2 of the sample data takes effect on 2027-01-01.
    errors = errors_of(doc(code="T3", effective="2027-01-01"))
    assert errors == [
        "rule set #0 (T3), effective: rule set S2 of standard already takes effect on "
        "2027-01-01; two rule sets of one format cannot"
    ]
    # The same date in another format, or moving S2 away in the same file, is fine.
    rule_set_import(
        data=[
            doc(code="T3", effective="2027-01-01"),
            {
                **rule_set_export(game_slug="redline", format="standard", code="S2"),
                "effective": "2027-02-01",
            },
        ]
    )
    assert RuleSet.objects.get(code="T3").effective.isoformat() == "2027-01-01"
    assert RuleSet.objects.get(code="S2").effective.isoformat() == "2027-02-01"


def test_every_error_of_a_file_at_once(sample_catalogue):
    errors = errors_of(
        doc(game="redline", format="standard", announced="x", cards=[{"name": "Nope"}, 5])
    )
    assert errors == [
        "rule set #0 (T1), announced: 'x' is not a date like 2026-12-01",
        "rule set #0 (T1), card #0 (Nope), name: no card named 'Nope' in REDLINE: Tactical Card Combat",
        "rule set #0 (T1), card #0 (Nope), card: says nothing: give banned, limit, cost or text",
        "rule set #0 (T1), card #1, card: must be a JSON object with a name",
    ]


def test_the_commands(sample_catalogue, tmp_path, capsys):
    path = tmp_path / "t1.json"
    path.write_text(json.dumps(doc()))
    call_command("import_rule_set", str(path), "--dry-run")
    assert not RuleSet.objects.filter(code="T1").exists()
    call_command("import_rule_set", str(path))
    assert RuleSetCard.objects.filter(rule_set__code="T1").count() == 4
    out = tmp_path / "out.json"
    call_command("export_rule_set", "redline", "standard", "T1", "-o", str(out))
    assert json.loads(out.read_text())["code"] == "T1"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc(cards=[{"name": "Nope", "banned": True}])))
    with pytest.raises(CommandError, match="1 error"):
        call_command("import_rule_set", str(bad))
    assert (
        "card #0 (Nope), name: no card named 'Nope' in REDLINE: Tactical Card Combat"
        in capsys.readouterr().err
    )
    with pytest.raises(CommandError, match="no rule set 'T9'"):
        call_command("export_rule_set", "redline", "standard", "T9")
