from django import template

register = template.Library()


@register.filter
def cell(value) -> str:
    """A table cell of a tool's answer: None as a dash, a fraction of one to 4 decimals."""
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.4f}"
    return str(value)


#: A tool's table with more columns than this is read as stacked rows on a phone: each row a
#: block, each cell on a line after its column's name (site.css `table.stack`).
STACK_AFTER = 3


@register.filter
def labelled(row, columns) -> list[tuple[str, object]]:
    """The cells of a table's row, each with its column's name."""
    return list(zip(columns, row, strict=False))


@register.filter
def stacks(columns) -> bool:
    """Whether a table of these columns is stacked on a phone (too wide for one)."""
    return len(columns) > STACK_AFTER
