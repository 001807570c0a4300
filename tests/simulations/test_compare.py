"""Paired comparisons (A/B) of two decks on common random numbers: the API, the rounds on
the run machinery, the verdicts, bad input, and the statistics (a deck against itself, a
planted difference, intervals against the exact hypergeometric odds)."""

from __future__ import annotations

import re

import numpy as np
import pytest
from django.core.cache import cache

from simulations import compare, kinds
from simulations.models import SimulationRun
from tests.problems import field_errors
from tests.simulations.conftest import copy_of, play_inline, sample_list
from validation.games.redline.samples import redline_arsenal
from validation.sim import odds, paired
from validation.sim.inputs import entries_json
from validation.sim.metrics import find

STARVED = (
    sample_list("redline", "standard")
    .replace("20 Supply Drop", "10 Supply Drop")
    .replace("3 Close Call", "13 Close Call")
)


@pytest.fixture
def starved_and_restored(user, redline_deck):
    """Version 1: the sample arsenal; version 2: the same with 10 of its 24 resources swapped
    for tactics (resource-starved)."""
    from decks.services import deck_save_version

    deck_save_version(deck=redline_deck, author=user, text=STARVED, based_on=1)
    redline_deck.refresh_from_db()
    return redline_deck


def play_all(run) -> SimulationRun:
    """Play the run's rounds in this process until it is done (what the workers do)."""
    for _ in range(20):
        run.refresh_from_db()
        if not run.is_active:
            return run
        play_inline(run)
    raise AssertionError("the comparison did not finish")


@pytest.mark.django_db
def test_api_compares_two_versions_and_finds_the_starved_one_worse(
    client, user, starved_and_restored, django_capture_on_commit_callbacks, monkeypatch
):
    from cardsite import tasks

    sent = []
    monkeypatch.setattr(tasks.run_job_chunk, "delay", lambda *a: sent.append(a))
    deck = starved_and_restored
    client.force_login(user)
    with django_capture_on_commit_callbacks(execute=True):
        r = client.post(
            "/api/simulations/compare/",
            {
                "a": {"deck": deck.pk, "version": 1},
                "b": {"deck": deck.pk, "version": 2},
                "params": {"games": 40_000, "turns": 10},
                "seed": 7,
            },
            content_type="application/json",
        )
    assert r.status_code == 202, r.content
    run = SimulationRun.objects.get(pk=r.json()["id"])
    assert run.owner == user and sent
    assert all(s[:2] == ("simulations.comparison", run.pk) for s in sent)
    run = play_all(run)
    body = client.get(f"/api/simulations/{run.pk}/").json()
    diffs = {d["metric"]: d for d in body["results"]["differences"]}
    assert set(diffs["won_by_8"]) == {
        "metric",
        "label",
        "a",
        "b",
        "difference",
        "ci_low",
        "ci_high",
        "distinguishable",
    }
    won = diffs["won_by_8"]
    assert won["distinguishable"] and won["difference"] < 0 and won["ci_high"] < 0
    assert won["ci_low"] <= won["difference"] <= won["ci_high"]
    # the planted difference is large: the first round (10,000 games) decides it
    assert body["results"]["games"] == 10_000 and len(body["results"]["rounds"]) == 1
    verdict = body["results"]["verdict"]
    assert re.fullmatch(
        rf"Won by turn 8: [\d.]+% with {deck.name} v2 against [\d.]+% with {deck.name} v1, "
        rf"so {deck.name} v2 is worse by [\d.]+ points \(95% CI -[\d.]+ to -[\d.]+ points, "
        r"10,000 games\)\.",
        verdict.replace("−", "-"),
    ), verdict
    assert diffs["opening_2_to_4"]["difference"] < 0
    page = client.get(f"/simulations/{run.pk}/").content.decode()
    assert 'id="experiment-verdict"' in page and 'id="difference-won_by_8"' in page
    assert "A better" in page
    # the rounds read in the metric's unit, as the verdict does (not raw fractions)
    first = body["results"]["rounds"][0]
    shown = f"<td>10,000</td><td>{first['difference'] * 100:+.1f} points</td>"
    assert shown in page and f"<td>{first['difference']:.4f}</td>" not in page


