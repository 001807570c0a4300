"""Simulation services: parameters, limits, chunking, seeds, idempotency, reaping."""

from __future__ import annotations

import dataclasses
import math
from datetime import timedelta

import pytest
from django.utils import timezone

from cardsite.tasks import run_job_chunk
from simulations import kinds, services
from simulations.models import SimulationRun
from tests.simulations.conftest import play_inline
from validation.capabilities import Goldfish, Tool, ToolResult
from validation.params import ParamSpec
from validation.registry import FormatDef, GameDef, registry
from validation.schema import KindSchema
from validation.sections import SectionSpec
from validation.sim.kernel import SimParams, chunk_games
from validation.sim.odds import distribution
from validation.sim.stats import CountStats

pytestmark = pytest.mark.django_db


def start(deck, owner=None, kind="redline-goldfish", seed=7, **params):
    return services.simulation_start(
        owner=owner or deck.owner,
        kind=kind,
        params={"games": 4_000, "turns": 6, **params},
        deck_version=deck.current_version,
        seed=seed,
    )


def test_opening_hand_distribution_matches_hypergeometric_through_the_service(
    redline_deck, settings
):
    settings.SIMULATIONS_CHUNK_GAMES = 10_000
    games = 40_000
    run = start(redline_deck, games=games, turns=3, mulligan_lo=0, mulligan_hi=7)
    assert run.n_chunks == 4
    play_inline(run)
    assert run.status == "done"
    hist = run.results["stats"]["counts"]["open_resources_hist"]
    summary = run.results["summary"]
    deck = summary["deck"]
    assert (deck["arsenal"], deck["resources"]) == (60, 24)
    expected = distribution(24, 60, 7)
    assert summary["expected_open_resources"] == pytest.approx(expected)
    assert sum(hist) == games
    for k, p in enumerate(expected):
        se = math.sqrt(p * (1 - p) / games)
        assert abs(hist[k] / games - p) <= 4 * se + 1 / games, (k, hist[k] / games, p)


def test_same_seed_gives_the_same_results(redline_deck, settings):
    settings.SIMULATIONS_CHUNK_GAMES = 1_500
    a, b = start(redline_deck, seed=99), start(redline_deck, seed=99)
    play_inline(a)
    play_inline(b)
    assert a.n_chunks == 3
    assert a.results == b.results
    c = start(redline_deck, seed=100)
    play_inline(c)
    assert c.results["stats"] != a.results["stats"]


def test_a_chunked_run_agrees_with_an_unchunked_one(redline_deck, settings):
    settings.SIMULATIONS_CHUNK_GAMES = 100_000
    whole = start(redline_deck, games=20_000, turns=8, seed=1)
    settings.SIMULATIONS_CHUNK_GAMES = 5_000
    chunked = start(redline_deck, games=20_000, turns=8, seed=2)
    assert (whole.n_chunks, chunked.n_chunks) == (1, 4)
    play_inline(whole)
    play_inline(chunked)
    fw = whole.results["summary"]["figures"]
    fc = chunked.results["summary"]["figures"]
    assert chunked.results["stats"]["games"] == whole.results["stats"]["games"] == 20_000
    # proportions agree within 4 standard errors of their difference
    for key in ("resource_deployed_by_turn", "win_tactical_by_turn"):
        for pw, pc in zip(fw[key], fc[key], strict=True):
            p = (pw + pc) / 2
            se = math.sqrt(2 * p * (1 - p) / 20_000)
            assert abs(pw - pc) <= 4 * se + 1e-4, (key, pw, pc)
    for key in ("first_efreet_turn_hist", "win_turn_hist"):
        mw, mc = fw[key]["mean_turn"], fc[key]["mean_turn"]
        sd = max(fw[key]["sd_turn"], fc[key]["sd_turn"])
        assert abs(mw - mc) <= 4 * sd * math.sqrt(2 / 20_000) + 1e-9, (key, mw, mc)


def test_hex_skirmish_goldfish_reports_the_command_deck_figures(hex_deck):
    run = start(hex_deck, kind="hex-skirmish-goldfish", games=3_000, turns=10)
    play_inline(run)
    assert run.status == "done"
    figures = run.results["summary"]["figures"]
    assert len(figures["played_mean_by_turn"]) == 10
    assert "March" in figures["first_playable_turn_hist"]
    assert run.results["summary"]["deck"]["command_cards"] == 31
    specs = kinds.get("hex-skirmish-goldfish").goldfish.charts(run.results["summary"])
    assert {s["id"] for s in specs} >= {"played", "deck-out", "first-playable"}


