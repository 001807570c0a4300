from django import template

register = template.Library()


@register.filter
def pct(value, digits: int = 1) -> str:
    """0.1234 -> "12.3%"; None -> "—"."""
    if value is None or value == "":
        return "—"
    return f"{float(value) * 100:.{int(digits)}f}%"


@register.filter
def get_item(mapping, key):
    return mapping.get(key) if hasattr(mapping, "get") else None