@pytest.mark.django_db
def test_identical_lists_stop_after_the_first_round_equivalent_within_the_margin(
    user, redline_deck
):
    """Two identical lists play every game alike: the interval is [0, 0], inside the
    equivalence margin, so the comparison stops after its first round of a 200,000 limit."""
    v = redline_deck.current_version
    v.deck = redline_deck
    twin = copy_of(redline_deck)
    w = twin.current_version
    w.deck = twin
    run = compare.compare_start(owner=user, a=v, b=w, params={"games": 200_000, "turns": 8}, seed=3)
    assert run.inputs["looks"] == [10_000, 20_000, 40_000, 80_000, 160_000, 200_000]
    assert run.inputs["margin"] == 0.01  # one percentage point of a share of games
    run = play_all(run)
    assert run.results["games"] == 10_000 and len(run.results["rounds"]) == 1
    assert run.results["stopped"] == "interval inside the equivalence margin"
    assert not any(d["distinguishable"] for d in run.results["differences"])
    assert all(d["difference"] == 0 for d in run.results["differences"])
    assert run.results["verdict"] == (
        "Won by turn 8: not distinguishable after 10,000 games, and equivalent within "
        f"±1.0 points (95% CI +0.0 to +0.0 points for {twin.name} v1 against "
        f"{redline_deck.name} v1)."
    )
    # chunks keep paired sums only: six integers per metric, no per-game rows
    chunk = run.chunk_results["0"]
    assert set(chunk) == {"games", "sums"} and all(len(v) == 6 for v in chunk["sums"].values())


def test_the_equivalence_margin_stops_only_an_interval_inside_it():
    metric = kinds.get("redline-goldfish").goldfish.metrics[0]
    margin = metric.equivalence_margin
    assert paired.within_margin({"ci_low": -0.004, "ci_high": 0.009}, margin)
    assert not paired.within_margin({"ci_low": -0.004, "ci_high": 0.011}, margin)
    assert not paired.within_margin({"ci_low": -0.012, "ci_high": 0.0}, margin)
    assert not paired.within_margin({"ci_low": 0.0, "ci_high": 0.0}, None)


def test_a_verdict_is_a_sentence_built_from_the_metrics_own_label():
    metric = find(kinds.get("red-mittens-goldfish").goldfish.metrics, "dead_by_5")
    row = {
        "a": 0.38,
        "b": 0.35,
        "difference": -0.03,
        "ci_low": -0.051,
        "ci_high": -0.009,
        "distinguishable": True,
    }
    assert paired.verdict(metric, row, 20_000, "Mittens v2", "Mittens v1") == (
        "Opponent at 0 LP by turn 5: 35.0% with Mittens v2 against 38.0% with Mittens v1, so "
        "Mittens v2 is worse by 3.0 points (95% CI -5.1 to -0.9 points, 20,000 games)."
    )
    turns = find(kinds.get("red-mittens-goldfish").goldfish.metrics, "dead_turn")
    row = {**row, "a": 6.1, "b": 5.8, "difference": -0.3, "ci_low": -0.42, "ci_high": -0.18}
    assert paired.verdict(turns, row, 20_000, "Mittens v2", "Mittens v1") == (
        "Turn the opponent reaches 0 LP: 5.80 with Mittens v2 against 6.10 with Mittens v1, so "
        "Mittens v2 is better by 0.30 turns (95% CI -0.42 to -0.18 turns, 20,000 games)."
    )


@pytest.mark.django_db
def test_bad_input_is_a_clear_400(client, user, other_user, redline_deck, hex_deck, make_deck):
    client.force_login(user)
    theirs = make_deck(other_user, name="Private")

    def post(body):
        cache.clear()  # the throttle's counters: this test asks more than its rate allows
        r = client.post("/api/simulations/compare/", body, content_type="application/json")
        assert r.status_code == 400, r.content
        body = r.json()
        return {"errors": field_errors(body), "detail": body["detail"], "type": body["type"]}

    a = {"deck": redline_deck.pk}
    b = {"deck": copy_of(redline_deck).pk}
    same = post({"a": a, "b": {"deck": redline_deck.pk, "version": 1}})
    assert "A and B are the same version" in same["errors"]["b.version"]
    assert "A and B are the same version" in same["detail"]
    assert same["type"] == "urn:cardsite:problem:invalid"
    assert "different games" in post({"a": a, "b": {"deck": hex_deck.pk}})["errors"]["b.deck"]
    assert "you can read" in post({"a": a, "b": {"deck": theirs.pk}})["errors"]["b.deck"]
    assert "you can read" in post({"a": {"deck": 99_999_999}, "b": b})["errors"]["a.deck"]
    err = post({"a": a, "b": b, "metric": "nope"})["errors"]["metric"]
    assert "no metric 'nope'" in err and "won_by_8" in err
    assert "at least 8 turns" in post({"a": a, "b": b, "params": {"turns": 5}})["errors"]["metric"]
    assert "version" in str(post({"a": {"deck": redline_deck.pk, "version": 9}, "b": b}))
    assert "games" in post({"a": a, "b": b, "params": {"games": 0}})["errors"]
    assert "b" in post({"a": a})["errors"]
    assert "a" in post({"a": "x", "b": b})["errors"]
    assert (
        "cannot compare"
        in post({"a": a, "b": b, "kind": "tactical-assault-close-combat"})["errors"]["kind"]
    )
    assert (
        "plays hex-skirmish decks"
        in post({"a": a, "b": b, "kind": "hex-skirmish-goldfish"})["errors"]["kind"]
    )
    assert SimulationRun.objects.count() == 0