def test_a_redelivered_chunk_changes_nothing(redline_deck, settings):
    settings.SIMULATIONS_CHUNK_GAMES = 2_000
    run = start(redline_deck)
    assert services.simulation_run_chunk(run_id=run.pk, chunk_index=0) == "stored"
    run.refresh_from_db()
    slot = run.chunk_results["0"]
    assert services.simulation_run_chunk(run_id=run.pk, chunk_index=0) == "skipped"
    assert services.simulation_run_chunk(run_id=run.pk, chunk_index=1) == "finished"
    run.refresh_from_db()
    assert run.status == "done" and run.chunks_done == 2 and run.chunk_results["0"] == slot
    results = run.results
    assert services.simulation_run_chunk(run_id=run.pk, chunk_index=1) == "skipped"
    run.refresh_from_db()
    assert run.results == results


def test_params_are_validated_with_clear_messages(redline_deck):
    with pytest.raises(services.ParamsInvalid) as exc:
        start(redline_deck, games=0, turns="many", mulligan_lo=9)
    errors = exc.value.errors
    assert errors["games"] == "Games must be between 1 and 2,000,000; got 0"
    assert "whole number" in errors["turns"]
    assert "between 0 and 7" in errors["mulligan_lo"]
    with pytest.raises(services.ParamsInvalid) as exc:
        start(redline_deck, mulligan_lo=5, mulligan_hi=3)
    assert "mulligan band 5–3 is empty" in exc.value.errors["mulligan_hi"]
    with pytest.raises(services.ParamsInvalid) as exc:
        start(redline_deck, speed=3)
    assert "not a parameter" in exc.value.errors["speed"]
    with pytest.raises(services.ParamsInvalid) as exc:
        start(redline_deck, seed=-1)
    assert "seed" in exc.value.errors
    assert not SimulationRun.objects.exists()


def test_a_deck_of_another_game_or_an_unknown_kind_is_refused(redline_deck):
    with pytest.raises(services.SimulationError) as exc:
        start(redline_deck, kind="hex-skirmish-goldfish")
    assert "simulates hex-skirmish decks" in str(exc.value)
    with pytest.raises(services.SimulationError) as exc:
        start(redline_deck, kind="no-such-kind")
    assert "no simulation kind" in str(exc.value)


def test_at_most_three_active_runs_per_user(redline_deck, other_user, make_deck):
    runs = [start(redline_deck) for _ in range(3)]
    with pytest.raises(services.TooManyActiveRuns) as exc:
        start(redline_deck)
    assert "3 simulations queued or running; at most 3" in str(exc.value)
    start(make_deck(other_user))  # another user is not limited by them
    play_inline(runs[0])
    start(redline_deck)  # a slot is free again


def test_a_random_seed_is_chosen_when_none_is_given(redline_deck):
    a = start(redline_deck, seed=None)
    b = start(redline_deck, seed=None)
    assert a.seed != b.seed and 0 <= a.seed < 2**63


def test_the_mulligan_band_is_a_redline_parameter(redline_deck):
    """The band is REDLINE's own parameter (the shared SimParams has none); an empty band
    is refused by REDLINE's check with the message players know."""
    assert not any("mulligan" in name for name in SimParams.__dataclass_fields__)
    goldfish = registry.get("redline").goldfish
    assert {"mulligan_lo", "mulligan_hi"} <= {p.name for p in goldfish.params}
    assert kinds.get("redline-goldfish").goldfish is goldfish
    with pytest.raises(services.ParamsInvalid) as exc:
        start(redline_deck, mulligan_lo=5, mulligan_hi=3)
    assert exc.value.errors == {
        "mulligan_hi": "the mulligan band 5–3 is empty; the high end must be at least the low end"
    }
    run = start(redline_deck, games=2_000, mulligan_lo=0, mulligan_hi=7)
    play_inline(run)
    assert run.results["summary"]["figures"]["mulligans"] == 0.0


def _stand_in(game_slug: str, **changes) -> GameDef:
    """The registered game `game_slug` with its goldfish changed."""
    game = registry.get(game_slug)
    return dataclasses.replace(game, goldfish=dataclasses.replace(game.goldfish, **changes))


