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


def sign_up(page, prefix: str = "player") -> str:
    """Sign up a new account through the page; returns its user name."""
    import uuid

    from playwright.sync_api import expect

    username = f"{prefix}{uuid.uuid4().hex[:8]}"
    page.goto("/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_email", f"{username}@example.com")
    page.fill("#id_password1", "a-long-pass-for-tests-123")
    page.fill("#id_password2", "a-long-pass-for-tests-123")
    page.click("form.panel button[type=submit]")
    expect(page.locator("header.site")).to_contain_text(username)
    return username


def builder_state(page) -> str:
    """The base version and working revision the builder page holds ("3:2")."""
    return page.evaluate(
        "() => (document.querySelector('#builder-base')||{}).value + ':' +"
        " (document.querySelector('#builder-rev')||{}).value"
    )


def wait_saved(page, before: str) -> str:
    """Wait until an autosave moved the page's base or revision on from `before` and htmx
    has settled the swapped panels (a fast click could land on a node not yet live)."""
    page.wait_for_function(
        "prev => { const b = document.querySelector('#builder-base'),"
        " r = document.querySelector('#builder-rev');"
        " return b && r && (b.value + ':' + r.value) !== prev"
        " && !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling'); }",
        arg=before,
        timeout=15_000,
    )
    return builder_state(page)
