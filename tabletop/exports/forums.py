"""A version as text for forums: Markdown and BBCode, in the order the deck page lists it."""

from __future__ import annotations

from collections.abc import Mapping

from validation.types import CardFacts

from .lines import by_section, title, version_lines


def as_markdown(deck, version, *, facts: Mapping[str, CardFacts] | None = None) -> str:
    """The list as Markdown: a heading, a line naming game, format and version, and a
    section per heading with "N × Card" items (" @c,r" for a placed unit), in the order the
    deck page lists them (`facts` as `version_lines` takes them)."""
    name, sub = title(deck, version)
    out = [f"# {_md(name)}", "", f"*{_md(sub)}*", ""]
    lines_in_order = version_lines(deck, version, facts=facts, with_cards=False)
    for _, label, lines in by_section(lines_in_order):
        out.append(f"## {_md(label)} ({sum(line.count for line in lines)})")
        out.append("")
        out += [f"- {line.count} × {_md(line.name)}{line.where}" for line in lines]
        out.append("")
    return "\n".join(out)


def _md(text: str) -> str:
    """Markdown's own characters escaped in user text."""
    for ch in "\\`*_{}[]<>#|":
        text = text.replace(ch, "\\" + ch)
    return text


def as_bbcode(deck, version, *, facts: Mapping[str, CardFacts] | None = None) -> str:
    """The list as BBCode (forums): the name in bold, then a [list] per section, in the
    order the deck page lists them (`facts` as `version_lines` takes them)."""
    name, sub = title(deck, version)
    out = [f"[b]{_bb(name)}[/b]", _bb(sub), ""]
    lines_in_order = version_lines(deck, version, facts=facts, with_cards=False)
    for _, label, lines in by_section(lines_in_order):
        out.append(f"[b]{_bb(label)} ({sum(line.count for line in lines)})[/b]")
        out.append("[list]")
        out += [f"[*]{line.count} {_bb(line.name)}{line.where}" for line in lines]
        out.append("[/list]")
    return "\n".join(out) + "\n"


def _bb(text: str) -> str:
    """Square brackets in user text would open tags: shown as their full-width look-alikes."""
    return text.replace("[", "［").replace("]", "］")
