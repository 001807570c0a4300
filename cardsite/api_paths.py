"""An API address without its trailing slash is the same resource, not a redirect.

Django's `APPEND_SLASH` answers `POST /api/validate` with a 301 to `/api/validate/`: a client
that follows it sends a GET, and the body is lost. Under `/api/`, a path that does not
resolve while the same path with a slash does is served as that one; any other unknown path
is the API's JSON 404 (cardsite.views.page_not_found). Pages keep Django's redirect.
"""

from __future__ import annotations

from django.urls import is_valid_path


class ApiTrailingSlashMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        path = request.path_info
        if path.startswith("/api/") and not path.endswith("/"):
            urlconf = getattr(request, "urlconf", None)
            if not is_valid_path(path, urlconf) and is_valid_path(f"{path}/", urlconf):
                request.path_info = f"{path}/"
                request.path = f"{request.path}/"
        return self.get_response(request)
