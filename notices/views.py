"""The notices page (newest first, each linking to its deck), "mark all read", and the
digest opt-in of the account page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from . import services
from .forms import NoticePreferenceForm
from .models import SWITCHABLE_KINDS

PAGE_SIZE = 50


@login_required
def notice_list(request):
    page = Paginator(services.notices_for(request.user), PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    return render(request, "notices/list.html", {"page": page, "notices": page.object_list})


@login_required
@require_http_methods(["POST"])
def notices_read(request):
    n = services.notices_mark_all_read(request.user)
    messages.success(request, f"{n} notice{'s' if n != 1 else ''} marked read.")
    return redirect("notices:list")


@login_required
@require_http_methods(["POST"])
def notice_preference(request):
    form = NoticePreferenceForm(request.POST)
    form.is_valid()  # a checkbox: absent is off
    on = bool(form.cleaned_data.get("email_digest"))
    # The community kinds, when the form showed them: a box left unticked switches its kind
    # off.
    muted = None
    if request.POST.get("kinds_shown") == "1":
        wanted = set(request.POST.getlist("kind"))
        muted = [str(k) for k in SWITCHABLE_KINDS if str(k) not in wanted]
    services.preference_set(request.user, email_digest=on, muted=muted)
    if on and not request.user.email:
        messages.warning(
            request, "Digest on, but your account has no email address: none can be sent."
        )
    else:
        messages.success(request, f"Email digest {'on' if on else 'off'}.")
    return redirect("/accounts/profile/#notices")
