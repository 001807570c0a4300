"""A page with a list form (a new deck, an edit, a collection import): a refused list's
errors shown by line, and the page's status (400 for a list over the size limit)."""

from __future__ import annotations

from django.shortcuts import render

from .forms import list_too_large
from .lists import ListInvalid


def list_invalid(context: dict, exc: ListInvalid) -> int:
    """Show a refused list's errors by line; the answer's status. An unknown name with
    exactly one close card name carries that name as its one-click fix (`fix`)."""
    fixes = {
        e.line: {"name": e.name, "card": e.suggestions[0]}
        for e in exc.unread
        if e.name and len(e.suggestions) == 1
    }
    context["line_errors"] = [
        {**error, "fix": fixes.get(error["line"]) if error.get("suggestions") else None}
        for error in exc.line_errors
    ]
    context["line_report"] = exc.checked.located() if exc.checked else None
    return 400


def list_form_page(request, template: str, form, context: dict, status: int):
    """A list form's page; a list over the size limit answers 400 whatever else happened."""
    return render(request, template, context, status=400 if list_too_large(form) else status)
