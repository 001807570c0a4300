"""The migrations that put the simulation runs and the re-check jobs on the one job system keep
every stored row: a run's simulation slug moves to `simulation` and its `kind` says what kind
of run it is (read from `inputs["experiment"]` and from the slug of a tool's background run);
`reaps` and `sweeps` become `attempts`; a re-check's `chunks_done` (each chunk's counts with
its seconds and worker) splits into `chunk_results` and `timings`. Back and forth."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("simulations", "0001_initial"), ("decks", "0008_deck_upcoming")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


def _leaves():
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def test_runs_and_re_checks_keep_their_data_on_the_one_job_system():
    old = _migrate(BEFORE)
    User = old.get_model("auth", "User")
    Game = old.get_model("catalogue", "Game")
    Run = old.get_model("simulations", "SimulationRun")
    Job = old.get_model("decks", "RecheckJob")
    owner = User.objects.create(username="old-owner")
    game = Game.objects.create(slug="redline", name="REDLINE")

    def run(slug, inputs, **fields):
        return Run.objects.create(owner=owner, kind=slug, seed=1, inputs=inputs, **fields).pk

    goldfish = run("redline-goldfish", {"deck": {}}, reaps=2, status="done")
    compared = run("redline-goldfish", {"experiment": "compare", "a": {}, "b": {}})
    tuned = run("redline-goldfish", {"experiment": "tune", "swaps": []})
    tool = run("tactical-assault-close-combat", {"combat_cards": []})
    job = Job.objects.create(
        game=game,
        format="standard",
        reason="old",
        total=4,
        checked=2,
        changed=1,
        notices=1,
        sweeps=1,
        chunks=[[1, 2], [3, 4]],
        chunks_done={
            "0": {"checked": 2, "changed": 1, "notices": 1, "seconds": 0.5, "worker": "w1"}
        },
    ).pk

    new = _migrate(_leaves())
    Run = new.get_model("simulations", "SimulationRun")
    runs = {r.pk: r for r in Run.objects.all()}
    assert {pk: runs[pk].kind for pk in runs} == {
        goldfish: "goldfish",
        compared: "comparison",
        tuned: "tuning",
        tool: "tool",
    }
    assert runs[goldfish].simulation == "redline-goldfish" and runs[goldfish].attempts == 2
    assert runs[tool].simulation == "tactical-assault-close-combat"
    assert runs[compared].inputs == {"experiment": "compare", "a": {}, "b": {}}
    job_now = new.get_model("decks", "RecheckJob").objects.get(pk=job)
    assert job_now.chunk_results == {"0": {"checked": 2, "changed": 1, "notices": 1}}
    assert job_now.timings == {"chunks": {"0": {"seconds": 0.5, "worker": "w1"}}}
    assert (job_now.n_chunks, job_now.chunks_done, job_now.attempts) == (2, 1, 1)
    assert (job_now.checked, job_now.changed, job_now.notices) == (2, 1, 1)

    back = _migrate(BEFORE)
    assert back.get_model("decks", "RecheckJob").objects.get(pk=job).chunks_done == {
        "0": {"checked": 2, "changed": 1, "notices": 1, "seconds": 0.5, "worker": "w1"}
    }
    old_runs = back.get_model("simulations", "SimulationRun").objects.all()
    assert {r.pk: (r.kind, r.reaps) for r in old_runs}[goldfish] == ("redline-goldfish", 2)
    _migrate(_leaves())
