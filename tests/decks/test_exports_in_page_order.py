"""Every export lists a deck's cards as its page does: section by section, each section's
cards grouped by kind (by cost, then name): the text, Markdown and BBCode lists and the
tournament sheet, for every sample deck of every game; a placed unit keeps its cell in
each of them; the sheet's second column names the section it goes on with, and the
foot of the sheet lies under every column."""

from __future__ import annotations

import html
import io
import re

import pytest
from django.core.management import call_command
from pypdf import PdfReader

from catalogue.services import sample_deck_files
from decks.models import Deck

pytestmark = pytest.mark.django_db

SAMPLES = sorted({(s.game, s.format) for s in sample_deck_files()})


@pytest.fixture
def demo(django_user_model):
    user = django_user_model.objects.create_user("demo", "demo@example.com", "demo-pass-12345")
    call_command("publish_sample_decks", stdout=open("/dev/null", "w"))
    return user


def page_order(client, deck) -> list[str]:
    """The deck page's list, top to bottom: "Name" or "Name @c,r" for a placed unit."""
    page = client.get(f"/decks/{deck.pk}/").content.decode()
    panel = page[page.index('id="deck-list"') :]
    panel = panel[: panel.index("</section>")]
    rows = re.findall(
        r'<tr class="deck-row[^"]*" data-card="([^"]+)".*?</tr>', panel, flags=re.DOTALL
    )
    cells = re.findall(r"<tr class=\"deck-row.*?</tr>", panel, flags=re.DOTALL)
    out = []
    for name, row in zip(rows, cells, strict=True):
        where = re.search(r'<small class="muted">@([^<]+)</small>', row)
        out.append(html.unescape(name) + (f" @{where.group(1)}" if where else ""))
    assert out, f"no rows on the page of {deck.name}"
    return out


def export(client, deck, kind: str) -> bytes:
    response = client.get(f"/decks/{deck.pk}/export/{kind}/")
    assert response.status_code == 200, (kind, response.status_code)
    return response.content


def text_order(text: str) -> list[str]:
    return [line.split(" ", 1)[1] for line in text.splitlines() if re.match(r"\d+ ", line)]


def markdown_order(text: str) -> list[str]:
    out = []
    for line in text.splitlines():
        if line.startswith("- "):
            name = line.split(" × ", 1)[1]
            out.append(re.sub(r"\\(.)", r"\1", name))
    return out


def bbcode_order(text: str) -> list[str]:
    return [line.split(" ", 1)[1] for line in text.splitlines() if line.startswith("[*]")]


def sheet_words(pdf: bytes) -> list[tuple[float, float, str]]:
    """Every piece of text of the sheet's one page with where it starts (x, y)."""
    reader = PdfReader(io.BytesIO(pdf))
    assert len(reader.pages) == 1
    out: list[tuple[float, float, str]] = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            out.append((round(x, 1), round(y, 1), text.strip()))

    reader.pages[0].extract_text(visitor_text=visit)
    return out


def sheet_columns(words, names: set[str]) -> list[list[tuple[float, float, str]]]:
    """The list's rows (its headings and its cards), column by column, each top to bottom:
    a column is the rows whose text starts at one x."""
    heading = re.compile(r".+ \(\d+\)(, continued)?")
    top = max(y for _, y, text in words if heading.fullmatch(text))
    rows = [w for w in words if w[1] <= top]
    list_rows = [w for w in rows if w[2] in names or heading.fullmatch(w[2])]
    xs = sorted({round(x) for x, _, text in list_rows if text in names})
    columns = []
    for x in xs:
        near = [w for w in list_rows if abs(w[0] - x) < 25]
        columns.append(sorted(near, key=lambda w: -w[1]))
    return columns


@pytest.mark.parametrize(("game", "fmt"), SAMPLES, ids=[f"{g}-{f}" for g, f in SAMPLES])
def test_every_export_lists_the_cards_in_the_deck_pages_order(
    client, sample_catalogue, demo, game, fmt
):
    deck = Deck.objects.get(owner=demo, game__slug=game, format=fmt)
    expected = page_order(client, deck)
    assert text_order(export(client, deck, "text").decode()) == expected
    assert markdown_order(export(client, deck, "markdown").decode()) == expected
    assert bbcode_order(export(client, deck, "bbcode").decode()) == expected
    words = sheet_words(export(client, deck, "sheet"))
    names = set(expected)
    sheet = [w[2] for column in sheet_columns(words, names) for w in column if w[2] in names]
    assert sheet == expected
    # The deck page's copy boxes hold the same lists.
    page = html.unescape(client.get(f"/decks/{deck.pk}/").content.decode())
    boxes = dict(re.findall(r'<textarea id="copy-(\w+)"[^>]*>(.*?)</textarea>', page, re.DOTALL))
    assert text_order(boxes["text"]) == expected
    assert markdown_order(boxes["markdown"]) == expected
    assert bbcode_order(boxes["bbcode"]) == expected


def test_the_hex_skirmish_sheet_shows_the_hex_of_each_unit(client, sample_catalogue, demo):
    deck = Deck.objects.get(owner=demo, game__slug="hex-skirmish")
    placed = [e for e in deck.current_version.entries if e.get("placement")]
    assert placed
    text = export(client, deck, "text").decode()
    words = [w[2] for w in sheet_words(export(client, deck, "sheet"))]
    for e in placed:
        cell = "{},{}".format(*e["placement"])
        assert f"{e['count']} {e['card']} @{cell}" in text.splitlines()
        assert f"{e['card']} @{cell}" in words, words


def test_a_sheet_in_two_columns_names_the_section_the_second_goes_on_with_and_its_foot_lies_under_both(
    client, sample_catalogue, demo
):
    deck = Deck.objects.get(owner=demo, game__slug="red-mittens")
    expected = page_order(client, deck)
    words = sheet_words(export(client, deck, "sheet"))
    columns = sheet_columns(words, set(expected))
    assert len(columns) == 2, columns
    first, second = columns
    # Each column starts with a section's heading: the second with the one it goes on with.
    assert re.fullmatch(r".+ \(\d+\)", first[0][2]), first[0]
    assert re.fullmatch(r".+ \(\d+\)(, continued)?", second[0][2]), second[0]
    last_heading = [w[2] for w in first if w[2] not in expected][-1]
    if second[0][2].endswith(", continued"):
        assert second[0][2] == f"{last_heading}, continued"
    # The columns end together (a row or two apart), and the foot lies under both.
    bottoms = [column[-1][1] for column in columns]
    lead = first[0][1] - first[1][1]
    assert max(bottoms) - min(bottoms) <= 2 * lead + 0.5, bottoms
    foot = [w for w in words if w[2].startswith("Verdict when saved")]
    assert foot and foot[0][1] < min(bottoms) - lead
    totals = [w for w in words if w[2].startswith("Sections:")]
    assert totals and totals[0][1] < min(bottoms) - lead