# --- statistics (no database: the kernel is fast, so many seeds cost little) ---------------


def _inputs(resources: int = 24):
    arsenal = redline_arsenal()
    supply = arsenal[0]
    rows = entries_json(arsenal)
    rows[0]["count"] = resources
    tactic = rows[-1]
    tactic["count"] += supply.count - resources
    return {"arsenal": rows, "missions": None}


PARAMS = {"turns": 8, "mulligan_lo": 2, "mulligan_hi": 4, "games": 2_000}
GOLDFISH = kinds.get("redline-goldfish").goldfish


def replications(a_deck, b_deck, reps: int, games: int, seed: int, independent: bool):
    """``reps`` independent comparisons of ``games`` paired games each, played as one run
    (the kernel is fast on large blocks): per metric, arrays of shape (reps, games)."""
    a, b = GOLDFISH.play_pair(a_deck, b_deck, PARAMS, seed, 0, reps * games, independent)
    return (
        {k: v.reshape(reps, games) for k, v in a.items()},
        {k: v.reshape(reps, games) for k, v in b.items()},
    )


def test_equal_decks_on_independent_streams_are_called_different_at_the_level():
    """Same composition, B on streams of its own: the 95% interval of won-by-8 excludes 0
    in about 5% of 400 comparisons (a binomial band), so the intervals have their level."""
    deck = _inputs()
    z = paired.z_value(0.05)
    a, b = replications(deck, deck, 400, 500, 1, independent=True)
    hits = sum(
        paired.excludes_zero(
            paired.estimate(paired.sums({"m": a["won_by_8"][r]}, {"m": b["won_by_8"][r]})["m"], z)
        )
        for r in range(400)
    )
    assert 6 <= hits <= 36, hits  # mean 20, beyond the 99.9% band of Binomial(400, 0.05)


def test_the_sequential_rule_keeps_false_positives_below_the_level():
    """Equal decks, independent streams, four looks with Bonferroni-adjusted intervals and
    stopping at the first that excludes 0: wrong calls stay at or below the level."""
    deck = _inputs()
    looks = paired.plan(2_000, 250)  # 250, 500, 1000, 2000
    z = paired.z_value(0.05 / len(looks))
    a, b = replications(deck, deck, 200, 2_000, 2, independent=True)
    hits = 0
    for r in range(200):
        for look in looks:
            s = paired.sums({"m": a["won_by_8"][r, :look]}, {"m": b["won_by_8"][r, :look]})
            if paired.excludes_zero(paired.estimate(s["m"], z)):
                hits += 1
                break
    assert hits <= 20, hits  # at most 5% (10 of 200) expected; 20 is far outside chance
    # without the adjustment, the same looks stop wrongly more often than the level allows
    naive = 0
    for r in range(200):
        for look in looks:
            s = paired.sums({"m": a["won_by_8"][r, :look]}, {"m": b["won_by_8"][r, :look]})
            if paired.excludes_zero(paired.estimate(s["m"], 1.96)):
                naive += 1
                break
    assert naive > hits


def test_a_planted_difference_is_found_with_the_right_sign():
    starved, restored = _inputs(14), _inputs(24)
    a, b = GOLDFISH.play_pair(starved, restored, PARAMS, 11, 0, 4_000)
    rows = {r["metric"]: r for r in paired.differences(GOLDFISH.metrics, paired.sums(a, b), 1.96)}
    assert rows["won_by_8"]["distinguishable"] and rows["won_by_8"]["difference"] > 0
    assert rows["stuck_on_4"]["difference"] < 0  # more resources: fewer cards stuck


