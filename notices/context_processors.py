from django.utils.functional import SimpleLazyObject

from .services import unread_count


def unread(request):
    """`unread_notices`: the signed-in user's unread notices, read (from the cache) only when
    a template shows it."""
    user = getattr(request, "user", None)
    return {"unread_notices": SimpleLazyObject(lambda: unread_count(user))}
