"""Checking a search term's value: numbers, true and false, a choice written loosely, the
close spelling of a key or a card's name, and `_Drop`, a term that cannot be used."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable
from typing import Any

from django.db.models import Q

from ..models import Card
from .language import (
    FALSE_WORDS,
    FUZZY_MIN,
    MAX_NUMBER,
    TRUE_WORDS,
    Term,
)


class _Drop(Exception):
    """A term that cannot be used; the message says what and why. `suggestion` is the word
    offered instead ("did you mean …?"), `correction` the term rewritten with it."""

    def __init__(self, message: str, suggestion: str = "", correction: str = "") -> None:
        super().__init__(message)
        self.suggestion = suggestion
        self.correction = correction


def _fmt_value(value: str) -> str:
    if value == "" or any(c.isspace() or c in '()"' for c in value):
        return '"' + value.replace('"', "") + '"'
    return value


#: The typo-forgiving name match of the SQLite fallback: how alike a word and a name (or
#: one of its words) must be, how many names it reads at most, and how many it returns.
CLOSE_CUTOFF = 0.75
CLOSE_SCAN_MAX = 50_000
CLOSE_MAX = 50


def close_name_ids(word: str, game_slug: str | None) -> list[int]:
    """Ids of the cards whose name, or a word of it, is close to `word` (difflib's ratio
    at least CLOSE_CUTOFF): a name typed with one letter left out is found. The fallback for databases without
    trigram indexes (SQLite, the embedded default); one query over the game's names."""
    target = word.lower().strip()
    if len(target) < FUZZY_MIN:
        return []
    qs = Card.objects.all()
    if game_slug:
        qs = qs.filter(game__slug=game_slug)
    matcher = difflib.SequenceMatcher(b=target, autojunk=False)
    scored: list[tuple[float, int]] = []
    for pk, name in qs.values_list("pk", "name")[:CLOSE_SCAN_MAX]:
        best = 0.0
        for candidate in (name.lower(), *name.lower().split()):
            matcher.set_seq1(candidate)
            if matcher.real_quick_ratio() < CLOSE_CUTOFF or matcher.quick_ratio() < CLOSE_CUTOFF:
                continue
            best = max(best, matcher.ratio())
        if best >= CLOSE_CUTOFF:
            scored.append((best, pk))
    scored.sort(reverse=True)
    return [pk for _, pk in scored[:CLOSE_MAX]]


def _closest(word: str, candidates: Iterable[str]) -> str:
    """The candidate nearest to `word` ("" when none is near enough)."""
    close = difflib.get_close_matches(word.lower(), list(candidates), n=1, cutoff=0.6)
    return close[0] if close else ""


def suggestion_words(suggestion: str) -> str:
    """How a problem offers `suggestion` (searched for in the problem's text to link it)."""
    return f" — did you mean {suggestion}?"


def _value_drop(
    t: Term, message: str, value: str, candidates: Iterable[str], tail: str = ""
) -> _Drop:
    """A term whose value is not one of `candidates`: `message`, the nearest of them offered,
    then `tail`; the term rewritten to the one offered (its key and operator as typed)."""
    close = _closest(value, candidates)
    if not close:
        return _Drop(message + tail)
    return _Drop(
        message + suggestion_words(close) + tail,
        close,
        f"{t.raw[: len(t.key) + len(t.op)]}{close}",
    )


def _parse_int(term: Term, label: str) -> int:
    text = term.value.strip()
    if not re.fullmatch(r"[+-]?\d+", text):
        raise _Drop(f"{term.raw}: expected a number for {label}")
    number = int(text)
    if abs(number) > MAX_NUMBER:
        raise _Drop(f"{term.raw}: {text} is out of range")
    return number


def _parse_bool(term: Term) -> bool:
    low = term.value.strip().lower()
    if low in TRUE_WORDS:
        return True
    if low in FALSE_WORDS:
        return False
    raise _Drop(f"{term.raw}: expected true/false (or yes/no)")


def _norm_choice(value: str) -> str:
    return re.sub(r"[\s\-]+", "_", value.strip().lower())


def _any_fitting(
    items: Iterable[Any], reading: Callable[[Any], tuple[Q, str]]
) -> tuple[Q, list[str]]:
    """`reading` of each item, those that fit OR-ed, with each one's text; when none fits
    (each raised _Drop), the first one's reason."""
    results: list[tuple[Q, str]] = []
    errors: list[str] = []
    for item in items:
        try:
            results.append(reading(item))
        except _Drop as exc:
            errors.append(str(exc))
    if not results:
        raise _Drop(errors[0])
    q = results[0][0]
    for other, _ in results[1:]:
        q |= other
    return q, [text for _, text in results]
