"""A form sent back as a browser sends it, untouched: the data set HTML builds from a form
(https://html.spec.whatwg.org/#constructing-the-form-data-set), read from the page as served.

What a browser does that a hand-written dict would not: a text area drops the one line break
after its start tag and sends its line ends as CR LF, a one-line input loses its line breaks,
a checkbox is sent only when checked (as "on" without a value), a select without a chosen
option sends its first option, and nothing disabled, no file input and no button but the one
pressed is sent."""

from __future__ import annotations

import re
from html.parser import HTMLParser

_NO_VALUE_INPUTS = {"submit", "button", "reset", "image", "file"}
_ONE_LINE_INPUTS = {"text", "search", "tel", "password", "email", "url"}


def _crlf(text: str) -> str:
    return re.sub(r"\r\n|\r|\n", "\r\n", text)


class _FormReader(HTMLParser):
    def __init__(self, form_id: str):
        super().__init__(convert_charrefs=True)
        self.form_id = form_id
        self.inside = False
        self.depth = 0
        self.found = False
        self.entries: list[tuple[str, str]] = []
        self._select: dict | None = None
        self._option: dict | None = None
        self._textarea: dict | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            if a.get("id") == self.form_id:
                self.inside, self.found = True, True
            return
        if not self.inside:
            return
        if tag == "input":
            self._input(a)
        elif tag == "select":
            self._select = {"attrs": a, "options": []}
        elif tag == "option" and self._select is not None:
            self._option = {"attrs": a, "text": ""}
            self._select["options"].append(self._option)
        elif tag == "textarea":
            self._textarea = {"attrs": a, "text": ""}

    def handle_endtag(self, tag):
        if tag == "form" and self.inside:
            self.inside = False
        elif tag == "select" and self._select is not None:
            self._end_select()
        elif tag == "option":
            self._option = None
        elif tag == "textarea" and self._textarea is not None:
            self._end_textarea()

    def handle_data(self, data):
        if self._textarea is not None:
            self._textarea["text"] += data
        elif self._option is not None:
            self._option["text"] += data

    def _input(self, a):
        name = a.get("name")
        kind = (a.get("type") or "text").lower()
        if not name or "disabled" in a or kind in _NO_VALUE_INPUTS:
            return
        if kind in ("checkbox", "radio"):
            if "checked" in a:
                self.entries.append((name, a.get("value", "on")))
            return
        value = a.get("value", "")
        if kind in _ONE_LINE_INPUTS:
            value = value.replace("\r", "").replace("\n", "")
        if kind in ("email", "url"):
            value = value.strip()
        self.entries.append((name, value))

    def _end_select(self):
        select, self._select = self._select, None
        a = select["attrs"]
        name = a.get("name")
        if not name or "disabled" in a:
            return
        options = [o for o in select["options"] if "disabled" not in o["attrs"]]
        chosen = [o for o in options if "selected" in o["attrs"]]
        if not chosen and "multiple" not in a and options:
            chosen = options[:1]
        if "multiple" not in a:
            chosen = chosen[-1:]
        for o in chosen:
            value = o["attrs"].get("value")
            if value is None:
                value = " ".join(o["text"].split())
            self.entries.append((name, value))

    def _end_textarea(self):
        area, self._textarea = self._textarea, None
        a = area["attrs"]
        if not a.get("name") or "disabled" in a:
            return
        text = area["text"]
        if text.startswith("\r\n"):
            text = text[2:]
        elif text.startswith("\n"):
            text = text[1:]
        self.entries.append((a["name"], text))


def untouched_form_data(page: str, form_id: str, submit: str | None = None) -> dict:
    """The data a browser sends for the form `form_id` of `page` when nothing is changed
    and the button named `submit` is pressed, as a dict for Django's test client (a name
    sent several times maps to the list of its values)."""
    reader = _FormReader(form_id)
    reader.feed(page)
    reader.close()
    assert reader.found, f"no form #{form_id} on the page"
    data: dict[str, list[str]] = {}
    for name, value in reader.entries:
        data.setdefault(name, []).append(_crlf(value))
    if submit is not None:
        data[submit] = [""]
    return {name: values[0] if len(values) == 1 else values for name, values in data.items()}
