"""The tuner: single legal swaps raced on paired games; the top swaps with their adjusted
intervals, or none; stop; apply a swap as a new version."""

from __future__ import annotations

import html

import pytest

from simulations.models import SimulationRun
from tests.problems import field_errors
from tests.simulations.conftest import sample_list
from tests.simulations.test_compare import play_all

pytestmark = pytest.mark.django_db

STARVED = (
    sample_list("redline", "standard")
    .replace("20 Supply Drop", "12 Supply Drop")
    .replace("3 Close Call", "4 Close Call")
    .replace("2 Smoke Screen", "4 Smoke Screen")
    .replace("2 Intel Sweep", "4 Intel Sweep")
    .replace("2 Full Salvo", "4 Full Salvo")
    .replace("1 Dig In", "2 Dig In")
)


@pytest.fixture
def starved(sample_catalogue, user, make_deck):
    """A legal REDLINE deck with 16 resources instead of 24 (sample data)."""
    from decks.services import deck_create

    deck = deck_create(
        owner=user,
        game_slug="redline",
        format="standard",
        name="Starved sample",
        text=STARVED,
    )
    assert deck.current_version.legal, deck.current_version.report
    return deck


def tune(client, deck, **body):
    return client.post(f"/api/decks/{deck.pk}/tune/", body, content_type="application/json")


def test_the_tuner_brings_a_resource_into_a_starved_arsenal_and_applies_it(
    client, user, starved, django_capture_on_commit_callbacks
):
    client.force_login(user)
    with django_capture_on_commit_callbacks(execute=False):
        r = tune(
            client,
            starved,
            candidates={"query": "kind:resource"},
            keep=["General Jeffrey Moore"],
            max_games=8_000,
            params={"turns": 10},
            seed=4,
        )
    assert r.status_code == 202, r.content
    run = SimulationRun.objects.get(pk=r.json()["id"])
    swaps = run.inputs["swaps"]
    assert 10 <= len(swaps) <= 60
    assert all(s["add"] in ("Supply Drop", "Martian Foundry") for s in swaps)  # 4 depots: full
    run = play_all(run)
    body = client.get(f"/api/simulations/{run.pk}/").json()["results"]
    suggestions = body["suggestions"]
    assert 1 <= len(suggestions) <= 5 and body["rounds"]
    top = suggestions[0]
    assert set(top) >= {"cut", "add", "effect", "ci_low", "ci_high"}
    assert top["add"] in ("Supply Drop", "Martian Foundry") and top["cut"] not in (
        "Supply Drop",
        "Hidden Supply Depot",
    )
    assert top["effect"] > 0 and top["ci_low"] > 0
    effects = [s["effect"] for s in suggestions]
    assert effects == sorted(effects, reverse=True)
    page = client.get(f"/simulations/{run.pk}/").content.decode()
    assert 'id="suggestions"' in page and "against no opponent" in page
    # the run says what its rounds cost, like any other run: seconds of work and workers
    assert run.timings["workers"] == ["inline"] and run.timings["chunk_seconds_total"] > 0
    work = f"{run.timings['chunk_seconds_total']:.2f} s of work on 1 worker)"
    assert work in page
    r = client.post(f"/simulations/{run.pk}/apply/", {"swap": "0"}, follow=True)
    assert r.redirect_chain[-1][1] == 302
    starved.refresh_from_db()
    v = starved.current_version
    assert v.number == 2
    # the history says which swap made the version, and the player is told where it went
    assert v.note == f"Tuner #{run.pk}: {top['cut']} out, {top['add']} in"
    assert f"Version 2 saved: {v.note}." in r.content.decode()
    counts = {(e["section"], e["card"]): e["count"] for e in v.entries}
    assert counts[("arsenal", top["add"])] == (13 if top["add"] == "Supply Drop" else 1)


def test_no_swap_beats_a_deck_when_only_equal_cards_come_in(
    client, user, starved, django_capture_on_commit_callbacks
):
    client.force_login(user)
    with django_capture_on_commit_callbacks(execute=False):
        r = tune(
            client,
            starved,
            candidates={"query": "Supply Drop"},
            keep=["Supply Drop", "Hidden Supply Depot", "General Jeffrey Moore"],
            metric="opening_2_to_4",
            max_games=4_000,
            params={"turns": 8},
            seed=1,
        )
    assert r.status_code == 202, r.content
    run = play_all(SimulationRun.objects.get(pk=r.json()["id"]))
    # swapping a non-resource for a resource moves the opening-hand odds; what comes in is
    # decided by the metric's intervals only, never a winner picked from noise
    assert run.results["suggestions"] or "No swap beats" in run.results["verdict"]


