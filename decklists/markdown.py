"""User text (decklist descriptions, comments) in Markdown, rendered by markdown-it-py and
sanitised by nh3 (the Ammonia sanitiser): only a small set of tags survives, links keep
http(s) and mailto addresses and the site's own paths and get `rel="nofollow ugc"`, and
everything else (scripts, event attributes, styles, images, raw HTML) is dropped. Nothing
here parses HTML by hand.

`@name` mentions of existing users become links to their author pages; `mentions(text)`
reads the names a text mentions.
"""

from __future__ import annotations

import re

import nh3
from django.urls import reverse
from markdown_it import MarkdownIt

#: Tags a rendered text may keep.
TAGS = {
    "p",
    "br",
    "strong",
    "em",
    "code",
    "pre",
    "blockquote",
    "ul",
    "ol",
    "li",
    "a",
    "h3",
    "h4",
    "hr",
    "del",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
}
ATTRIBUTES = {"a": {"href", "title"}, "ol": {"start"}}
URL_SCHEMES = {"http", "https", "mailto"}
LINK_REL = "nofollow ugc"
#: The most names one text may mention (the rest are plain text).
MAX_MENTIONS = 10

#: A user name as Django's default validator allows it (letters, digits and @.+-_), after an
#: @ that does not follow a word character (an email address is no mention).
MENTION = re.compile(r"(?<![\w@.+-])@([\w.+-]{1,150})")

# CommonMark with tables and strikethrough. Raw HTML in the text is parsed and handed to the
# sanitiser, which keeps the allowed tags and drops the rest (a script with its content);
# headings are demoted below the page's own (h3, h4).
_md = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])


def mentions(text: str) -> list[str]:
    """The user names `text` mentions with @, in order, each once (at most MAX_MENTIONS)."""
    names = list(dict.fromkeys(m.rstrip(".") for m in MENTION.findall(text or "")))
    return [n for n in names if n][:MAX_MENTIONS]


def _demote_headings(html: str) -> str:
    for level in range(1, 7):
        target = min(max(level + 2, 3), 4)
        html = html.replace(f"<h{level}>", f"<h{target}>").replace(f"</h{level}>", f"</h{target}>")
    return html


def render(text: str, *, known_users: set[str] | frozenset[str] = frozenset()) -> str:
    """`text` (Markdown) as sanitised HTML; `@name` of a user in `known_users` links to their
    author page."""
    source = text or ""
    if known_users:

        def link(match: re.Match) -> str:
            name = match.group(1).rstrip(".")
            if name not in known_users:
                return match.group(0)
            url = reverse("decklists:author", args=[name])
            return f"[@{name}]({url})" + match.group(1)[len(name) :]

        source = MENTION.sub(link, source)
    html = _demote_headings(_md.render(source))
    return nh3.clean(
        html,
        tags=TAGS,
        attributes=ATTRIBUTES,
        url_schemes=URL_SCHEMES,
        link_rel=LINK_REL,
        clean_content_tags={"script", "style"},
    )
