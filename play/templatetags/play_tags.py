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
