"""The problems of a search as a page shows them: a "did you mean …?" links to the search
with the term corrected."""

from __future__ import annotations

from typing import Any

from django import template

from catalogue.search import suggestion_words

register = template.Library()


@register.simple_tag(takes_context=True)
def search_problems(context, result, base: str = "") -> list[dict[str, str]]:
    """Each problem of `result` (a SearchResult) as {"before", "suggestion", "after", "href"}:
    a problem offering a correction is cut around its "did you mean …?", whose word links to
    the page `base` (by default the one shown) searching the corrected query (`href`); the
    others are `before` alone."""
    request = context.get("request")
    href = ""
    if request is not None and result.corrected_query:
        params = request.GET.copy()
        for key in ("page", "after"):
            params.pop(key, None)
        params["q"] = result.corrected_query
        href = f"{base}?{params.urlencode()}"
    offered = {d.why: d.suggestion for d in result.dropped if d.suggestion and d.correction}
    out: list[dict[str, Any]] = []
    for problem in result.problems:
        suggestion = offered.get(problem, "")
        said = suggestion_words(suggestion) if suggestion else ""
        cut = problem.find(said) if said and href else -1
        if cut < 0:
            out.append({"before": problem, "suggestion": "", "after": "", "href": ""})
            continue
        out.append(
            {
                "before": problem[:cut],
                "suggestion": suggestion,
                "after": problem[cut + len(said) :],
                "href": href,
            }
        )
    return out
