"""The site as an installable app read without a signal: at the root, so that the service
worker's scope is the whole site (its names are the site's own: `service-worker`,
`manifest`, `offline`)."""

from django.urls import path

from . import offline

urlpatterns = [
    path("sw.js", offline.service_worker, name="service-worker"),
    path("manifest.webmanifest", offline.manifest, name="manifest"),
    path("offline/", offline.offline, name="offline"),
]
