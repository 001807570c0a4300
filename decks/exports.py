"""A deck taken to the table: its list as Markdown or BBCode, a Tabletop Simulator saved
object, printable proxies, a tournament sheet and a unit sheet.

Every export reads a saved version and the catalogue's cards it names (one query), and knows
no game: the card size, the sections laid out rather than drawn as a deck and the sections a
unit sheet lists come from the game's definition (`GameDef.card_size_mm`, `unit_sheet`,
`SectionSpec.laid_out`), what a card shows from its face (catalogue/card_images.py).
"""

from __future__ import annotations

import hashlib
import io
import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models.functions import Lower
from django.http import HttpResponse
from reportlab.lib.colors import HexColor
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from catalogue import card_images
from catalogue.image_views import back_image_url, card_image_url
from catalogue.models import Card
from validation.decklist import PLACEMENT
from validation.registry import GameDef, registry
from validation.types import CardFacts

from .presentation import totals_rows
from .selectors import deck_export, listed_entries

#: The most pages a proxies PDF may have (9 cards a page): a larger list is refused.
PROXIES_MAX_PAGES = 30
PAPERS = ("a4", "letter")
BLEEDS = (0, 3)
#: Text a sheet's header takes (player, event, date), at most this long.
SHEET_FIELD_MAX = 100


class ExportRefused(ValueError):
    """An export that cannot be made as asked; `field` names the parameter at fault."""

    def __init__(self, message: str, field: str = "format"):
        super().__init__(message)
        self.message = message
        self.field = field


@dataclass(frozen=True)
class ExportFormat:
    """One way out of the site: its media type, file extension and whether it is a file to
    download (every format but the plain list, which a browser may show)."""

    slug: str
    label: str
    media_type: str
    extension: str


FORMATS: dict[str, ExportFormat] = {
    f.slug: f
    for f in (
        ExportFormat("text", "Text", "text/plain", "txt"),
        ExportFormat("json", "JSON", "application/json", "json"),
        ExportFormat("markdown", "Markdown", "text/markdown", "md"),
        ExportFormat("bbcode", "BBCode", "text/plain", "bbcode.txt"),
        ExportFormat("tts", "Tabletop Simulator", "application/json", "tts.json"),
        ExportFormat("proxies", "Proxies (PDF)", "application/pdf", "proxies.pdf"),
        ExportFormat("sheet", "Tournament sheet (PDF)", "application/pdf", "sheet.pdf"),
        ExportFormat("units", "Unit sheet (PDF)", "application/pdf", "units.pdf"),
    )
}


def unknown_format_message(kind: str) -> str:
    return f"unknown export format {kind!r}; use one of {', '.join(FORMATS)}"


def filename(deck, version, fmt: ExportFormat) -> str:
    return f"{deck.game.slug}-{deck.pk}-v{version.number}.{fmt.extension}"


# --- What a version holds ----------------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    section: str
    label: str
    count: int
    card: Card | None  # None: no longer in the catalogue
    name: str
    placement: tuple[int, int] | None = None

    @property
    def where(self) -> str:
        """The cell a placed unit stands on, as the list writes it (" @3,1"), else ""."""
        return f" @{self.placement[0]},{self.placement[1]}" if self.placement else ""


def version_lines(
    deck, version, *, facts: Mapping[str, CardFacts] | None = None, with_cards: bool = True
) -> list[Line]:
    """The version's entries in the order the deck page lists them (section by section,
    each section's cards grouped by kind: `selectors.listed_entries`), each with its
    catalogue card (one query). With `with_cards=False` and the cards' `facts` given, no
    query: the cards are then None."""
    game = registry.get(deck.game.slug)
    names = {e["card"].lower() for e in version.entries}
    cards: dict[str, Card] = {}
    if names and (with_cards or facts is None):
        cards = {
            c.name.lower(): c
            for c in Card.objects.annotate(lname=Lower("name")).filter(
                game_id=deck.game_id, lname__in=names
            )
        }
        facts = {name: card.facts() for name, card in cards.items()}
    return [
        Line(
            e["section"],
            game.section_label(e["section"]),
            int(e["count"]),
            cards.get(e["card"].lower()),
            e["card"],
            _cell(e.get(PLACEMENT)),
        )
        for _, entries in listed_entries(deck=deck, version=version, facts=facts or {})
        for e in entries
    ]