def test_common_random_numbers_narrow_the_interval_of_a_single_swap():
    a_deck, b_deck = _inputs(24), _inputs(23)
    z = 1.96
    crn = paired.sums(*GOLDFISH.play_pair(a_deck, b_deck, PARAMS, 5, 0, 20_000))
    ind = paired.sums(*GOLDFISH.play_pair(a_deck, b_deck, PARAMS, 5, 0, 20_000, True))
    w_crn = paired.estimate(crn["won_by_8"], z)["se"]
    w_ind = paired.estimate(ind["won_by_8"], z)["se"]
    assert w_ind > 2 * w_crn


@pytest.mark.parametrize("resources", [14, 24])
def test_opening_hand_intervals_cover_the_exact_hypergeometric_odds(resources):
    """P(2–4 resources in the opening 7) is exact: sum of hypergeometric terms. Over 40
    seeds, the 95% interval of each deck's share covers it in about 95% of them, and the
    paired difference's interval covers the exact difference as often."""
    a_deck, b_deck = _inputs(24), _inputs(resources)
    exact_a = sum(odds.distribution(24, 60, 7)[2:5])
    exact_b = sum(odds.distribution(resources, 60, 7)[2:5])
    z = 1.96
    covered_a = covered_d = 0
    a, b = replications(a_deck, b_deck, 40, 2_000, 3, independent=False)
    for r in range(40):
        s = paired.sums({"m": a["opening_2_to_4"][r]}, {"m": b["opening_2_to_4"][r]})["m"]
        n, sa = s[0], s[1]
        p = sa / n
        se = np.sqrt(p * (1 - p) / n)
        covered_a += abs(p - exact_a) <= z * se
        e = paired.estimate(s, z)
        covered_d += e["ci_low"] <= exact_b - exact_a <= e["ci_high"]
    assert covered_a >= 33, covered_a  # 95% of 40 = 38; 33 is below the 0.1% tail
    assert covered_d >= 33, covered_d


def test_the_headline_metric_reads_the_same_from_a_run_and_from_paired_games():
    from validation.games.redline.simulation import run_chunk, summarise

    deck = _inputs()
    stats = run_chunk(deck, {**PARAMS, "games": 20_000}, 1, 0, 1)
    from_run = find(GOLDFISH.metrics, "won_by_8").value(summarise(stats, deck))
    a, _ = GOLDFISH.play_pair(deck, deck, PARAMS, 1, 0, 20_000)
    assert abs(from_run - a["won_by_8"].mean()) < 0.02


# --- pages ----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_from_the_history_each_version_compares_with_the_previous_one(
    client, user, starved_and_restored, django_capture_on_commit_callbacks
):
    deck = starved_and_restored
    client.force_login(user)
    page = client.get(f"/decks/{deck.pk}/").content.decode()
    link = f"/simulations/decks/{deck.pk}/compare/?a=1&amp;b=2"
    assert 'class="compare-previous"' in page and link in page
    form = client.get(link.replace("&amp;", "&")).content.decode()
    assert '<option value="1" selected>' in form and '<option value="v:2" selected>' in form
    with django_capture_on_commit_callbacks(execute=False):
        r = client.post(
            f"/simulations/decks/{deck.pk}/compare/",
            {"a": "1", "b_ref": "v:2", "metric": "won_by_8", "games": "20000", "turns": "10"},
        )
    run = SimulationRun.objects.get()
    assert r.status_code == 302 and r["Location"] == f"/simulations/{run.pk}/"
    assert run.label.endswith("v1 vs " + f"{deck.name} v2")
    run = play_all(run)
    page = client.get(f"/simulations/{run.pk}/").content.decode()
    assert f"so {deck.name} v2 is worse by " in page and 'id="differences"' in page


def _selected(page: str, name: str) -> str:
    """The value a select of the compare form is sent with as drawn (selected, else first)."""
    select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', page, re.S).group(1)
    options = re.findall(r'<option value="([^"]*)"([^>]*)>', select)
    chosen = [value for value, attrs in options if "selected" in attrs]
    return chosen[0] if chosen else options[0][0]


@pytest.mark.django_db
def test_the_compare_form_opens_on_the_version_before_against_the_latest(
    client, user, starved_and_restored, make_deck
):
    deck = starved_and_restored
    client.force_login(user)
    page = client.get(f"/simulations/decks/{deck.pk}/compare/").content.decode()
    assert (_selected(page, "a"), _selected(page, "b_ref")) == ("1", "v:2")
    # The deck panel's "Compare with…" names the version shown as B: A is the one before.
    panel = client.get(f"/simulations/decks/{deck.pk}/", HTTP_HX_REQUEST="true").content.decode()
    link = re.search(r'id="compare-with" href="([^"]+)"', panel).group(1).replace("&amp;", "&")
    page = client.get(link).content.decode()
    assert (_selected(page, "a"), _selected(page, "b_ref")) == ("1", "v:2")


