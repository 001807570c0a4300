"""Simulation pages speak the player's words: parameters by their labels with plain values,
run kinds by their names, and runs compared only within one game."""

from __future__ import annotations

import pytest

from simulations import compare, kinds
from tests.simulations.conftest import copy_of
from tests.simulations.test_compare import play_all
from tests.simulations.test_pages_api import done_run

pytestmark = pytest.mark.django_db


def test_a_run_page_shows_parameter_labels_and_plain_values(client, user, redline_deck):
    run = done_run(redline_deck)
    client.force_login(user)
    html = client.get(f"/simulations/{run.pk}/").content.decode()
    kind = kinds.get("redline-goldfish")
    specs = {s.name: s for s in kind.params}
    for key, value in run.params.items():
        if key == "games":
            continue
        assert f"<dt>{specs[key].label}</dt>" in html, key
        assert f" {key} " not in html and f"{key}</dt>" not in html
        if isinstance(value, bool):
            assert f"<dd>{'yes' if value else 'no'}</dd>" in html
    assert "True" not in html.split("<dl", 1)[-1].split("</dl>", 1)[0]


def test_the_list_names_run_kinds_and_compares_within_one_game(
    client, user, redline_deck, hex_deck, make_deck
):
    a = done_run(redline_deck, seed=1)
    b = done_run(make_deck(user, fmt="scramble", name="Other deck"), seed=2)
    h1 = done_run(hex_deck, kind="hex-skirmish-goldfish", seed=3)
    client.force_login(user)
    html = client.get("/simulations/").content.decode()
    assert f'<td data-label="Simulation">{kinds.get("redline-goldfish").label}</td>' in html
    assert ">redline-goldfish</td>" not in html
    forms = html.split('class="compare-form ')[1:]
    assert len(forms) == 1  # only the game with two finished runs
    assert f'value="{a.pk}"' in forms[0] and f'value="{b.pk}"' in forms[0]
    assert f'value="{h1.pk}"' not in forms[0]
    # Runs of two games: refused with a message, not compared.
    response = client.get(f"/simulations/compare/?a={a.pk}&b={h1.pk}")
    assert response.status_code == 400
    assert "compare runs of one game" in response.content.decode()
    ok = client.get(f"/simulations/compare/?a={a.pk}&b={b.pk}")
    assert ok.status_code == 200 and '<th scope="col">Figure</th>' in ok.content.decode()


def test_the_deck_panel_names_its_recent_runs_kinds(client, user, redline_deck):
    run = done_run(redline_deck)
    client.force_login(user)
    html = client.get(
        f"/simulations/decks/{redline_deck.pk}/?v=1", HTTP_HX_REQUEST="true"
    ).content.decode()
    recent = html.split("Your recent runs of this deck", 1)[1]
    assert f"#{run.pk}" in recent
    assert f" · {kinds.get('redline-goldfish').label} · " in recent
    assert " · redline-goldfish · " not in recent


def _compared(user, deck):
    """A finished comparison of the deck with its copy."""
    v, twin = deck.current_version, copy_of(deck)
    w = twin.current_version
    v.deck, w.deck = deck, twin
    return play_all(
        compare.compare_start(owner=user, a=v, b=w, params={"games": 10_000, "turns": 8}, seed=1)
    )


def _form_values(html: str) -> list[tuple[str, str]]:
    """Each compare form's (a, b) as drawn: the selected option of each menu."""
    import re

    forms = html.split('class="compare-form ')[1:]
    return [
        tuple(
            re.search(rf'<select name="{name}"[^>]*>.*?<option value="(\d+)" selected', f, re.S)[1]
            for name in ("a", "b")
        )
        for f in forms
    ]


def test_only_runs_that_compare_are_offered_and_the_others_are_explained(
    client, user, redline_deck, make_deck
):
    first, second = _compared(user, redline_deck), _compared(user, redline_deck)
    client.force_login(user)
    # Two comparisons: no table of empty rows, but why, and nothing offered.
    response = client.get(f"/simulations/compare/?a={first.pk}&b={second.pk}")
    html = response.content.decode()
    assert response.status_code == 400 and 'id="compare-figures"' not in html
    assert f"Run #{first.pk} is a comparison: its page shows its own results." in html
    assert 'id="compare-nothing"' in html and 'class="compare-form ' not in html
    older = done_run(redline_deck, seed=1)
    assert 'id="compare-nothing"' in client.get("/simulations/compare/").content.decode()
    newer = done_run(make_deck(user, fmt="scramble", name="Other deck"), seed=2)
    newest = done_run(redline_deck, seed=3)
    # The form offers the goldfish runs only, on the two newest.
    html = client.get("/simulations/compare/").content.decode()
    assert _form_values(html) == [(str(newest.pk), str(newer.pk))]
    assert f'value="{older.pk}"' in html and f'value="{first.pk}"' not in html
    assert _form_values(client.get("/simulations/").content.decode()) == [
        (str(newest.pk), str(newer.pk))
    ]
    response = client.get(f"/simulations/compare/?a={newest.pk}&b={first.pk}")
    assert response.status_code == 400
    assert f"Run #{first.pk} is a comparison" in response.content.decode()
