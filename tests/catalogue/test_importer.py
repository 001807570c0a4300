"""Expansion import and export: all-or-nothing, every bad row reported, idempotent."""

import copy
import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from catalogue.importer import ImportFailed, expansion_export, expansion_import, read_expansion_file
from catalogue.models import Card, Expansion, Printing
from catalogue.services import sample_data_files
from validation.packages import sample_expansions

pytestmark = pytest.mark.django_db

REDLINE = sample_expansions("redline")[0]


def redline_doc():
    return read_expansion_file(REDLINE)


def snapshot():
    return (
        sorted(Card.objects.values_list("game__slug", "name", "kind", "faction", "cost", "text")),
        sorted(
            (k, json.dumps(v, sort_keys=True))
            for k, v in Card.objects.values_list("name", "attributes")
        ),
        sorted(Printing.objects.values_list("card__name", "expansion__code", "number", "rarity")),
        sorted(Expansion.objects.values_list("game__slug", "code", "name")),
    )


def test_import_creates_cards_and_printings():
    doc = redline_doc()
    report = expansion_import(data=doc)
    assert len(report.created) == len(doc["cards"])
    assert Card.objects.filter(game__slug="redline").count() == len(doc["cards"])
    tiger = Card.objects.get(name="Tigercat")
    assert tiger.kind == "efreet" and tiger.faction == "une"
    assert tiger.attributes["speed"] == 6
    assert tiger.printings.get().expansion.code == "RL1"


def test_importing_twice_gives_the_same_database():
    expansion_import(data=redline_doc())
    first = snapshot()
    report = expansion_import(data=redline_doc())
    assert report.created == [] and report.updated == []
    assert len(report.unchanged) == len(redline_doc()["cards"])
    assert snapshot() == first


def test_a_bad_row_changes_nothing_and_every_bad_row_is_reported():
    expansion_import(data=redline_doc())
    before = snapshot()
    doc = redline_doc()
    doc["cards"][0]["text"] = "Changed text that must not be saved."
    doc["cards"][3]["attributes"] = {**doc["cards"][3]["attributes"], "armor": "thick"}
    doc["cards"][5]["kind"] = "dragon"
    doc["cards"][7]["faction"] = "martians"
    doc["cards"].append({"name": "New Card", "kind": "tactic", "faction": "une", "cost": "two"})
    with pytest.raises(ImportFailed) as exc:
        expansion_import(data=doc)
    errors = {(e.index, e.field) for e in exc.value.report.errors}
    last = len(doc["cards"]) - 1
    assert (3, "attributes.armor") in errors
    assert (5, "kind") in errors
    assert (7, "faction") in errors
    assert (last, "cost") in errors
    assert snapshot() == before


def test_error_messages_name_the_row_field_and_reason():
    doc = redline_doc()
    doc["cards"][2]["attributes"]["speed"] = (
        "fast" if "speed" in doc["cards"][2]["attributes"] else 1
    )
    doc["cards"][2]["kind"] = "efreet"
    with pytest.raises(ImportFailed) as exc:
        expansion_import(data=doc)
    text = "\n".join(str(e) for e in exc.value.report.errors)
    assert f"card #2 ({doc['cards'][2]['name']})" in text


def test_duplicate_names_and_unknown_game_are_reported():
    doc = redline_doc()
    doc["cards"].append(copy.deepcopy(doc["cards"][0]))
    doc["cards"][-1]["number"] = "999"
    with pytest.raises(ImportFailed) as exc:
        expansion_import(data=doc)
    assert any(
        e.field == "name" and "the same name as card #0" in e.message
        for e in exc.value.report.errors
    )
    with pytest.raises(ImportFailed) as exc:
        expansion_import(data={**redline_doc(), "game": "chess"})
    assert exc.value.report.errors[0].field == "game"
    assert Card.objects.count() == 0


