"""The sheets of a deck: the tournament sheet (the list on one page, with the player, event,
date, totals and verdict) and the unit sheet (each unit with its figures)."""

from __future__ import annotations

import io
import math
from collections.abc import Mapping
from typing import Any

from reportlab.lib.units import mm

from catalogue import card_images
from decks.exports import SHEET_FIELD_MAX, ExportRefused
from decks.presentation import totals_rows
from validation.registry import GameDef, registry

from .lines import Line, by_section, version_lines
from .pdf import canvas_for, draw_layout, missing_card, page_size


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
    canvas = canvas_for(buf, paper, f"{deck.name}: tournament sheet")
    page_w, page_h = page_size(paper)
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
        canvas.drawString(
            x + 42, yy, card_images.fit_text(value, 10, half - 50, True) if value else ""
        )
        canvas.setLineWidth(0.4)
        canvas.line(x + 40, yy - 3, x + half - 10, yy - 3)
    y -= 3 * 18 + 8
    sections = by_section(version_lines(deck, version))
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
                canvas.drawString(x, y, card_images.fit_text(text, size, col_w - 8, True))
            elif kind == "card":
                canvas.setFont("CardSans", size)
                canvas.drawRightString(x + size * 1.6, y, count)
                canvas.drawString(
                    x + size * 2.2, y, card_images.fit_text(text, size, col_w - size * 3)
                )
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
    canvas = canvas_for(buf, paper, f"{deck.name}: unit sheet")
    page_w, page_h = page_size(paper)
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

    facts = line.card.facts() if line.card else missing_card(line, game)
    face = card_images.safe_face(game, facts)
    canvas.saveState()
    canvas.setLineWidth(0.6)
    canvas.rect(x, y, w, h)
    canvas.setFont("CardSans-Bold", 11)
    canvas.drawString(x + 3 * mm, y + h - 6 * mm, card_images.fit_text(facts.name, 11, w - 30 * mm))
    canvas.setFont("CardSans", 9)
    cost = f"{facts.cost} pts" if game.has_cost(facts.kind) else ""
    canvas.drawRightString(x + w - 3 * mm, y + h - 6 * mm, f"× {line.count}   {cost}".strip())
    left = x + 3 * mm
    figure_w = 0.0
    if face.figure and face.figure.get("type") == "polygon":
        lay = card_images.Layout(26, 30)
        card_images.layout_figure(lay, face.figure, 0, 0, 26, "#333333")
        draw_layout(canvas, lay, left, y + h - 40 * mm)
        figure_w = 28 * mm
    sy = y + h - 11 * mm
    col_w = (w - 6 * mm - figure_w) / 2
    for j, (label, value) in enumerate(face.stats[:12]):
        cx = left + figure_w + (j % 2) * col_w
        if j % 2 == 0 and j:
            sy -= 4.2 * mm
        label = card_images.fit_text(str(label), 7.5, col_w * 0.6)
        canvas.setFont("CardSans", 7.5)
        canvas.setFillGray(0.35)
        canvas.drawString(cx, sy, label)
        canvas.setFillGray(0)
        canvas.setFont("CardSans-Bold", 8.5)
        room = col_w - card_images.text_width(label, 7.5) - 4 * mm
        canvas.drawRightString(
            cx + col_w - 2 * mm, sy, card_images.fit_text(str(value) or " ", 8.5, room, True)
        )
    if face.badges:
        canvas.setFont("CardSans", 7.5)
        canvas.drawString(
            left + figure_w,
            sy - 4.5 * mm,
            card_images.fit_text(" · ".join(face.badges), 7.5, w - 6 * mm - figure_w),
        )
    canvas.setFont("CardSans", 7)
    canvas.setFillGray(0.45)
    canvas.drawString(left + figure_w, y + 3 * mm, "Notes")
    canvas.setLineWidth(0.3)
    canvas.line(left + figure_w + 10 * mm, y + 3 * mm, x + w - 3 * mm, y + 3 * mm)
    canvas.restoreState()
