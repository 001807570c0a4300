"""A deck exported (a file of one format, or the printable sheet)."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render

from cardsite.throttling import page_throttle

from .. import exports, selectors
from ..models import Deck
from ..presentation import totals_rows
from .lookups import deck_urls, int_param, readable, version_of


def _export(request, deck: Deck, kind: str):
    version = version_of(deck, int_param(request, "v"))
    if version is None:
        raise Http404("this deck has no saved list yet")
    if kind == "print":
        report = deck.verdict if version.pk == deck.current_version_id else version.verdict
        return render(
            request,
            "decks/print.html",
            {
                "deck": deck,
                "version": version,
                "game": deck.game.definition,
                "sections": selectors.version_sections(deck=deck, version=version),
                "report": report,
                "totals": totals_rows(report.totals if report else None, deck.game.definition),
                "sheet": {
                    name: request.GET.get(name, "")[: exports.SHEET_FIELD_MAX]
                    for name in ("player", "event", "date")
                },
            },
        )
    if kind not in exports.FORMATS:
        raise Http404("unknown export format")
    fmt = exports.FORMATS[kind]
    try:
        body = fmt.render(deck, version, request.GET, request.build_absolute_uri)
    except exports.ExportRefused as exc:
        return render(
            request,
            "decks/export_refused.html",
            {"deck": deck, "message": exc.message, "urls": deck_urls(deck, None)},
            status=400,
        )
    return fmt.response(deck, version, body)


@page_throttle("export", methods=("GET",))
def deck_export(request, pk: int, kind: str):
    return _export(request, readable(request, pk=pk), kind)


@page_throttle("export", methods=("GET",))
def deck_shared_export(request, token: str, kind: str):
    return _export(request, readable(request, token=token), kind)
