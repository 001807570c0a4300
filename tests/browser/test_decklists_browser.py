"""The decklist pages in a real browser, at 1440 px and 390 px, with the page sweep's checks
(axe-core at WCAG 2.2 AA and best practices, no console error, nothing wider than the screen,
no broken word, one h1, the skip link first): the search page (every game's and one game's,
with results and with an error), a decklist of every game signed out, signed in (reactions,
comments) and as staff (moderation), an author page, a set, the publish and publish-set
pages, the home page's strip and a card page's count. And the keyboard: a decklist is liked,
favourited and commented on with the keyboard alone, the focus never lost to the page."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from validation.registry import registry

from .test_page_sweep_browser import DESKTOP, PASSWORD, PHONE, Sweep, axe_source

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def community(live_server, live_catalogue, django_user_model):
    """Three players: one published a decklist of every game (and a set), one commented,
    liked and follows; staff. A decklist with a hidden comment."""
    from decklists import services
    from decks.list_header import header_options
    from decks.services import deck_create
    from validation import packages

    alice = django_user_model.objects.create_user("alice", "alice@example.com", PASSWORD)
    bob = django_user_model.objects.create_user("bob", "bob@example.com", PASSWORD)
    django_user_model.objects.create_user(
        "moderator", "mod@example.com", PASSWORD, is_staff=True, is_superuser=True
    )
    decklists = {}
    for game in registry.all():
        sample = packages.main_sample_list(game.slug)
        text = sample.text()
        deck = deck_create(
            owner=alice,
            game_slug=game.slug,
            format=sample.format,
            name=f"Sample {game.name.split(':')[0]} list",
            text=text,
            options=header_options(text, game.format(sample.format)),
        )
        decklists[game.slug] = services.decklist_publish(
            deck=deck,
            author=alice,
            name=deck.name,
            description="A **sample** decklist: [rules](https://example.com/rules).",
        )
    bob_deck = deck_create(
        owner=bob,
        game_slug="redline",
        format="standard",
        name="Bob's deck",
        text=packages.sample_list("redline", "standard").text(),
    )
    first = next(iter(decklists.values()))
    services.decklist_like(decklist=first, user=bob)
    services.author_follow(author=alice, follower=bob)
    kind = services.comment_post(decklist=first, author=bob, text="Solid *list*, @alice.")
    spam = services.comment_post(decklist=first, author=bob, text="cheap gold here")
    services.comment_hide(comment=spam, actor=alice, reason="spam")
    services.comment_post(decklist=first, author=alice, text="Thanks!", reply_to=kind.pk)
    ta = [
        deck_create(
            owner=alice,
            game_slug="tactical-assault",
            format=fmt,
            name=f"Force {fmt}",
            text=packages.sample_list("tactical-assault", fmt).text(),
        )
        for fmt in ("standard", "campaign")
    ]
    made = services.decklist_publish_set(decks=ta, author=alice, name="Sample pair")
    return {
        "decklists": decklists,
        "first": first,
        "set": made,
        "bob_deck": bob_deck,
        "alice_deck": deck,
    }


def _pages(community) -> list[str]:
    first = community["first"]
    pages = ["/", "/decklists/", "/decklists/?sort=likes&legal=today"]
    pages += [f"/decklists/{slug}/" for slug in registry.slugs()]
    pages += [d.get_absolute_url() for d in community["decklists"].values()]
    pages += [
        "/decklists/authors/alice/",
        f"/decklists/sets/{community['set'].pk}/",
        f"/decklists/redline/?cards={first.entries[0]['card']}",
    ]
    return pages


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1440", "390"])
def test_every_decklist_page_passes_the_sweep(browser, live_server, community, size):
    from catalogue.models import Card

    script, _ = axe_source()
    sweep = Sweep(browser, live_server.url, size, script)
    try:
        for url in _pages(community):
            sweep.visit(url)
        card = Card.objects.get(game__slug="redline", name=community["first"].entries[0]["card"])
        sweep.visit(card.get_absolute_url())
        sweep.visit("/decklists/redline/?cards=Tigercatt", status=400)
        sweep.sign_in("bob")
        sweep.visit(community["first"].get_absolute_url())
        sweep.visit(f"/decks/{community['bob_deck'].pk}/publish/")
        sweep.visit("/decklists/publish-set/")
        sweep.visit("/notices/")
        sweep.visit("/accounts/profile/")
        sweep.sign_in("moderator")
        sweep.visit(community["first"].get_absolute_url())
        sweep.visit("/admin/decklists/report/")
        assert not sweep.problems, "\n".join(sweep.problems)
    finally:
        sweep.close()


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1440", "390"])
def test_a_decklist_is_liked_favourited_and_commented_on_with_the_keyboard(
    browser, live_server, community, size
):
    from .support import page_ready, sign_in

    context = browser.new_context(viewport=size, base_url=live_server.url)
    page = context.new_page()
    try:
        sign_in(page, "bob", PASSWORD)
        decklist = community["decklists"]["hex-skirmish"]
        page.goto(decklist.get_absolute_url())
        page_ready(page)
        like = page.locator("#like-button")
        like.focus()
        page.keyboard.press("Enter")
        expect(page.locator("#like-button [data-count=likes]")).to_have_text("1")
        expect(page.locator("#like-button")).to_be_focused()
        expect(page.locator("#like-button")).to_have_attribute("aria-pressed", "true")
        page.keyboard.press("Tab")
        expect(page.locator("#favourite-button")).to_be_focused()
        page.keyboard.press("Space")
        expect(page.locator("#favourite-button [data-count=favourites]")).to_have_text("1")
        expect(page.locator("#favourite-button")).to_be_focused()
        page.locator("#id_text").focus()
        page.keyboard.type("Keyboard only, @alice")
        page.keyboard.press("Tab")  # the help text is not focusable: the button is next
        expect(page.locator("#comment-form button[type=submit]")).to_be_focused()
        page.keyboard.press("Enter")
        page_ready(page)
        expect(page.locator(".comment-text").last).to_contain_text("Keyboard only")
        expect(page.locator("main .messages")).to_contain_text("Comment posted")
    finally:
        context.close()