def test_a_failing_chunk_marks_the_run_failed_with_the_reason(redline_deck):
    def boom(inputs, params, seed, i, n):
        if params["games"]:
            raise RuntimeError("the kernel broke")
        return {}

    with registry.temporarily(_stand_in("redline", slug="broken", run_chunk=boom)):
        run = start(redline_deck, kind="broken")
        run_job_chunk.apply(args=("simulations.goldfish", run.pk, 0))
    run.refresh_from_db()
    assert run.status == "failed"
    assert run.error == "chunk 0 failed: RuntimeError: the kernel broke"


def _duel_game() -> GameDef:
    """A game whose one tool runs long in the background, on inputs the caller hands it."""

    def play(inputs, params, seed, i, n):
        games = chunk_games(params["games"], i, n)
        return CountStats(
            turns=1, games=games, counts={"wins": games if inputs["a"] > inputs["b"] else 0}
        )

    duel = Goldfish(
        slug="test-duel",
        label="Duel",
        description="Who wins a duel.",
        params=(ParamSpec("games", "Games", "int", 1, 100, default=10),),
        stats=CountStats,
        run_chunk=play,
        summarise=lambda stats, inputs: {"games": stats.games, "wins": stats.counts["wins"]},
    )
    tool = Tool(
        slug="duel",
        label="Duel",
        description="Who wins a duel.",
        params=duel.params,
        compute=lambda params, cards: ToolResult(data={}),
        background=duel,
    )
    return GameDef(
        slug="duel-game",
        name="Duel game",
        description="A test game.",
        factions={},
        kinds={},
        formats={
            "only": FormatDef(
                "only", "Only", "The only format.", sections=(SectionSpec("cards", "Cards"),)
            )
        },
        tools=(tool,),
    )


def test_a_deckless_kind_takes_its_inputs_from_the_caller(user):
    with registry.temporarily(_duel_game()):
        run = services.simulation_start(
            owner=user, kind="test-duel", params={"games": 30}, inputs={"a": 5, "b": 3}
        )
        play_inline(run)
    assert run.status == "done" and run.deck_version is None
    assert run.results["summary"] == {"games": 30, "wins": 30}


def test_kinds_are_read_from_the_games():
    assert [k.slug for k in kinds.for_game("redline")] == ["redline-goldfish"]
    assert [k.slug for k in kinds.for_game("hex-skirmish")] == ["hex-skirmish-goldfish"]
    assert [k.slug for k in kinds.for_game("tactical-assault")] == ["tactical-assault-close-combat"]
    assert kinds.for_game("red-code") == [] and kinds.for_game("chess") == []
    expected = {g.goldfish.slug for g in registry.all() if g.goldfish} | {
        t.background.slug for g in registry.all() for t in g.tools if t.background
    }
    assert (
        {k.slug for k in kinds.all_kinds()}
        == expected
        >= {
            "redline-goldfish",
            "tactical-assault-close-combat",
            "red-mittens-goldfish",
            "hex-skirmish-goldfish",
        }
    )
    assert ("redline-goldfish", "REDLINE goldfish") in kinds.choices()
    game = _duel_game()
    with registry.temporarily(game):
        kind = kinds.get("test-duel")
        assert kind.goldfish is game.tools[0].background and kind.game_slug == "duel-game"
        assert kinds.for_game("duel-game") == [kind]
        assert kind.as_dict()["default_params"] == {"games": 10}
    with pytest.raises(kinds.UnknownKind):
        kinds.get("test-duel")
    assert kinds.for_game("duel-game") == []


# --- a game added later: its goldfish, the kinds API and a run ---------------------------


def _counting_goldfish() -> Goldfish[CountStats]:
    """A goldfish that plays nothing: every game sees the deck's cards once."""

    def count(inputs, params, seed, i, n):
        games = chunk_games(params["games"], i, n)
        return CountStats(turns=1, games=games, counts={"cards_seen": games * inputs["cards"]})

    return Goldfish(
        slug="toy-count",
        label="Toy count",
        description="Counts games.",
        params=(ParamSpec("games", "Games", "int", 1, 1_000_000, default=10),),
        sections=("cards",),
        prepare=lambda sections: {"cards": sum(e.count for e in sections["cards"])},
        stats=CountStats,
        run_chunk=count,
        summarise=lambda stats, inputs: {
            "games": stats.games,
            "cards_seen": stats.counts["cards_seen"],
            "deck": inputs["cards"],
        },
        key_figures=lambda summary: [("Games", str(summary["games"]))],
    )


