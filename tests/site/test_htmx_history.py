"""A page whose address htmx pushes (every game's catalogue search, every live play tool)
answers the same address as a whole page to a browser and as a piece of it to htmx: both
answers say `Vary: HX-Request`, so that a browser's cache never serves the piece as the page,
and a history restore (`HX-History-Restore-Request`) gets the whole page, even when it also
says `HX-Request`."""

from __future__ import annotations

import pytest

from validation.registry import registry

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
RESTORE = {"HTTP_HX_REQUEST": "true", "HTTP_HX_HISTORY_RESTORE_REQUEST": "true"}


def pushed_pages() -> list[str]:
    pages = []
    for game in registry.all():
        pages.append(f"/cards/{game.slug}/?q=a")
        pages.extend(
            f"/play/{game.slug}/{tool.slug}/" for tool in game.tools if tool.background is None
        )
    return pages


def vary(response) -> set[str]:
    return {v.strip().lower() for v in response.get("Vary", "").split(",")}


def is_whole_page(response) -> bool:
    html = response.content.decode()
    return '<header class="site">' in html and "css/site" in html


@pytest.mark.parametrize("url", pushed_pages())
def test_a_pushed_address_varies_by_hx_request_and_a_history_restore_is_the_whole_page(
    client, sample_catalogue, url
):
    page = client.get(url, follow=True)
    if page.redirect_chain:  # a tool that draws a seed puts it in the address first
        url = page.redirect_chain[-1][0]
    piece = client.get(url, **HTMX)
    restored = client.get(url, **RESTORE)
    assert page.status_code == piece.status_code == restored.status_code == 200
    assert is_whole_page(page) and not is_whole_page(piece)
    assert is_whole_page(restored)
    for response in (page, piece, restored):
        assert {"hx-request", "hx-history-restore-request"} <= vary(response), url


def test_the_site_htmx_asks_for_a_history_restore_as_a_page_request(client):
    """htmx sends `HX-Request` with a history restore unless told not to: the site's config
    tells it not to, so a restore is the browser's own request for the page."""
    html = client.get("/").content.decode()
    assert '"historyRestoreAsHxRequest": false' in html
