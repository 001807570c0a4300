"""A deck taken to a physical or a virtual table: printable proxies, a tournament sheet, a unit
sheet, a Tabletop Simulator saved object, and the list as Markdown and BBCode; each a file to
download, from the API and from the deck page, and refused clearly when it cannot be made."""

from __future__ import annotations

import dataclasses
import io
import json
import math
from pathlib import Path
from urllib.parse import urlsplit

import jsonschema
import pytest
from pypdf import PdfReader

from decks.exports import FORMATS
from tabletop import exports
from validation import packages
from validation.registry import registry

from .conftest import sample_list

pytestmark = pytest.mark.django_db

MM = 72 / 25.4
TTS_SCHEMA = json.loads((Path(__file__).parent / "tts_saved_object.schema.json").read_text())


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path)


def _deck(make_deck, owner, game="redline", fmt="standard", visibility="private"):
    return make_deck(owner, visibility, text=sample_list(game, fmt), game=game, fmt=fmt)


def _cards(deck) -> int:
    return sum(e["count"] for e in deck.current_version.entries)


def _pdf(response) -> PdfReader:
    assert response.status_code == 200, response.content[:500]
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"].startswith('attachment; filename="')
    return PdfReader(io.BytesIO(response.content))


def _forms(reader: PdfReader) -> dict[str, tuple[float, float]]:
    """Every form XObject the pages place, by name, with its box's width and height."""
    out = {}
    for page in reader.pages:
        xobjects = page["/Resources"].get("/XObject", {})
        for name, ref in xobjects.items():
            obj = ref.get_object()
            if obj.get("/Subtype") == "/Form":
                x0, y0, x1, y1 = (float(v) for v in obj["/BBox"])
                out[name] = (x1 - x0, y1 - y0)
    return out


def _placements(reader: PdfReader, page_index: int) -> int:
    """How many times page `page_index` draws a form (`/Name Do` in its content)."""
    content = reader.pages[page_index].get_contents().get_data().decode("latin-1")
    return content.count(" Do")


def test_proxies_print_every_copy_nine_a_page_at_the_card_size_on_a4_and_letter(
    client, user, sample_catalogue, make_deck
):
    deck = _deck(make_deck, user)
    client.force_login(user)
    cards = _cards(deck)
    for paper, size in (("a4", (595.28, 841.89)), ("letter", (612.0, 792.0))):
        reader = _pdf(client.get(f"/api/decks/{deck.pk}/export/?format=proxies&paper={paper}"))
        assert len(reader.pages) == math.ceil(cards / 9)
        box = reader.pages[0].mediabox
        assert (float(box.width), float(box.height)) == pytest.approx(size, abs=0.01)
        assert sum(_placements(reader, i) for i in range(len(reader.pages))) == cards
        forms = _forms(reader)
        distinct = len({e["card"] for e in deck.current_version.entries})
        assert len(forms) == distinct  # each card drawn once, placed for each copy
        for width, height in forms.values():
            assert (width, height) == pytest.approx((63 * MM, 88 * MM), abs=0.01)
        assert "PROXY" in reader.pages[0].extract_text()


def test_proxies_with_bleed_draw_each_card_with_three_millimetres_around_it(
    client, user, sample_catalogue, make_deck
):
    deck = _deck(make_deck, user, "hex-skirmish")
    client.force_login(user)
    reader = _pdf(client.get(f"/api/decks/{deck.pk}/export/?format=proxies&bleed=3"))
    for width, height in _forms(reader).values():
        assert (width, height) == pytest.approx((69 * MM, 94 * MM), abs=0.01)


def test_proxies_follow_the_card_size_a_game_gives(client, user, sample_catalogue, make_deck):
    deck = _deck(make_deck, user)
    client.force_login(user)
    small = dataclasses.replace(registry.get("redline"), card_size_mm=(57.0, 89.0))
    with registry.temporarily(small, package="validation.games.redline"):
        reader = _pdf(client.get(f"/api/decks/{deck.pk}/export/?format=proxies"))
    for width, height in _forms(reader).values():
        assert (width, height) == pytest.approx((57 * MM, 89 * MM), abs=0.01)


def test_proxies_of_a_deck_of_2000_cards_are_refused_naming_the_page_limit(
    client, user, sample_catalogue, make_deck
):
    text = "General:\n1 General Jeffrey Moore\nArsenal:\n1999 Supply Drop\n"
    deck = make_deck(user, text=text)
    client.force_login(user)
    response = client.get(f"/api/decks/{deck.pk}/export/?format=proxies")
    assert response.status_code == 400
    body = response.content.decode()
    assert f"at most {exports.PROXIES_MAX_PAGES} pages" in body and "223 pages" in body
    page = client.get(f"/decks/{deck.pk}/export/proxies/")
    assert page.status_code == 400
    assert f"at most {exports.PROXIES_MAX_PAGES} pages" in page.content.decode()