def test_dry_run_reports_changes_and_writes_nothing():
    report = expansion_import(data=redline_doc(), dry_run=True)
    assert report.dry_run and len(report.created) == len(redline_doc()["cards"])
    assert Card.objects.count() == 0 and Expansion.objects.count() == 0
    expansion_import(data=redline_doc())
    doc = redline_doc()
    doc["cards"][0]["text"] = "A new text."
    report = expansion_import(data=doc, dry_run=True)
    assert report.updated == [doc["cards"][0]["name"]]
    assert Card.objects.get(name=doc["cards"][0]["name"]).text != "A new text."


def test_export_reimports_unchanged(tmp_path):
    for path in sample_data_files():
        expansion_import(data=read_expansion_file(path))
    before = snapshot()
    for path in sample_data_files():
        doc = read_expansion_file(path)
        exported = expansion_export(game_slug=doc["game"], code=doc["code"])
        assert len(exported["cards"]) == len(doc["cards"])
        report = expansion_import(data=json.loads(json.dumps(exported)))
        assert report.created == [] and report.updated == [], path.name
    assert snapshot() == before


def test_commands_import_dry_run_and_export(tmp_path):
    out = StringIO()
    call_command("import_expansion", str(REDLINE), "--dry-run", stdout=out)
    assert "would be created" in out.getvalue()
    assert Card.objects.count() == 0
    call_command("import_expansion", str(REDLINE), stdout=StringIO())
    target = tmp_path / "rl1.json"
    call_command("export_expansion", "redline", "RL1", "-o", str(target), stdout=StringIO())
    assert json.loads(target.read_text())["code"] == "RL1"


def test_command_lists_every_bad_row(tmp_path):
    doc = redline_doc()
    doc["cards"][1]["cost"] = "x"
    doc["cards"][4]["kind"] = "nope"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    err = StringIO()
    with pytest.raises(CommandError, match="2 error"):
        call_command("import_expansion", str(bad), stderr=err, stdout=StringIO())
    assert "card #1" in err.getvalue() and "card #4" in err.getvalue()
    assert Card.objects.count() == 0


def test_command_reports_json_syntax_errors_with_line(tmp_path):
    bad = tmp_path / "broken.json"
    bad.write_text('{"game": "redline",\n "code": }')
    with pytest.raises(CommandError, match="line 2"):
        call_command("import_expansion", str(bad), stdout=StringIO())


def test_load_sample_data_loads_every_game_with_the_required_contents(sample_catalogue):
    from django.db.models import Count

    counts = {
        (r["game__slug"], r["kind"]): r["n"]
        for r in Card.objects.values("game__slug", "kind").annotate(n=Count("id"))
    }
    assert counts[("redline", "efreet")] >= 12
    assert counts[("redline", "equipment")] >= 8
    assert counts[("redline", "tactic")] >= 8
    assert counts[("redline", "strategy")] >= 3
    assert counts[("redline", "mission")] >= 8
    assert counts[("redline", "critical_hit")] >= 16
    assert counts[("tactical-assault", "unit_type")] == 19
    assert counts[("tactical-assault", "combat_card")] == 72
    assert counts[("red-code", "ship")] == 6
    assert counts[("red-code", "manoeuvre")] == 16
    assert counts[("red-code", "map_card")] == 15
    assert counts[("red-mittens", "unit")] >= 25
    assert counts[("red-mittens", "item")] >= 25
    assert counts[("red-mittens", "field")] >= 25
    assert counts[("hex-skirmish", "unit")] >= 12
    assert counts[("hex-skirmish", "command")] >= 40
    orders = Card.objects.filter(game__slug="red-code", kind="order")
    assert orders.count() == 9
    assert sum(c.attributes["copies"] for c in orders) == 30
    assert Expansion.objects.filter(sample=True).count() == 5


def _one_card(game: str, **card):
    from tests.decks.conftest import sample_expansion

    data = sample_expansion(
        game, {"tactical-assault": "TA1", "red-mittens": "RM1", "redline": "RL1"}[game]
    )
    base = dict(data["cards"][0])
    base.update(card)
    data["cards"] = [base]
    return data