def _cell(value: Any) -> tuple[int, int] | None:
    return None if value is None else (int(value[0]), int(value[1]))


def _by_section(lines: list[Line]) -> list[tuple[str, str, list[Line]]]:
    out: dict[str, tuple[str, str, list[Line]]] = {}
    for line in lines:
        out.setdefault(line.section, (line.section, line.label, []))[2].append(line)
    return list(out.values())


def _title(deck, version) -> tuple[str, str]:
    game = registry.get(deck.game.slug)
    fmt = game.formats.get(deck.format)
    return deck.name, f"{game.name} · {fmt.name if fmt else deck.format} · version {version.number}"


# --- Text for forums -------------------------------------------------------------------------


def as_markdown(deck, version, *, facts: Mapping[str, CardFacts] | None = None) -> str:
    """The list as Markdown: a heading, a line naming game, format and version, and a
    section per heading with "N × Card" items (" @c,r" for a placed unit), in the order the
    deck page lists them (`facts` as `version_lines` takes them)."""
    name, sub = _title(deck, version)
    out = [f"# {_md(name)}", "", f"*{_md(sub)}*", ""]
    lines_in_order = version_lines(deck, version, facts=facts, with_cards=False)
    for _, label, lines in _by_section(lines_in_order):
        out.append(f"## {_md(label)} ({sum(line.count for line in lines)})")
        out.append("")
        out += [f"- {line.count} × {_md(line.name)}{line.where}" for line in lines]
        out.append("")
    return "\n".join(out)


def _md(text: str) -> str:
    """Markdown's own characters escaped in user text."""
    for ch in "\\`*_{}[]<>#|":
        text = text.replace(ch, "\\" + ch)
    return text


def as_bbcode(deck, version, *, facts: Mapping[str, CardFacts] | None = None) -> str:
    """The list as BBCode (forums): the name in bold, then a [list] per section, in the
    order the deck page lists them (`facts` as `version_lines` takes them)."""
    name, sub = _title(deck, version)
    out = [f"[b]{_bb(name)}[/b]", _bb(sub), ""]
    lines_in_order = version_lines(deck, version, facts=facts, with_cards=False)
    for _, label, lines in _by_section(lines_in_order):
        out.append(f"[b]{_bb(label)} ({sum(line.count for line in lines)})[/b]")
        out.append("[list]")
        out += [f"[*]{line.count} {_bb(line.name)}{line.where}" for line in lines]
        out.append("[/list]")
    return "\n".join(out) + "\n"


def _bb(text: str) -> str:
    """Square brackets in user text would open tags: shown as their full-width look-alikes."""
    return text.replace("[", "［").replace("]", "］")


# --- Tabletop Simulator ------------------------------------------------------------------------

#: Where the objects of a saved deck lie on the table (TTS units: a card is about 2.2 wide).
TTS_DECK_STEP = 3.0
TTS_CARD_STEP = 2.5


def _transform(x: float, z: float, face_down: bool) -> dict[str, float]:
    return {
        "posX": x,
        "posY": 1.0,
        "posZ": z,
        "rotX": 0.0,
        "rotY": 180.0,
        "rotZ": 180.0 if face_down else 0.0,
        "scaleX": 1.0,
        "scaleY": 1.0,
        "scaleZ": 1.0,
    }


