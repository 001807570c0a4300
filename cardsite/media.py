"""Uploaded media (card images) served by the site itself, in production too, when
MEDIA_URL is a path of this site (the default, /media/). Only files under MEDIA_ROOT, no
directory listing, images with their own type and every other file as a download, with
`X-Content-Type-Options: nosniff` and a long cache lifetime (uploads get unique names).
A CDN or object store instead: set MEDIA_URL to its address and this route is not added."""

from __future__ import annotations

import mimetypes
from pathlib import Path

from django.conf import settings
from django.core.exceptions import SuspiciousFileOperation
from django.http import FileResponse, Http404
from django.utils._os import safe_join
from django.views.decorators.http import require_http_methods

IMAGE_TYPES = {
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".webp": "image/webp",
}
MAX_AGE = 7 * 24 * 3600


@require_http_methods(["GET", "HEAD"])
def serve_media(request, path: str):
    try:
        full = Path(safe_join(settings.MEDIA_ROOT, path))
    except (ValueError, SuspiciousFileOperation) as exc:  # a path outside MEDIA_ROOT
        raise Http404("no such file") from exc
    if not full.is_file():
        raise Http404("no such file")
    content_type = IMAGE_TYPES.get(full.suffix.lower())
    response = FileResponse(
        full.open("rb"),
        content_type=content_type
        or mimetypes.guess_type(full.name)[0]
        or "application/octet-stream",
        as_attachment=content_type is None,
        filename=full.name,
    )
    response["X-Content-Type-Options"] = "nosniff"
    response["Cache-Control"] = f"public, max-age={MAX_AGE}"
    response["Content-Security-Policy"] = "default-src 'none'; sandbox"
    return response