def _toy_game(goldfish: Goldfish[CountStats]) -> GameDef:
    return GameDef(
        slug="toy",
        name="Toy",
        description="A test game.",
        factions={},
        kinds={"token": KindSchema("token", "Token", ())},
        formats={
            "only": FormatDef(
                "only", "Only", "The only format.", sections=(SectionSpec("cards", "Cards"),)
            )
        },
        goldfish=goldfish,
    )


def test_a_game_registered_later_has_its_goldfish_at_once(client, user, settings):
    from catalogue.models import Card, Game
    from catalogue.services import games_sync
    from decks.services import deck_create

    settings.SIMULATIONS_CHUNK_GAMES = 40
    goldfish = _counting_goldfish()
    with registry.temporarily(_toy_game(goldfish)):
        games_sync()
        Card.objects.create(game=Game.objects.get(slug="toy"), name="Toy Card", kind="token")
        assert [k.goldfish for k in kinds.for_game("toy")] == [goldfish]
        listed = {k["slug"]: k for k in client.get("/api/simulations/kinds/").json()}
        assert listed["toy-count"]["game"] == "toy"
        assert listed["toy-count"]["needs_deck"] is True
        assert listed["toy-count"]["default_params"] == {"games": 10}
        assert [p["name"] for p in listed["toy-count"]["params"]] == ["games"]
        deck = deck_create(
            owner=user, game_slug="toy", format="only", name="Toys", text="Cards:\n3 Toy Card\n"
        )
        run = services.simulation_start(
            owner=user,
            kind="toy-count",
            params={"games": 100},
            deck_version=deck.current_version,
            seed=1,
        )
        assert run.n_chunks == 3 and run.inputs == {"cards": 3}
        assert run.label == "Toys v1"
        play_inline(run)
        assert run.status == "done", run.error
        assert run.results["summary"] == {"games": 100, "cards_seen": 300, "deck": 3}
        assert services.run_view(run)["figures"] == [("Games", "100")]
    with pytest.raises(kinds.UnknownKind):
        kinds.get("toy-count")
    assert kinds.for_game("toy") == []
    assert "toy-count" not in {k["slug"] for k in client.get("/api/simulations/kinds/").json()}


def test_a_card_no_longer_in_the_catalogue_is_named(redline_deck):
    from catalogue.models import Card

    name = next(
        e["card"] for e in redline_deck.current_version.entries if e["section"] == "arsenal"
    )
    Card.objects.filter(game__slug="redline", name=name).delete()
    with pytest.raises(services.SimulationError) as exc:
        start(redline_deck)
    assert exc.value.errors == {"deck": f"{name} is no longer in the catalogue"}


def test_reaper_requeues_a_chunk_whose_worker_was_lost_then_gives_up(
    redline_deck, settings, django_capture_on_commit_callbacks, monkeypatch
):
    settings.SIMULATIONS_CHUNK_GAMES = 2_000
    settings.SIMULATIONS_LEASE_SECONDS = 60
    settings.SIMULATIONS_MAX_REAPS = 1
    sent = []
    monkeypatch.setattr(run_job_chunk, "delay", lambda *args: sent.append(args))
    run = start(redline_deck)
    services.simulation_run_chunk(run_id=run.pk, chunk_index=0)
    # chunk 1 was started by a worker that then died: its lease is not renewed
    long_ago = timezone.now() - timedelta(minutes=5)
    run.refresh_from_db()
    run.chunk_started["1"] = long_ago.isoformat()
    run.save()
    assert services.simulation_check(run, now=long_ago + timedelta(seconds=30)) is None
    with django_capture_on_commit_callbacks(execute=True):
        out = services.simulation_reap()
    assert out == {"requeued": [run.pk], "failed": []}
    assert sent == [("simulations.goldfish", run.pk, 1)]
    run.refresh_from_db()
    assert run.reaps == 1 and "1" not in run.chunk_started and run.status == "running"
    # lost again: the run fails with the reason instead of staying "running"
    run.chunk_started["1"] = long_ago.isoformat()
    run.save()
    assert services.simulation_check(run) == "failed"
    run.refresh_from_db()
    assert run.status == "failed"
    assert run.error.startswith("worker lost: chunk(s) 1 of 2 did not finish")
    # the lost chunk's worker comes back after all: nothing changes
    assert services.simulation_run_chunk(run_id=run.pk, chunk_index=1) == "skipped"


