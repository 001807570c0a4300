import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardsite.settings")
django_application = get_wsgi_application()

from cardsite.http_edge import BodyEdge  # noqa: E402 - reads the settings set up above

# Chunked bodies read, and a body left unread by an early answer drained (cardsite.http_edge).
application = BodyEdge(django_application)
