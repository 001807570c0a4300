"""The routers of the apps' API routes (gathered by cardsite.api_urls)."""

from rest_framework.routers import DefaultRouter


def api_router() -> DefaultRouter:
    """A router with trailing slashes, no root view of its own, and no `.json` suffix routes:
    the views take no `format` argument (a URL such as /api/games/<slug>.json/ answered
    500), and `?format=` already picks a renderer."""
    router = DefaultRouter(trailing_slash=True)
    router.include_root_view = False
    router.include_format_suffixes = False
    return router