def test_reaper_requeues_chunks_never_started_of_a_stalled_run(redline_deck, settings):
    settings.SIMULATIONS_STALL_SECONDS = 100
    run = start(redline_deck)
    assert services.simulation_check(run) is None
    later = timezone.now() + timedelta(seconds=101)
    assert services.simulation_check(run, now=later) == "requeued"
    run.refresh_from_db()
    # a chunk that never started is no lost worker: it does not count towards failing
    assert run.reaps == 0 and run.status == "queued"
    assert run.timings["reaped"][0]["chunks"] == list(range(run.n_chunks))
    # the reap counts as activity: not sent again straight away
    assert services.simulation_check(run, now=later + timedelta(seconds=50)) is None


def test_a_chunk_held_by_a_live_lease_is_not_played_twice(redline_deck, settings):
    """A repeated message (a re-send, a redelivery) finds the chunk's lease held by a live
    worker and does nothing: every game is counted once."""
    settings.SIMULATIONS_LEASE_SECONDS = 60
    run = start(redline_deck)
    run.chunk_started["0"] = timezone.now().isoformat()
    run.save()
    assert services.simulation_run_chunk(run_id=run.pk, chunk_index=0) == "busy"
    run.refresh_from_db()
    assert "0" not in run.chunk_results
    # once the lease has run out, the chunk is played
    run.chunk_started["0"] = (timezone.now() - timedelta(seconds=61)).isoformat()
    run.save()
    assert services.simulation_run_chunk(run_id=run.pk, chunk_index=0) in ("stored", "finished")


@pytest.mark.django_db(transaction=True)
def test_a_running_chunk_renews_its_lease(redline_deck, settings, monkeypatch):
    import time

    settings.SIMULATIONS_HEARTBEAT_SECONDS = 0.2
    settings.SIMULATIONS_LEASE_SECONDS = 5
    run = start(redline_deck)
    kind = kinds.get(run.simulation)
    leases = []
    original = kind.goldfish.run_chunk

    def slow(*args):
        leases.append(SimulationRun.objects.get(pk=run.pk).chunk_started["0"])
        time.sleep(1.0)
        leases.append(SimulationRun.objects.get(pk=run.pk).chunk_started["0"])
        return original(*args)

    patched = dataclasses.replace(kind, goldfish=dataclasses.replace(kind.goldfish, run_chunk=slow))
    monkeypatch.setattr(services.kinds, "get", lambda slug: patched)
    assert services.simulation_run_chunk(run_id=run.pk, chunk_index=0) in ("stored", "finished")
    assert leases[1] > leases[0]  # renewed while the chunk was being played


def test_reading_a_run_never_changes_it(client, user, redline_deck, settings):
    """Pages and the API only read: the reaper (Celery beat) does the re-sending."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    settings.SIMULATIONS_STALL_SECONDS = 0
    run = start(redline_deck)
    client.force_login(user)
    for url in (
        f"/simulations/{run.pk}/",
        f"/simulations/{run.pk}/progress/",
        f"/api/simulations/{run.pk}/",
    ):
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(url).status_code == 200
        writes = [
            q["sql"]
            for q in ctx.captured_queries
            if q["sql"].lstrip().upper().startswith(("UPDATE", "INSERT", "DELETE"))
        ]
        writes = [w for w in writes if "django_session" not in w]
        assert writes == [], (url, writes)
    run.refresh_from_db()
    assert run.reaps == 0 and "reaped" not in run.timings


def test_the_reap_command_reports(db, capsys):
    from django.core.management import call_command

    call_command("simulations_reap")
    assert "re-queued 0 run(s); failed 0 run(s)" in capsys.readouterr().out


def test_exact_odds():
    out = services.odds_at_least(deck_size="60", group="24", k="2", turns="5", opening="7")
    assert out["opening_hand"]["p"] == pytest.approx(1 - sum(distribution(24, 60, 7)[:2]))
    assert [r["cards_seen"] for r in out["by_turn"]] == [8, 9, 10, 11, 12]
    draw = services.odds_at_least(deck_size=60, group=24, first_player_draws=0, turns=1)
    assert draw["by_turn"][0]["cards_seen"] == 7
    with pytest.raises(services.OddsInvalid) as exc:
        services.odds_at_least(deck_size=60, group=61, k="x")
    assert "cannot be larger than the deck" in exc.value.errors["group"]
    assert "whole number" in exc.value.errors["k"]
