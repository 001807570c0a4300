"""Reading the API's error answers (problem details, cardsite/problems.py) in tests."""

from __future__ import annotations


def field_errors(body: dict) -> dict[str, str]:
    """{field: message} of a problem's errors (the first message of each field)."""
    found: dict[str, str] = {}
    for entry in body["errors"]:
        if "field" in entry:
            found.setdefault(entry["field"], entry["message"])
    return found


def first_field(body: dict) -> str | None:
    return next((e["field"] for e in body["errors"] if "field" in e), None)


def line_errors(body: dict) -> list[dict]:
    """A problem's line errors as the lists report them: line, message, suggestions."""
    return [
        {"line": e["line"], "message": e["message"], "suggestions": e.get("suggestions", [])}
        for e in body["errors"]
        if "line" in e
    ]
