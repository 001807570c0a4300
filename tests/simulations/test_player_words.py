"""Simulation pages speak the player's words: parameters by their labels with plain values,
run kinds by their names, and runs compared only within one game."""

from __future__ import annotations

import pytest

from simulations import kinds
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
    forms = html.split('class="compare-form"')[1:]
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
