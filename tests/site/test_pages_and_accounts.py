"""Home page, sign up, sign in and out, password change and reset, profile, admin."""

import re

import pytest
from django.core import mail
from django.urls import reverse

from validation.registry import registry

pytestmark = pytest.mark.django_db


def test_home_lists_the_five_games_with_card_counts(client, sample_catalogue):
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    for game in registry.all():
        assert game.name in html
    assert re.search(r"<strong>\d+</strong> cards", html)
    assert "<strong>0</strong>" not in html


def test_header_has_the_site_menu(client):
    html = client.get("/").content.decode()
    for label in ("Cards", "Build", "My decks", "Simulations", "Sign in"):
        assert f">{label}<" in html
    assert ">Admin<" not in html


def test_staff_see_admin_in_the_header_and_reach_it(client, staff_user):
    client.force_login(staff_user)
    assert ">Admin<" in client.get("/").content.decode()
    assert client.get("/admin/").status_code == 200


def test_non_staff_cannot_reach_the_admin(client, user):
    client.force_login(user)
    response = client.get("/admin/")
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]


def test_sign_up_signs_in_and_shows_the_profile(client):
    response = client.post(
        reverse("signup"),
        {
            "username": "carol",
            "email": "carol@example.com",
            "password1": "tiger-cat-9876",
            "password2": "tiger-cat-9876",
        },
        follow=True,
    )
    assert response.status_code == 200
    assert response.context["user"].username == "carol"
    assert "No decks yet" in response.content.decode()


def test_sign_up_reports_field_errors(client):
    response = client.post(
        reverse("signup"), {"username": "", "email": "nope", "password1": "a", "password2": "b"}
    )
    assert response.status_code == 200
    form = response.context["form"]
    assert {"username", "email", "password2"} <= set(form.errors)


def test_log_in_and_out(client, user):
    response = client.post(reverse("login"), {"username": "alice", "password": "a-long-pass-123"})
    assert response.status_code == 302
    assert client.get(reverse("profile")).status_code == 200
    client.post(reverse("logout"))
    assert client.get(reverse("profile")).status_code == 302


def test_login_attempts_are_rate_limited(client, user, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post(reverse("login"), {"username": "alice", "password": "wrong"})
    response = client.post(reverse("login"), {"username": "alice", "password": "a-long-pass-123"})
    assert response.status_code == 429
    assert "Too many sign-in attempts" in response.content.decode()


def test_password_change(client, user):
    client.force_login(user)
    response = client.post(
        reverse("password_change"),
        {
            "old_password": "a-long-pass-123",
            "new_password1": "brand-new-pass-42",
            "new_password2": "brand-new-pass-42",
        },
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("brand-new-pass-42")


def test_password_reset_sends_a_working_link(client, user):
    client.post(reverse("password_reset"), {"email": "alice@example.com"})
    assert len(mail.outbox) == 1
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", mail.outbox[0].body).group(1)
    response = client.get(link, follow=True)
    assert response.status_code == 200
    form_url = response.redirect_chain[-1][0]
    response = client.post(
        form_url, {"new_password1": "reset-pass-7788", "new_password2": "reset-pass-7788"}
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("reset-pass-7788")


def test_profile_requires_sign_in(client):
    response = client.get(reverse("profile"))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


def test_every_page_names_its_icon_and_the_play_tools_are_in_the_navigation(client, db):
    html = client.get("/").content.decode()
    assert 'rel="icon"' in html and "favicon" in html
    nav = html[html.index('<nav aria-label="Main">') : html.index("</nav>")]
    assert 'href="/play/"' in nav and ">Play<" in nav
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"].endswith(".svg")
    play = client.get("/play/")
    assert play.status_code == 200


def test_a_forged_forwarded_for_does_not_escape_the_sign_in_lock(client, user, settings):
    """The lock keys on the real client address: a new X-Forwarded-For on every try (no
    trusted proxy in front) is still the same client."""
    for i in range(settings.AXES_FAILURE_LIMIT):
        client.post(
            reverse("login"),
            {"username": "alice", "password": "wrong"},
            HTTP_X_FORWARDED_FOR=f"198.51.100.{i}",
        )
    response = client.post(
        reverse("login"),
        {"username": "alice", "password": "a-long-pass-123"},
        HTTP_X_FORWARDED_FOR="203.0.113.77",
    )
    assert response.status_code == 429