def test_tuner_bad_input(client, user, other_user, starved, make_deck):
    client.force_login(user)

    def err(r):
        assert r.status_code == 400, r.content
        return field_errors(r.json())

    assert (
        "finds no card" in err(tune(client, starved, candidates={"query": "zzzqqq"}))["candidates"]
    )
    unread = err(tune(client, starved, candidates={"query": "kind:resource colour:blue"}))
    assert "'colour:blue' (at character 15)" in unread["candidates"]
    assert "unknown key 'colour'" in unread["candidates"]
    assert (
        "no metric"
        in err(tune(client, starved, candidates={"query": "kind:resource"}, metric="x"))["metric"]
    )
    keep_all = [
        "Supply Drop",
        "Hidden Supply Depot",
        "Tigercat",
        "Rabbit",
        "Longbow",
        "Claymore",
        "Valkyrie",
        "Pulse Laser",
        "Focused Beam Array",
        "Hellfire Missile Pod",
        "Ablative Plating",
        "Lieutenant Dale Okafor",
        "Close Call",
        "Smoke Screen",
        "Intel Sweep",
        "Full Salvo",
        "Dig In",
        "General Jeffrey Moore",
    ]
    no_swap = err(
        tune(
            client,
            starved,
            candidates={"query": "Hidden Supply Depot"},
            keep=keep_all[2:],
        )
    )
    assert "no single swap" in no_swap["candidates"]
    theirs = make_deck(other_user, name="Private")
    r = tune(client, theirs, candidates={"query": "kind:resource"})
    assert r.status_code == 404 and r.json()["detail"] == "no such deck"  # as /simulations/
    assert "max_games" in err(
        tune(client, starved, candidates={"query": "kind:resource"}, max_games=10)
    )
    assert not SimulationRun.objects.exists()


def test_stop_finishes_with_the_rounds_complete(
    client, user, sample_catalogue, django_capture_on_commit_callbacks
):
    """A deck against the same list one resource short, which the first round does not
    settle: stopped after its first round, it finishes with that round's games."""
    from decks.services import deck_create
    from simulations.services import simulation_run_chunk
    from tests.simulations.conftest import sample_list

    text = sample_list("redline", "standard")
    full = deck_create(owner=user, game_slug="redline", format="standard", name="F", text=text)
    short = deck_create(
        owner=user,
        game_slug="redline",
        format="standard",
        name="S",
        text=text.replace("20 Supply Drop", "19 Supply Drop"),
    )
    client.force_login(user)
    with django_capture_on_commit_callbacks(execute=False):
        r = client.post(
            "/api/simulations/compare/",
            {
                "a": {"deck": full.pk},
                "b": {"deck": short.pk},
                "params": {"games": 80_000, "turns": 8},
                "seed": 5,
            },
            content_type="application/json",
        )
    run = SimulationRun.objects.get(pk=r.json()["id"])
    page = client.get(f"/simulations/{run.pk}/").content.decode()
    assert 'id="stop-run"' in page
    for i in range(run.n_chunks):  # the first round only
        simulation_run_chunk(run_id=run.pk, chunk_index=i)
    run.refresh_from_db()
    assert run.is_active and len(run.results["rounds"]) == 1
    r = client.post(f"/api/simulations/{run.pk}/stop/")
    assert r.status_code == 200 and r.json()["status"] == "done"
    run.refresh_from_db()
    assert run.results["stopped"] == "stopped by its owner"
    assert run.results["games"] == run.inputs["looks"][0] == 10_000
    assert not any(d["distinguishable"] for d in run.results["differences"])
    other = client.post(f"/api/simulations/{run.pk}/stop/")
    assert other.status_code == 200  # already finished: nothing changes


def test_the_tune_form_from_the_deck_panel(
    client, user, starved, django_capture_on_commit_callbacks
):
    client.force_login(user)
    panel = client.get(f"/simulations/decks/{starved.pk}/", HTTP_HX_REQUEST="true").content
    assert b'id="tune-deck"' in panel
    form = client.get(f"/simulations/decks/{starved.pk}/tune/").content.decode()
    assert 'id="tune-form"' in form and 'value="won_by_8"' in form
    assert "against no opponent" in form
    bad = client.post(f"/simulations/decks/{starved.pk}/tune/", {"query": "zzzqqq"})
    assert bad.status_code == 400 and "finds no card" in bad.content.decode()
    with django_capture_on_commit_callbacks(execute=False):
        r = client.post(
            f"/simulations/decks/{starved.pk}/tune/",
            {"query": "kind:resource", "keep": "Close Call\nDig In", "max_games": "4000"},
        )
    run = SimulationRun.objects.get()
    assert r.status_code == 302 and r["Location"] == f"/simulations/{run.pk}/"
    assert not {s["cut"] for s in run.inputs["swaps"]} & {"Close Call", "Dig In"}
    client.post(f"/simulations/{run.pk}/stop/")
    run.refresh_from_db()
    assert run.status == "failed" and "before the first round" in run.error


