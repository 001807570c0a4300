"""htmx requests as the site's pages read them, and the answers' `Vary`.

A page whose form pushes its address (the catalogue's search, a play tool) answers the same
address twice: the whole page to a browser, a piece of it to htmx (`HX-Request: true`). A
browser's cache keys an answer by its address only, unless the answer says which request
headers it depends on: without `Vary: HX-Request`, Back to a searched address after opening
a card brought the piece back from the cache as the page (no header, no style sheet). So
every HTML answer says `Vary: HX-Request, HX-History-Restore-Request`.

A history restore (htmx's request for a page it no longer holds in its history cache,
`HX-History-Restore-Request: true`) replaces the whole body with the answer: it must get the
whole page. The site's htmx asks without `HX-Request` (`historyRestoreAsHxRequest` off in
`templates/base.html`); one that still sends it is answered as a browser's request all the
same, since a history restore counts as no htmx request (`request.htmx` is false)."""

from __future__ import annotations

from django.http import HttpResponseBase
from django.utils.cache import patch_vary_headers
from django_htmx.middleware import HtmxDetails
from django_htmx.middleware import HtmxMiddleware as BaseHtmxMiddleware

VARY = ("HX-Request", "HX-History-Restore-Request")


class PageHtmxDetails(HtmxDetails):
    """django-htmx's details of a request, false for a history restore (which wants the
    whole page), so that a view's `if request.htmx:` picks the whole page for it."""

    def __bool__(self) -> bool:
        return super().__bool__() and not self.history_restore_request


class HtmxMiddleware(BaseHtmxMiddleware):
    """django-htmx's middleware with `PageHtmxDetails`, adding `Vary` to HTML answers.
    (The site is served over WSGI: this middleware is synchronous only.)"""

    async_capable = False

    def __call__(self, request):
        request.htmx = PageHtmxDetails(request)
        response = self.get_response(request)
        assert isinstance(response, HttpResponseBase)  # synchronous only (above)
        if response.get("Content-Type", "").startswith("text/html"):
            patch_vary_headers(response, VARY)
        return response
