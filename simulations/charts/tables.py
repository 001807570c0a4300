"""A table spec drawn as an HTML table (stacked rows on a phone past a few columns)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

#: A table with more columns than this is read as stacked rows on a phone: each row a block,
#: each cell on a line after its column's name (site.css `table.stack`).
STACK_AFTER = 3


def _render_table(spec: Mapping[str, Any]) -> SafeString:
    columns = [str(c) for c in spec["columns"]]
    head = "".join(f"<th>{escape(c)}</th>" for c in columns)

    def cell(i: int, value: Any) -> str:
        if i == 0:
            return f'<td class="stack-title">{escape(_cell(value))}</td>'
        label = escape(columns[i]) if i < len(columns) else ""
        return f'<td data-label="{label}">{escape(_cell(value))}</td>'

    body = "".join(
        "<tr>" + "".join(cell(i, v) for i, v in enumerate(row)) + "</tr>" for row in spec["rows"]
    )
    classes = "sim-table stack" if len(columns) > STACK_AFTER else "sim-table"
    return mark_safe(  # noqa: S308 - every piece is escaped above
        f'<table class="{classes}" id="chart-{escape(spec.get("id", ""))}">'
        f"<caption>{escape(spec['title'])}</caption><thead><tr>{head}</tr></thead>"
        f"<tbody>{body}</tbody></table>"
    )


def _cell(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)