def test_an_unknown_format_is_a_400_listing_the_formats(client, user, sample_catalogue, make_deck):
    deck = _deck(make_deck, user)
    client.force_login(user)
    response = client.get(f"/api/decks/{deck.pk}/export/?format=pdfx")
    assert response.status_code == 400
    body = response.content.decode()
    for kind in FORMATS:
        assert kind in body


def test_exports_of_a_deck_you_cannot_read_are_not_found(
    client, user, other_user, sample_catalogue, make_deck
):
    deck = _deck(make_deck, other_user)
    client.force_login(user)
    for kind in ("proxies", "tts", "sheet", "markdown"):
        assert client.get(f"/api/decks/{deck.pk}/export/?format={kind}").status_code == 404
        assert client.get(f"/decks/{deck.pk}/export/{kind}/").status_code == 404
    client.force_login(other_user)  # while its owner reads every one of them
    for kind in ("proxies", "tts", "sheet", "markdown"):
        assert client.get(f"/api/decks/{deck.pk}/export/?format={kind}").status_code == 200
        assert client.get(f"/decks/{deck.pk}/export/{kind}/").status_code == 200


@pytest.mark.parametrize(
    ("game", "fmt"),
    [(s.game, s.format) for g in registry.all() for s in packages.sample_lists(g.slug)],
)
def test_the_tournament_sheet_is_one_page_naming_player_event_and_every_card(
    client, user, sample_catalogue, make_deck, game, fmt
):
    deck = _deck(make_deck, user, game, fmt)
    client.force_login(user)
    reader = _pdf(
        client.get(
            f"/api/decks/{deck.pk}/export/?format=sheet&player=Ada+Lovelace&event=Store+Cup"
            "&date=2027-03-06&paper=letter"
        )
    )
    assert len(reader.pages) == 1
    text = " ".join(reader.pages[0].extract_text().split())
    for expected in ("Tournament sheet", "Ada Lovelace", "Store Cup", "2027-03-06", deck.name):
        assert expected in text
    for entry in deck.current_version.entries:
        assert entry["card"] in text, entry["card"]


@pytest.mark.parametrize(
    ("game", "units"), [("hex-skirmish", "units"), ("tactical-assault", "force")]
)
def test_the_unit_sheet_lists_each_unit_with_its_figures(
    client, user, sample_catalogue, make_deck, game, units
):
    deck = _deck(make_deck, user, game)
    client.force_login(user)
    reader = _pdf(client.get(f"/api/decks/{deck.pk}/export/?format=units"))
    text = " ".join(page.extract_text() for page in reader.pages)
    text = " ".join(text.split())
    unit_entries = [e for e in deck.current_version.entries if e["section"] == units]
    assert unit_entries
    for entry in unit_entries:
        assert entry["card"] in text
    labels = {
        "hex-skirmish": ("Health", "Movement"),
        "tactical-assault": ("Firepower", "Protection"),
    }
    for label in labels[game]:
        assert label in text


def test_a_game_without_a_unit_sheet_refuses_one_clearly(client, user, sample_catalogue, make_deck):
    deck = _deck(make_deck, user, "red-mittens", "core")
    client.force_login(user)
    response = client.get(f"/api/decks/{deck.pk}/export/?format=units")
    assert response.status_code == 400
    assert "has no unit sheet" in response.content.decode()


def _tts(client, deck) -> dict:
    response = client.get(f"/api/decks/{deck.pk}/export/?format=tts")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"].endswith('.tts.json"')
    return response.json()


