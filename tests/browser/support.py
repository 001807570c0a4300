"""Helpers shared by the browser tests."""

from __future__ import annotations


def page_ready(page) -> None:
    """Wait until the page that a click navigated to has loaded and htmx has bound it.

    A click that follows a link or submits a form returns once the new document has
    committed, not once it has loaded: htmx (a deferred script) binds its triggers on
    DOMContentLoaded, so a change made before that is never sent. `page.goto` already
    waits for the load event; navigations started by a click must wait here.
    """
    page.wait_for_load_state("load")
    page.wait_for_function("() => window.htmx !== undefined")