def as_tts(deck, version, absolute: Callable[[str], str]) -> dict[str, Any]:
    """A Tabletop Simulator saved object: a Deck (face down) for each section played as a
    deck, its cards' DeckIDs (sheet id × 100 + index) listed in order with one Card each in
    ContainedObjects, a section of one card a Card; the cards of a section laid out on the
    table (a leader, units) as Cards face up in a row. Each distinct card is a sheet of its
    own (`NumWidth` = `NumHeight` = 1) whose face is the card's image and whose back is the
    game's; `absolute(path)` makes the images' addresses absolute."""
    slug = deck.game.slug
    back = absolute(back_image_url(slug))
    sheets: dict[str, int] = {}
    custom: dict[str, dict[str, Any]] = {}

    def sheet_of(line: Line) -> int:
        key = line.name.lower()
        if key not in sheets:
            sheets[key] = len(sheets) + 1
            face = absolute(card_image_url(slug, line.card)) if line.card else back
            custom[str(sheets[key])] = {
                "FaceURL": face,
                "BackURL": back,
                "NumWidth": 1,
                "NumHeight": 1,
                "BackIsHidden": True,
                "UniqueBack": False,
                "Type": 0,
            }
        return sheets[key]

    guid_seed = f"{deck.pk}:{version.number}"
    counter = 0

    def guid() -> str:
        nonlocal counter
        counter += 1
        return hashlib.sha1(f"{guid_seed}:{counter}".encode()).hexdigest()[:6]

    def card(line: Line, transform: dict[str, float]) -> dict[str, Any]:
        sheet = sheet_of(line)
        return {
            "GUID": guid(),
            "Name": "Card",
            "Transform": transform,
            "Nickname": line.name,
            "Description": line.label,
            "CardID": sheet * 100,
            "CustomDeck": {str(sheet): custom[str(sheet)]},
            "SidewaysCard": False,
            "Hands": True,
        }

    game = registry.get(slug)
    laid_out = {s.name for s in game.sections if s.laid_out}
    objects: list[dict[str, Any]] = []
    deck_x = 0.0
    row_x = 0.0
    for section, label, lines in _by_section(version_lines(deck, version)):
        copies = [line for line in lines for _ in range(line.count)]
        if not copies:
            continue
        if section in laid_out:
            for line in copies:
                objects.append(card(line, _transform(row_x, -4.0, face_down=False)))
                row_x += TTS_CARD_STEP
            continue
        if len(copies) == 1:
            objects.append(card(copies[0], _transform(deck_x, 0.0, face_down=True)))
            deck_x += TTS_DECK_STEP
            continue
        contained = [card(line, _transform(deck_x, 0.0, face_down=True)) for line in copies]
        objects.append(
            {
                "GUID": guid(),
                "Name": "Deck",
                "Transform": _transform(deck_x, 0.0, face_down=True),
                "Nickname": label,
                "Description": f"{deck.name}: {label} ({len(copies)} cards)",
                "DeckIDs": [c["CardID"] for c in contained],
                "CustomDeck": {
                    str(s): custom[str(s)] for s in sorted({c["CardID"] // 100 for c in contained})
                },
                "ContainedObjects": contained,
                "SidewaysCard": False,
                "Hands": False,
            }
        )
        deck_x += TTS_DECK_STEP
    return {
        "SaveName": deck.name,
        "GameMode": game.name,
        "Date": "",
        "Table": "",
        "Sky": "",
        "Note": f"{deck.name}: {game.name}, version {version.number}",
        "Rules": "",
        "XmlUI": "",
        "LuaScript": "",
        "LuaScriptState": "",
        "ObjectStates": objects,
        "TabStates": {},
        "VersionNumber": "",
    }


# --- PDFs -------------------------------------------------------------------------------------


def _page_size(paper: str) -> tuple[float, float]:

    if paper not in PAPERS:
        raise ExportRefused(f"paper {paper!r}: use a4 or letter", "paper")
    return A4 if paper == "a4" else LETTER


def _canvas(buf, paper: str, title: str):

    canvas = Canvas(buf, pagesize=_page_size(paper), pageCompression=1, invariant=1)
    canvas.setTitle(title)
    canvas.setCreator("Cardsite")
    card_images.fonts()
    return canvas


def proxies_pages(card_count: int) -> int:
    return math.ceil(card_count / 9)


def as_proxies(deck, version, *, paper: str = "a4", bleed: int = 0) -> bytes:
    """Every copy of every card of the version at its game's card size, 3 × 3 a page of A4
    or Letter, with `bleed` mm (0 or 3) of the card's edge colour around each card, cut
    marks along every cut line outside the cards, and "PROXY" on each card. Each card is
    drawn once, as a form (a PDF XObject whose box is the card and its bleed), and placed on
    the page for each copy. More than PROXIES_MAX_PAGES pages is refused."""

    if bleed not in BLEEDS:
        raise ExportRefused(f"bleed {bleed!r}: use 0 or 3 (millimetres)", "bleed")
    lines = version_lines(deck, version)
    copies = [line for line in lines for _ in range(line.count)]
    pages = proxies_pages(len(copies))
    if pages > PROXIES_MAX_PAGES:
        raise ExportRefused(
            f"{len(copies)} cards make {pages} pages of proxies; at most {PROXIES_MAX_PAGES} "
            f"pages ({PROXIES_MAX_PAGES * 9} cards) are made at once"
        )
    if not copies:
        raise ExportRefused("this version holds no cards to print")
    game = registry.get(deck.game.slug)
    w, h = game.card_size_mm
    cell_w, cell_h = (w + 2 * bleed) * mm, (h + 2 * bleed) * mm
    buf = io.BytesIO()
    canvas = _canvas(buf, paper, f"{deck.name}: proxies")
    page_w, page_h = _page_size(paper)
    grid_w, grid_h = 3 * cell_w, 3 * cell_h
    left0 = (page_w - grid_w) / 2
    bottom0 = (page_h - grid_h) / 2
    forms: dict[str, str] = {}

    def form_of(line: Line) -> str:
        key = line.name.lower()
        if key not in forms:
            name = f"card{len(forms) + 1}"
            facts = line.card.facts() if line.card else _missing_card(line, game)
            lay = card_images.layout_card(game, facts)
            canvas.beginForm(name, lowerx=0, lowery=0, upperx=cell_w, uppery=cell_h)
            if bleed:
                canvas.setFillColor(HexColor(lay.shapes[0]["fill"]))
                canvas.rect(0, 0, cell_w, cell_h, stroke=0, fill=1)
            card_images.draw_on_canvas(canvas, lay, bleed * mm, bleed * mm)
            _proxy_mark(canvas, bleed * mm + w * mm, bleed * mm, lay)
            canvas.endForm()
            forms[key] = name
        return forms[key]

    for page in range(pages):
        on_page = copies[page * 9 : page * 9 + 9]
        for i, line in enumerate(on_page):
            col, row = i % 3, i // 3
            x = left0 + col * cell_w
            y = bottom0 + (2 - row) * cell_h
            name = form_of(line)
            canvas.saveState()
            canvas.translate(x, y)
            canvas.doForm(name)
            canvas.restoreState()
        _cut_marks(canvas, page_w, page_h, left0, bottom0, cell_w, cell_h, bleed * mm)
        canvas.setFont("CardSans", 7)
        canvas.setFillGray(0.35)
        canvas.drawString(
            12, 8, f"{deck.name} · proxies · page {page + 1} of {pages} · not for sale"
        )
        canvas.showPage()
    canvas.save()
    return buf.getvalue()


def _missing_card(line: Line, game: GameDef):

    return CardFacts(
        name=line.name, kind="", faction="", cost=0, text="No longer in the catalogue."
    )


def _proxy_mark(canvas, right: float, bottom: float, lay) -> None:
    """ "PROXY" in the card's bottom right corner, over its foot line."""

    canvas.saveState()
    canvas.setFont("CardSans-Bold", 2.6 * mm)
    canvas.setFillColorRGB(0.62, 0.1, 0.1)
    canvas.drawRightString(right - 3 * mm, bottom + 2.4 * mm, "PROXY")
    canvas.restoreState()


def _cut_marks(canvas, page_w, page_h, left0, bottom0, cell_w, cell_h, bleed) -> None:
    """Hairlines along every cut line, drawn only outside the cards' faces: in the margins,
    and in the gutters between cards when there is bleed."""
    canvas.saveState()
    canvas.setLineWidth(0.25)
    canvas.setStrokeGray(0)
    xs = sorted({left0 + c * cell_w + d for c in range(3) for d in (bleed, cell_w - bleed)})
    ys = sorted({bottom0 + r * cell_h + d for r in range(3) for d in (bleed, cell_h - bleed)})
    # The stretches of each line that no card face covers.
    free_y = [(0, bottom0 + bleed)] + [
        (bottom0 + r * cell_h - bleed, bottom0 + r * cell_h + bleed) for r in (1, 2)
    ]
    free_y.append((bottom0 + 3 * cell_h - bleed, page_h))
    free_x = [(0, left0 + bleed)] + [
        (left0 + c * cell_w - bleed, left0 + c * cell_w + bleed) for c in (1, 2)
    ]
    free_x.append((left0 + 3 * cell_w - bleed, page_w))
    for x in xs:
        for a, b in free_y:
            if b - a > 0.5:
                canvas.line(x, max(0, a), x, min(page_h, b))
    for y in ys:
        for a, b in free_x:
            if b - a > 0.5:
                canvas.line(max(0, a), y, min(page_w, b), y)
    canvas.restoreState()


def as_sheet(
    deck, version, *, paper: str = "a4", player: str = "", event: str = "", date: str = ""
) -> bytes:
    """A tournament sheet on one page: player, event and date (written in, or lines to
    write on), the deck, game, format and rule set, the list section by section with counts
    and each section's total, the deck's totals and verdict, and signature lines. The list
    is set in up to three columns, its type shrunk until it fits the page."""

    for label, value in (("player", player), ("event", event), ("date", date)):
        if len(value) > SHEET_FIELD_MAX:
            raise ExportRefused(f"{label}: at most {SHEET_FIELD_MAX} characters", label)
    game = registry.get(deck.game.slug)
    fmt = game.formats.get(deck.format)
    report = deck.report if version.pk == deck.current_version_id else version.report
    buf = io.BytesIO()
    canvas = _canvas(buf, paper, f"{deck.name}: tournament sheet")
    page_w, page_h = _page_size(paper)
    margin = 15 * mm
    y = page_h - margin
    canvas.setFont("CardSans-Bold", 16)
    canvas.drawString(margin, y - 14, "Tournament sheet")
    canvas.setFont("CardSans", 9)
    canvas.drawRightString(page_w - margin, y - 14, f"{game.name}")
    y -= 30
    fields = [
        ("Player", player),
        ("Event", event),
        ("Date", date),
        ("Deck", deck.name),
        ("Format", (fmt.name if fmt else deck.format) + _rule_set_words(report)),
        ("Version", f"{version.number} of {version.created_at:%Y-%m-%d}"),
    ]
    half = (page_w - 2 * margin) / 2
    for i, (label, value) in enumerate(fields):
        col, row = i % 2, i // 2
        x = margin + col * half
        yy = y - row * 18
        canvas.setFont("CardSans", 8)
        canvas.setFillGray(0.35)
        canvas.drawString(x, yy, label)
        canvas.setFillGray(0)
        canvas.setFont("CardSans-Bold", 10)
        canvas.drawString(x + 42, yy, card_images._fit(value, 10, half - 50, True) if value else "")
        canvas.setLineWidth(0.4)
        canvas.line(x + 40, yy - 3, x + half - 10, yy - 3)
    y -= 3 * 18 + 8
    sections = _by_section(version_lines(deck, version))
    foot = margin + 70
    _sheet_list(canvas, sections, margin, y, page_w - 2 * margin, y - foot - 6)
    # Totals, verdict and signatures at the foot, under every column of the list.
    canvas.setFillGray(0)
    canvas.setLineWidth(0.4)
    canvas.line(margin, foot + 2, page_w - margin, foot + 2)
    totals = [
        f"{row.label}: {row.value}"
        for row in totals_rows(report.get("totals"), game)
        if row.value not in ("", "—")
    ]
    canvas.setFont("CardSans", 8)
    text_y = foot - 8
    for line in card_images.wrap(" · ".join(totals), 8, page_w - 2 * margin)[:3]:
        canvas.drawString(margin, text_y, line)
        text_y -= 11
    verdict = "legal" if report.get("legal") else f"not legal ({len(report.get('errors', []))})"
    canvas.setFont("CardSans-Bold", 9)
    canvas.drawString(margin, text_y - 2, f"Verdict when saved: {verdict}")
    canvas.setFont("CardSans", 8)
    canvas.setLineWidth(0.4)
    for i, label in enumerate(("Player's signature", "Judge")):
        x = margin + i * half
        canvas.line(x, margin + 10, x + half - 20, margin + 10)
        canvas.drawString(x, margin, label)
    canvas.showPage()
    canvas.save()
    return buf.getvalue()


def _rule_set_words(report: Mapping[str, Any]) -> str:
    code = report.get("rule_set")
    return f" (rule set {code})" if code else ""


Row = tuple[str, str, str]  # (kind: head, card or gap; count; text)


def _sheet_columns(rows: list[Row], per_column: int) -> list[list[Row]]:
    """The rows set in columns of at most `per_column` rows: a section's heading is never
    the last row of a column (it goes on with its first card), a column that starts in the
    middle of a section starts with the section's heading again ("…, continued"), and no
    column starts with a gap."""
    columns: list[list[Row]] = [[]]
    head: Row | None = None
    for row in rows:
        kind = row[0]
        if kind == "head":
            head = row
        column = columns[-1]
        need = 2 if kind == "head" else 1
        if column and len(column) + need > per_column:
            columns.append([])
            column = columns[-1]
            if kind == "card" and head is not None:
                column.append(("head", "", f"{head[2]}, continued"))
        if kind == "gap" and not column:
            continue
        column.append(row)
    return columns


def _sheet_list(canvas, sections, left: float, top: float, width: float, room: float) -> float:
    """The list's sections in up to three columns, type shrinking from 9 pt to 5 pt until it
    fits, the columns balanced (as long as each other but for a row or two); returns where
    the list ends (its lowest row's baseline)."""
    rows: list[Row] = []
    for _, label, lines in sections:
        rows.append(("head", "", f"{label} ({sum(line.count for line in lines)})"))
        rows += [("card", str(line.count), line.name + line.where) for line in lines]
        rows.append(("gap", "", ""))
    while rows and rows[-1][0] == "gap":
        rows.pop()
    size = 9.0
    while True:
        lead = size * 1.3
        room_rows = max(2, int(room // lead))
        columns = next((n for n in (1, 2, 3) if len(_sheet_columns(rows, room_rows)) <= n), 0)
        if columns or size <= 5:
            columns = columns or 3
            break
        size -= 0.5
    # The shortest columns that still take the list in as many columns.
    per_column = next(
        (
            p
            for p in range(max(2, math.ceil(len(rows) / columns)), room_rows + 1)
            if len(_sheet_columns(rows, p)) <= columns
        ),
        room_rows,
    )
    col_w = width / columns
    bottom = top
    for col, column in enumerate(_sheet_columns(rows, per_column)[:columns]):
        # A list too long even at 5 pt is cut (its last rows).
        x = left + col * col_w
        for row, (kind, count, text) in enumerate(column):
            y = top - (row + 1) * lead
            if kind == "head":
                canvas.setFont("CardSans-Bold", size)
                canvas.drawString(x, y, card_images._fit(text, size, col_w - 8, True))
            elif kind == "card":
                canvas.setFont("CardSans", size)
                canvas.drawRightString(x + size * 1.6, y, count)
                canvas.drawString(x + size * 2.2, y, card_images._fit(text, size, col_w - size * 3))
            bottom = min(bottom, y)
    return bottom


def as_unit_sheet(deck, version, *, paper: str = "a4") -> bytes:
    """The units of the game's unit sheet sections (`GameDef.unit_sheet`), each as army
    builders print them: name, copies and points, the face's figure (a unit's edge values)
    and every figure of its face, with room for notes; a header with the deck and its
    points. A game without a unit sheet is refused."""

    game = registry.get(deck.game.slug)
    if not game.unit_sheet:
        raise ExportRefused(f"{game.name} has no unit sheet; use sheet for the list")
    lines = [line for line in version_lines(deck, version) if line.section in game.unit_sheet]
    if not lines:
        raise ExportRefused("this version lists no units")
    if len(lines) > 24:
        raise ExportRefused(f"{len(lines)} kinds of units; a unit sheet prints at most 24")
    buf = io.BytesIO()
    canvas = _canvas(buf, paper, f"{deck.name}: unit sheet")
    page_w, page_h = _page_size(paper)
    margin = 12 * mm
    canvas.setFont("CardSans-Bold", 15)
    canvas.drawString(margin, page_h - margin - 12, f"{deck.name}: unit sheet")
    points = sum((line.card.cost if line.card else 0) * line.count for line in lines)
    canvas.setFont("CardSans", 9)
    labels = ", ".join(game.section_label(s) for s in game.unit_sheet)
    canvas.drawString(
        margin,
        page_h - margin - 26,
        f"{game.name} · {labels}: {sum(line.count for line in lines)} units, {points} points",
    )
    box_w = (page_w - 2 * margin - 6 * mm) / 2
    box_h = 42 * mm
    top = page_h - margin - 36
    for i, line in enumerate(lines):
        col, row = i % 2, (i // 2) % 5
        if i and i % 10 == 0:
            canvas.showPage()
            top = page_h - margin
        x = margin + col * (box_w + 6 * mm)
        y = top - (row + 1) * box_h - row * 3 * mm
        _unit_box(canvas, game, line, x, y, box_w, box_h)
    canvas.showPage()
    canvas.save()
    return buf.getvalue()


def _unit_box(canvas, game: GameDef, line: Line, x, y, w, h) -> None:

    facts = line.card.facts() if line.card else _missing_card(line, game)
    face = card_images.safe_face(game, facts)
    canvas.saveState()
    canvas.setLineWidth(0.6)
    canvas.rect(x, y, w, h)
    canvas.setFont("CardSans-Bold", 11)
    canvas.drawString(x + 3 * mm, y + h - 6 * mm, card_images._fit(facts.name, 11, w - 30 * mm))
    canvas.setFont("CardSans", 9)
    cost = f"{facts.cost} pts" if game.has_cost(facts.kind) else ""
    canvas.drawRightString(x + w - 3 * mm, y + h - 6 * mm, f"× {line.count}   {cost}".strip())
    left = x + 3 * mm
    figure_w = 0.0
    if face.figure and face.figure.get("type") == "polygon":
        lay = card_images.Layout(26, 30)
        card_images._figure(lay, face.figure, 0, 0, 26, "#333333")
        card_images.draw_on_canvas(canvas, lay, left, y + h - 40 * mm)
        figure_w = 28 * mm
    sy = y + h - 11 * mm
    col_w = (w - 6 * mm - figure_w) / 2
    for j, (label, value) in enumerate(face.stats[:12]):
        cx = left + figure_w + (j % 2) * col_w
        if j % 2 == 0 and j:
            sy -= 4.2 * mm
        label = card_images._fit(str(label), 7.5, col_w * 0.6)
        canvas.setFont("CardSans", 7.5)
        canvas.setFillGray(0.35)
        canvas.drawString(cx, sy, label)
        canvas.setFillGray(0)
        canvas.setFont("CardSans-Bold", 8.5)
        room = col_w - card_images.text_width(label, 7.5) - 4 * mm
        canvas.drawRightString(
            cx + col_w - 2 * mm, sy, card_images._fit(str(value) or " ", 8.5, room, True)
        )
    if face.badges:
        canvas.setFont("CardSans", 7.5)
        canvas.drawString(
            left + figure_w,
            sy - 4.5 * mm,
            card_images._fit(" · ".join(face.badges), 7.5, w - 6 * mm - figure_w),
        )
    canvas.setFont("CardSans", 7)
    canvas.setFillGray(0.45)
    canvas.drawString(left + figure_w, y + 3 * mm, "Notes")
    canvas.setLineWidth(0.3)
    canvas.line(left + figure_w + 10 * mm, y + 3 * mm, x + w - 3 * mm, y + 3 * mm)
    canvas.restoreState()


# --- One entry for every format ----------------------------------------------------------------


def export(deck, version, kind: str, params: Mapping[str, str], absolute) -> tuple[Any, str]:
    """(body, media type) of `kind` for a version: a str or bytes, or a dict for the JSON
    kinds. ExportRefused for an unknown kind or a parameter out of its bounds."""

    if kind not in FORMATS:
        raise ExportRefused(unknown_format_message(kind))
    media = FORMATS[kind].media_type
    paper = params.get("paper", "a4") or "a4"
    if kind in ("text", "json"):
        return deck_export(deck=deck, version=version, as_=kind), media
    if kind == "markdown":
        return as_markdown(deck, version), media
    if kind == "bbcode":
        return as_bbcode(deck, version), media
    if kind == "tts":
        return as_tts(deck, version, absolute), media
    if kind == "proxies":
        raw = params.get("bleed", "0") or "0"
        if raw not in ("0", "3"):
            raise ExportRefused(f"bleed {raw!r}: use 0 or 3 (millimetres)", "bleed")
        return as_proxies(deck, version, paper=paper, bleed=int(raw)), media
    if kind == "sheet":
        return (
            as_sheet(
                deck,
                version,
                paper=paper,
                player=params.get("player", ""),
                event=params.get("event", ""),
                date=params.get("date", ""),
            ),
            media,
        )
    return as_unit_sheet(deck, version, paper=paper), media


def download(deck, version, kind: str, body, media: str):
    """An export as a file to download, named after the game, deck and version."""

    if isinstance(body, dict):
        content: bytes | str = json.dumps(body, indent=2, ensure_ascii=False)
    else:
        content = body
    charset = "" if isinstance(content, bytes) else "; charset=utf-8"
    response = HttpResponse(content, content_type=f"{media}{charset}")
    name = filename(deck, version, FORMATS[kind])
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