@pytest.mark.django_db
def test_a_deck_of_one_version_opens_against_the_users_latest_deck_of_its_format(
    client, user, other_user, starved_and_restored, make_deck
):
    """The deck panel's link names the deck's only version as B: the form opens on it as A
    against the user's deck of the same game and format saved most recently, never on the
    version against itself."""
    deck = starved_and_restored
    single = make_deck(user, name="Single")
    make_deck(user, fmt="scramble", name="Another format, saved later")
    make_deck(other_user, name="Their public list", visibility="public")
    client.force_login(user)
    panel = client.get(f"/simulations/decks/{single.pk}/", HTTP_HX_REQUEST="true").content.decode()
    link = re.search(r'id="compare-with" href="([^"]+)"', panel).group(1).replace("&amp;", "&")
    for address in (link, f"/simulations/decks/{single.pk}/compare/"):
        page = client.get(address).content.decode()
        assert (_selected(page, "a"), _selected(page, "b_ref")) == ("1", f"d:{deck.pk}")
        assert 'id="compare-alone"' not in page and 'id="compare-choose-b"' not in page
    # what the form opens on is a pair it accepts
    r = client.post(
        f"/simulations/decks/{single.pk}/compare/",
        {"a": "1", "b_ref": f"d:{deck.pk}", "games": "1000", "turns": "8"},
    )
    assert r.status_code == 302 and SimulationRun.objects.count() == 1


@pytest.mark.django_db
def test_a_version_compared_with_itself_is_refused_with_a_message(
    client, user, other_user, redline_deck, make_deck
):
    client.force_login(user)
    page = client.get(f"/simulations/decks/{redline_deck.pk}/compare/?b=1").content.decode()
    assert 'id="compare-alone"' in page  # one version, no other deck of the game
    # B is left to choose (a required menu), never the version against itself
    assert _selected(page, "b_ref") == "" and 'id="compare-b" required' in page
    r = client.post(
        f"/simulations/decks/{redline_deck.pk}/compare/",
        {"a": _selected(page, "a"), "b_ref": _selected(page, "b_ref"), "games": "200000"},
    )
    assert r.status_code == 400 and "choose the deck or version to compare with" in (
        r.content.decode()
    )
    r = client.post(
        f"/simulations/decks/{redline_deck.pk}/compare/",
        {"a": "1", "b_ref": "v:1", "games": "200000"},
    )
    assert r.status_code == 400
    assert "A and B are the same version" in r.content.decode()
    assert not SimulationRun.objects.exists()
    # Only another player's deck of the game: the form asks to choose B among them.
    public = make_deck(other_user, name="Their public list", visibility="public")
    page = client.get(f"/simulations/decks/{redline_deck.pk}/compare/?b=1").content.decode()
    assert 'id="compare-choose-b"' in page and 'id="compare-alone"' not in page
    assert _selected(page, "b_ref") == "" and f'value="d:{public.pk}"' in page


@pytest.mark.django_db
def test_the_deck_panel_offers_compare_with_and_the_page_lists_readable_decks(
    client, user, other_user, redline_deck, hex_deck, make_deck
):
    public = make_deck(other_user, name="Their public list", visibility="public")
    private = make_deck(other_user, name="Their private list")
    client.force_login(user)
    panel = client.get(f"/simulations/decks/{redline_deck.pk}/", HTTP_HX_REQUEST="true")
    assert 'id="compare-with"' in panel.content.decode()
    force = make_deck(user, game="tactical-assault", fmt="standard", name="Force")
    panel = client.get(f"/simulations/decks/{force.pk}/", HTTP_HX_REQUEST="true")
    assert 'id="compare-with"' not in panel.content.decode()  # the game has no goldfish
    page = client.get(f"/simulations/decks/{redline_deck.pk}/compare/").content.decode()
    assert f'value="d:{public.pk}"' in page and f'value="d:{private.pk}"' not in page
    assert f'value="d:{hex_deck.pk}"' not in page  # another game
    r = client.post(
        f"/simulations/decks/{redline_deck.pk}/compare/",
        {"a": "1", "b_ref": f"d:{private.pk}", "games": "1000"},
    )
    assert r.status_code == 400 and "you can read" in r.content.decode()
    assert not SimulationRun.objects.exists()