def test_candidates_from_my_collection_alone_or_with_a_query(
    client, user, starved, django_capture_on_commit_callbacks
):
    from catalogue.models import Card
    from collection.services import collection_set

    for name in ("Supply Drop", "Rail Gun Emplacement", "Forward Repair Bay"):
        card = Card.objects.filter(game__slug="redline", name=name).first()
        if card is not None:
            collection_set(owner=user, card=card, count=4)
    client.force_login(user)
    with django_capture_on_commit_callbacks(execute=False):
        mine = tune(client, starved, candidates={"collection": True}, max_games=2_000)
        both = tune(
            client,
            starved,
            candidates={"query": "kind:resource", "collection": True},
            max_games=2_000,
        )
    assert mine.status_code == both.status_code == 202, (mine.content, both.content)
    owned = {"Supply Drop", "Rail Gun Emplacement", "Forward Repair Bay"}
    runs = {r.pk: r for r in SimulationRun.objects.all()}
    adds_mine = {s["add"] for s in runs[mine.json()["id"]].inputs["swaps"]}
    adds_both = {s["add"] for s in runs[both.json()["id"]].inputs["swaps"]}
    assert adds_mine <= owned and "Supply Drop" in adds_mine
    assert adds_both == {"Supply Drop"}  # the resources of the query that the user owns


def test_starting_a_tuning_run_reads_the_database_a_bounded_number_of_times(
    client, user, starved, django_assert_max_num_queries, django_capture_on_commit_callbacks
):
    """Every swap is validated on the deck read once: the queries do not grow with the
    number of swaps tried."""
    client.force_login(user)
    with django_capture_on_commit_callbacks(execute=False), django_assert_max_num_queries(40):
        r = tune(client, starved, candidates={"query": "kind:tactic"}, max_games=2_000)
    assert r.status_code in (202, 400), r.content
    if r.status_code == 400:  # more swaps than are tried or raced: said so
        assert "narrow the query" in field_errors(r.json())["candidates"]


def test_with_no_query_the_tuner_proposes_the_cards_that_fit_and_races_the_most_promising(
    client, user, starved, django_capture_on_commit_callbacks
):
    from catalogue.models import Card
    from simulations import tuner

    client.force_login(user)
    with django_capture_on_commit_callbacks(execute=False):
        r = tune(client, starved, candidates={}, max_games=2_000, seed=2)
        again = tune(client, starved, candidates={"query": ""}, max_games=2_000, seed=2)
    assert r.status_code == 202 and again.status_code == 202, r.content
    run, second = (SimulationRun.objects.get(pk=x.json()["id"]) for x in (r, again))
    swaps, chosen = run.inputs["swaps"], run.inputs["chosen"]
    # Far more swaps fit than the caps allow: the most promising are raced, not refused.
    assert chosen["proposed"] and chosen["possible"] > len(swaps) == tuner.MAX_SWAPS
    assert chosen["tried"] <= tuner.MAX_TRIALS
    # Only cards of the kinds the goldfish's sections take come in (the format's section
    # specs: a general goes in no arsenal, a critical hit in no deck the goldfish plays),
    # each into a section taking its kind; the deck's own cards first (one more copy
    # before a new card).
    kinds = dict(Card.objects.filter(game__slug="redline").values_list("name", "kind"))
    assert {kinds[name] for name in chosen["incoming"]}.isdisjoint({"general", "critical_hit"})
    assert all((kinds[s["add"]] == "mission") == (s["section"] == "missions") for s in swaps)
    plays = {e["card"] for e in starved.current_version.entries}
    firsts = [name in plays for name in chosen["incoming"]]
    assert firsts == sorted(firsts, reverse=True) and firsts[0]
    # The choice is deterministic: the same deck proposes the same swaps.
    assert second.inputs["swaps"] == swaps
    page = client.get(f"/simulations/{run.pk}/").content.decode()
    assert "No search was given: the cards that fit the deck" in page
    assert f"{chosen['tried']} of {chosen['possible']} possible swaps tried" in page


def test_a_broad_query_races_the_most_promising_swaps_instead_of_refusing(
    client, user, starved, django_capture_on_commit_callbacks
):
    from simulations import tuner

    client.force_login(user)
    with django_capture_on_commit_callbacks(execute=False):
        r = tune(client, starved, candidates={"query": "cost>=0"}, max_games=2_000, seed=2)
    assert r.status_code == 202, r.content
    run = SimulationRun.objects.get(pk=r.json()["id"])
    chosen = run.inputs["chosen"]
    assert len(run.inputs["swaps"]) == tuner.MAX_SWAPS < chosen["possible"]
    assert not chosen["proposed"]


def test_a_query_term_the_tune_page_cannot_read_is_reported_with_where_it_is(client, user, starved):
    client.force_login(user)
    r = client.post(
        f"/simulations/decks/{starved.pk}/tune/",
        {"query": "kind:resource colour:blue", "max_games": "2000"},
    )
    assert r.status_code == 400
    page = html.unescape(r.content.decode())
    assert "the query cannot be read whole ('colour:blue' (at character 15): unknown key" in page
    assert not SimulationRun.objects.exists()
