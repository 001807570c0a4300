"""A visitor without an account who asks for a new deck is told that building needs one and
offered both ways in (sign in, create an account), each leading back to the deck they
asked for; the sign-up form follows that address (a safe one only)."""

from __future__ import annotations

import re
from html import unescape
from urllib.parse import quote

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

NEW_DECK_PAGES = [
    reverse("builder:new", args=["redline", "standard"]),
    reverse("builder:start"),
    reverse("decks:new"),
    reverse("decks:import"),
]


def _links(page: str) -> set[str]:
    return {unescape(href) for href in re.findall(r'href="([^"]+)"', page)}


@pytest.mark.parametrize("url", NEW_DECK_PAGES)
def test_a_new_deck_page_tells_a_visitor_building_needs_an_account(client, url):
    response = client.get(url)
    assert response.status_code == 200
    page = response.content.decode()
    assert "Building a deck needs an account" in page
    back = quote(url, safe="/")
    links = _links(page)
    assert f"{reverse('signup')}?next={back}" in links
    assert f"{reverse('login')}?next={back}" in links
    # What a visitor can do without one.
    assert reverse("decks:check") in links


def test_a_form_sent_without_an_account_still_goes_to_the_sign_in_page(client):
    response = client.post(reverse("decks:new"), {"name": "x"})
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_the_build_page_says_so_before_a_visitor_chooses_a_format(client):
    page = client.get(reverse("decks:build")).content.decode()
    assert "Building a deck needs an account" in page
    links = _links(page)
    assert f"{reverse('signup')}?next={reverse('decks:build')}" in links
    assert f"{reverse('login')}?next={reverse('decks:build')}" in links


def test_the_build_page_of_a_signed_in_user_says_nothing_of_accounts(client, user):
    client.force_login(user)
    page = client.get(reverse("decks:build")).content.decode()
    assert "needs an account" not in page


def _sign_up(client, url: str, name: str = "newcomer"):
    return client.post(
        url,
        {
            "username": name,
            "email": f"{name}@example.com",
            "password1": "a-long-pass-for-tests-123",
            "password2": "a-long-pass-for-tests-123",
        },
    )


def test_signing_up_leads_back_to_the_deck_asked_for(client):
    wanted = reverse("builder:new", args=["redline", "standard"])
    page = client.get(f"{reverse('signup')}?next={quote(wanted)}").content.decode()
    # The sign-in link of the sign-up page keeps the way back too.
    assert f"{reverse('login')}?next={quote(wanted, safe='/')}" in _links(page)
    response = _sign_up(client, f"{reverse('signup')}?next={quote(wanted)}")
    assert response.status_code == 302 and response["Location"] == wanted
    assert client.get(wanted).context["user"].username == "newcomer"


def test_signing_up_never_leads_to_another_site(client):
    response = _sign_up(client, f"{reverse('signup')}?next=https://elsewhere.example/")
    assert response.status_code == 302 and response["Location"] == reverse("profile")


def test_the_sign_in_page_offers_an_account_with_the_same_way_back(client):
    wanted = reverse("decks:new")
    page = client.get(f"{reverse('login')}?next={quote(wanted)}").content.decode()
    assert f"{reverse('signup')}?next={quote(wanted, safe='/')}" in _links(page)