def test_the_tabletop_simulator_object_is_what_tabletop_simulator_reads(
    client, user, sample_catalogue, make_deck
):
    deck = _deck(make_deck, user)
    client.force_login(user)
    saved = _tts(client, deck)
    jsonschema.validate(saved, TTS_SCHEMA)
    objects = saved["ObjectStates"]
    decks = {o["Nickname"]: o for o in objects if o["Name"] == "Deck"}
    game = registry.get("redline")
    entries = deck.current_version.entries
    drawn = [s.name for s in game.sections if not s.laid_out]
    expected = {
        game.section_label(s): sum(e["count"] for e in entries if e["section"] == s)
        for s in drawn
        if any(e["section"] == s for e in entries)
    }
    assert {label: len(d["DeckIDs"]) for label, d in decks.items()} == expected
    faces = set()
    for d in decks.values():
        assert d["Transform"]["rotZ"] == 180.0  # face down
        assert d["DeckIDs"] == [c["CardID"] for c in d["ContainedObjects"]]
        for c in d["ContainedObjects"]:
            sheet = str(c["CardID"] // 100)
            assert sheet in d["CustomDeck"] and sheet in c["CustomDeck"]
            grid = d["CustomDeck"][sheet]
            assert c["CardID"] % 100 < grid["NumWidth"] * grid["NumHeight"]
            faces.add(grid["FaceURL"])
            faces.add(grid["BackURL"])
    # The general is laid out face up, a Card of its own.
    general = [o for o in objects if o["Name"] == "Card"]
    assert [o["Nickname"] for o in general] == ["General Jeffrey Moore"]
    assert general[0]["Transform"]["rotZ"] == 0.0
    # Every face and back answers an image (the addresses are absolute, of this site).
    for url in sorted(faces)[:12] + [
        general[0]["CustomDeck"][str(general[0]["CardID"] // 100)]["FaceURL"]
    ]:
        parts = urlsplit(url)
        assert parts.scheme == "http" and parts.netloc == "testserver"
        image = client.get(f"{parts.path}?{parts.query}")
        assert image.status_code == 200 and image["Content-Type"] == "image/png", url


def test_a_section_of_one_card_played_as_a_deck_is_a_card(
    client, user, sample_catalogue, make_deck
):
    deck = make_deck(
        user, text="General:\n1 General Jeffrey Moore\nCritical hits:\n1 Cockpit Breach\n"
    )
    client.force_login(user)
    saved = _tts(client, deck)
    jsonschema.validate(saved, TTS_SCHEMA)
    assert sorted(o["Name"] for o in saved["ObjectStates"]) == ["Card", "Card"]
    lone = next(o for o in saved["ObjectStates"] if o["Nickname"] == "Cockpit Breach")
    assert lone["Transform"]["rotZ"] == 180.0  # a deck of one, face down


def test_markdown_and_bbcode_lists_name_every_card_with_its_count(
    client, user, sample_catalogue, make_deck
):
    deck = _deck(make_deck, user, "hex-skirmish")
    client.force_login(user)
    markdown = client.get(f"/api/decks/{deck.pk}/export/?format=markdown")
    assert markdown.status_code == 200
    assert markdown["Content-Type"].startswith("text/markdown")
    assert markdown["Content-Disposition"].endswith('.md"')
    bbcode = client.get(f"/api/decks/{deck.pk}/export/?format=bbcode").content.decode()
    md = markdown.content.decode()
    assert md.startswith(f"# {deck.name}")
    assert "[b]" in bbcode and "[list]" in bbcode
    for entry in deck.current_version.entries:
        assert f"- {entry['count']} × {entry['card']}" in md
        assert f"[*]{entry['count']} {entry['card']}" in bbcode


def test_user_text_cannot_open_markup_in_markdown_or_bbcode(
    client, user, sample_catalogue, make_deck
):
    deck = make_deck(user, name="[url=http://x]*bold*[/url]")
    md = exports.as_markdown(deck, deck.current_version)
    bb = exports.as_bbcode(deck, deck.current_version)
    assert "\\*bold\\*" in md and "\\[url" in md
    assert "[url=" not in bb


def test_the_deck_page_offers_every_export_and_three_lists_to_copy(
    client, user, sample_catalogue, make_deck
):
    deck = _deck(make_deck, user, "tactical-assault")
    client.force_login(user)
    page = client.get(f"/decks/{deck.pk}/").content.decode()
    for kind in ("proxies", "sheet", "units", "tts"):
        assert f"/decks/{deck.pk}/export/{kind}/?v=1" in page
    for kind in ("text", "markdown", "bbcode"):
        assert f'id="copy-{kind}"' in page and f'data-copy="copy-{kind}"' in page
    download = client.get(f"/decks/{deck.pk}/export/tts/?v=1")
    assert download["Content-Disposition"] == (
        f'attachment; filename="tactical-assault-{deck.pk}-v1.tts.json"'
    )
    _pdf(client.get(f"/decks/{deck.pk}/export/units/?v=1"))


def test_the_printable_sheet_page_fills_in_player_event_and_date(
    client, user, sample_catalogue, make_deck
):
    deck = _deck(make_deck, user, "hex-skirmish")
    client.force_login(user)
    page = client.get(f"/decks/{deck.pk}/export/print/?player=Ada&event=Cup&date=Friday").content
    text = page.decode()
    assert ">Ada<" in text and ">Cup<" in text and ">Friday<" in text
    assert 'id="sheet-totals"' in text
