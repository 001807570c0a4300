"""The builder hands its templates a typed `BuilderState`: every game's builder renders with
a template engine that refuses a missing variable, so a field renamed in the state (or a
name a template misspells) fails here instead of leaving an empty spot on a page."""

from __future__ import annotations

import dataclasses

import pytest
from django.template import engines
from django.urls import reverse

from decks.builder.state import BuilderState
from decks.services import deck_create
from validation import packages
from validation.registry import registry

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


class MissingVariable(str):
    """A `string_if_invalid` that raises, naming the variable a template asked for."""

    def __contains__(self, part):
        return part == "%s"

    def __mod__(self, name):
        raise AssertionError(f"the template asks for {name!r}, which the context lacks")


@pytest.fixture
def strict_templates(settings):
    engine = settings.TEMPLATES[0]
    settings.TEMPLATES = [
        {**engine, "OPTIONS": {**engine["OPTIONS"], "string_if_invalid": MissingVariable("%s")}}
    ]


def _decks(owner):
    """A deck of each format of each registered game: its sample list when it has one (rows,
    placements, totals), else an empty deck."""
    samples = {(s.game, s.format): s for s in packages.all_sample_lists()}
    for game in registry.all():
        for fmt in game.formats:
            sample = samples.get((game.slug, fmt))
            yield deck_create(
                owner=owner,
                game_slug=game.slug,
                format=fmt,
                name=f"{game.name} {fmt}",
                text=sample.text() if sample else "",
            )


def test_every_games_builder_renders_with_every_variable_it_asks_for(
    client, user, sample_catalogue, strict_templates
):
    client.force_login(user)
    rendered = 0
    for deck in _decks(user):
        page = client.get(reverse("builder:deck", args=[deck.pk]))
        assert page.status_code == 200, deck
        state = page.context["state"]
        assert isinstance(state, BuilderState) and state.deck == deck
        if page.context["search_more"]:
            # the first page of results says which cards it shows (it once said "Cards –")
            assert "Cards 1–40" in page.content.decode()
        version = deck.current_version
        base = str(version.number) if version else ""
        panel = client.post(
            reverse("builder:seal", args=[deck.pk]), {"base": base, "note": "checked"}, **HTMX
        )
        assert panel.status_code == 200, (deck, panel.content[:300])
        rendered += 1
    assert rendered == sum(len(g.formats) for g in registry.all())


def test_a_name_the_state_lacks_fails_in_the_strict_engine(
    client, user, sample_catalogue, strict_templates
):
    client.force_login(user)
    deck = next(_decks(user))
    state = client.get(reverse("builder:deck", args=[deck.pk])).context["state"]
    names = {f.name for f in dataclasses.fields(BuilderState)}
    assert {"sections", "placement_map", "totals_map", "extra_template", "urls"} <= names
    template = engines["django"].from_string("{{ sections|length }} {{ hexmap.section }}")
    with pytest.raises(AssertionError, match="'hexmap.section'"):
        template.render(state.context())
