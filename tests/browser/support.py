"""Helpers shared by the browser tests."""

from __future__ import annotations

#: Words longer than this (addresses, share tokens) may break: nothing else fits a phone.
LONG_WORD = 24

#: A script returning the words of the page drawn on more than one line (each word of the
#: page's text is measured with a Range), at most 15; its argument is LONG_WORD.
BROKEN_WORDS = """(longest) => {
  const bad = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let node;
  while ((node = walker.nextNode())) {
    const el = node.parentElement;
    if (!el || el.closest("svg, script, style, noscript, textarea, select, option, [hidden]")) continue;
    const style = getComputedStyle(el);
    if (style.visibility === "hidden" || !el.getClientRects().length) continue;
    // Chunks between spaces; one longer than `longest` (an address) may break anywhere.
    const chunks = /\\S+/g;
    let c;
    while ((c = chunks.exec(node.textContent))) {
     if (c[0].length > longest) continue;
     const re = /[^\\-\\u2013\\u2014\\/,·]+/g;
     let m;
     while ((m = re.exec(c[0]))) {
      const word = m[0];
      if (word.length < 2) continue;
      const range = document.createRange();
      range.setStart(node, c.index + m.index);
      range.setEnd(node, c.index + m.index + word.length);
      const tops = new Set(Array.from(range.getClientRects()).filter((r) => r.width > 0)
        .map((r) => Math.round(r.top)));
      if (tops.size > 1) {
        bad.push(word + " in <" + el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
          + (el.className && typeof el.className === "string" ? "." + el.className.split(" ").join(".") : "") + ">");
      }
     }
    }
  }
  return bad.slice(0, 15);
}"""


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


def sign_in(page, username: str, password: str, *, at: str = "/accounts/login/") -> None:
    """Sign in through the sign-in form at `at` (the site's, or the admin's)."""
    page.goto(at)
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("main form [type=submit]")
    page.wait_for_load_state("load")