def test_a_number_is_taken_for_a_choice_of_numbers(db):
    """drift_direction's choices are "1" to "12" (a clock): 3 in JSON is "3"."""
    from tests.decks.conftest import sample_expansion

    data = sample_expansion("tactical-assault", "TA1")
    card = dict(next(c for c in data["cards"] if c["kind"] == "combat_card"))
    card["attributes"] = {**card["attributes"], "drift_direction": 3}
    data["cards"] = [card]
    report = expansion_import(data=data)
    assert report.ok, report.errors
    assert Card.objects.get(name=card["name"]).attributes["drift_direction"] == "3"
    data["cards"][0]["attributes"]["drift_direction"] = 13
    with pytest.raises(ImportFailed):
        expansion_import(data=data)


@pytest.mark.parametrize("written", ["", None, "neutral", "Neutral"])
def test_a_game_without_factions_reads_neutral_or_blank_as_no_faction(db, written):
    from catalogue.importer import expansion_import
    from catalogue.models import Card

    data = _one_card("red-mittens", faction=written)
    report = expansion_import(data=data, dry_run=True)
    assert report.ok, report.errors
    if written:
        assert report.notes and "has no factions" in report.notes[0]
        assert data["cards"][0]["name"] in report.notes[0]
    else:
        assert not report.notes
    expansion_import(data=data)
    assert Card.objects.get(name=data["cards"][0]["name"]).faction == ""


def test_a_real_faction_in_a_game_without_factions_is_still_a_row_error(db):
    from catalogue.importer import ImportFailed, expansion_import

    with pytest.raises(ImportFailed) as exc:
        expansion_import(data=_one_card("red-mittens", faction="blue"))
    assert exc.value.report.errors[0].field == "faction"


def test_a_negative_cost_is_a_row_error(db):
    from catalogue.importer import ImportFailed, expansion_import

    with pytest.raises(ImportFailed) as exc:
        expansion_import(data=_one_card("redline", cost=-2))
    error = exc.value.report.errors[0]
    assert error.field == "cost" and "negative" in error.message


def test_the_admin_preview_shows_the_no_faction_note(client, staff_user, db):
    import json

    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(staff_user)
    data = _one_card("red-mittens", faction="neutral")
    upload = SimpleUploadedFile("rm.json", json.dumps(data).encode(), "application/json")
    response = client.post("/admin/catalogue/expansion/import/", {"file": upload})
    html = response.content.decode()
    assert response.status_code == 200 and "has no factions" in html


def test_imports_are_logged(db, caplog):
    import logging

    from tests.decks.conftest import sample_expansion

    with caplog.at_level(logging.INFO, logger="catalogue"):
        expansion_import(data=sample_expansion("hex-skirmish", "HS1"))
        with pytest.raises(ImportFailed):
            expansion_import(data={"game": "hex-skirmish", "code": "HS9", "cards": [1]})
    messages = [(r.name, r.getMessage()) for r in caplog.records]
    assert ("catalogue.importer", "import started") in messages
    assert ("catalogue.importer", "import finished") in messages
    assert ("catalogue.importer", "import refused") in messages
    finished = next(r for r in caplog.records if r.getMessage() == "import finished")
    assert finished.cards_created > 0 and finished.game == "hex-skirmish"


def test_loading_the_sample_data_analyses_the_catalogue(db):
    """Autovacuum never analyses tables this small, and a search planned without statistics
    ran 20 times slower: loading the sample data analyses them, changed or not."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    call_command("load_sample_data", stdout=StringIO())
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relname FROM pg_stat_user_tables WHERE relname LIKE 'catalogue_%%' "
            "AND last_analyze IS NOT NULL"
        )
        analysed = {row[0] for row in cursor.fetchall()}
    assert {"catalogue_game", "catalogue_card", "catalogue_printing"} <= analysed
