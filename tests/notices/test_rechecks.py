"""A format's saved decks re-checked in chunks after a rule set changed, and their owners
told: one notice per deck per change (verdict or total points), none for a re-check that
changes nothing, none twice for a chunk done twice; decks pinned to another rule set left
alone; a deleted pin falls back to following, with a notice; bulk loading and writing (query
counts that do not grow with the chunk)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalogue import rulesets
from catalogue.models import Card, Game, RuleSet, RuleSetCard
from decks import services
from decks.models import Deck, RecheckJob
from decks.verdicts.recheck_jobs import recheck_run_chunk, recheck_start, recheck_sweep
from notices.models import Notice
from tests.decks.conftest import sample_list

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_sample_rule_sets")]


@pytest.fixture
def no_sample_rule_sets(request):
    """The rule sets of these tests alone: the sample ones (dated, loaded with the sample
    catalogue) are deleted first, so that which set is in force does not depend on the day."""
    if "sample_catalogue" in request.fixturenames:
        request.getfixturevalue("sample_catalogue")
        RuleSet.objects.filter(sample=True).delete()


def _deck(owner, game="redline", fmt="standard", name="Deck"):
    return services.deck_create(
        owner=owner, game_slug=game, format=fmt, name=name, text=sample_list(game, fmt)
    )


def _run(job: RecheckJob) -> RecheckJob:
    for i in range(len(job.chunks)):
        recheck_run_chunk(job_id=job.pk, index=i)
    job.refresh_from_db()
    return job


def _recheck(game="redline", fmt="standard", code="") -> RecheckJob:
    return _run(recheck_start(game_slug=game, format=fmt, reason="test", rule_set_code=code))


def make_set(code, days_ago, *, game="redline", fmt="standard", banned=(), costs=None):
    """A rule set that took effect `days_ago` days ago (negative: upcoming)."""
    game = Game.objects.get(slug=game)
    effective = rulesets.today() - timedelta(days=days_ago)
    rs = RuleSet.objects.create(
        game=game,
        format=fmt,
        code=code,
        name=f"Sample season {code}",
        announced=effective - timedelta(days=30),
        effective=effective,
    )
    for name in banned:
        RuleSetCard.objects.create(
            rule_set=rs, card=Card.objects.get(game=game, name=name), banned=True
        )
    for name, cost in (costs or {}).items():
        RuleSetCard.objects.create(
            rule_set=rs, card=Card.objects.get(game=game, name=name), cost=cost
        )
    return rs


def _ban_tigercat(code="T2"):
    """A rule set in force since yesterday that bans a card of the sample REDLINE list."""
    return make_set(code, 1, banned=["Tigercat"])


def test_a_verdict_change_tells_the_owner_once(sample_catalogue, user, other_user):
    mine = _deck(user, name="Mine")
    theirs = _deck(other_user, name="Theirs")
    _recheck()  # the saved verdicts as a re-check writes them: nothing to tell
    assert Notice.objects.count() == 0
    _ban_tigercat("T2")
    job = _recheck(code="T2")
    assert (job.status, job.total, job.checked, job.changed, job.notices) == ("done", 2, 2, 2, 2)
    notice = Notice.objects.get(deck=mine)
    assert notice.owner == user and notice.kind == "verdict"
    assert (notice.was_legal, notice.legal, notice.rule_set_code) == (True, False, "T2")
    assert notice.message.startswith("Mine is no longer legal in Standard under T2")
    assert Notice.objects.get(deck=theirs).owner == other_user
    assert not Deck.objects.get(pk=mine.pk).legal


def test_re_checking_the_same_change_again_tells_nothing_new(sample_catalogue, user):
    deck = _deck(user)
    _ban_tigercat()
    _recheck(code="T2")
    assert Notice.objects.filter(deck=deck).count() == 1
    again = _recheck(code="T2")
    assert (again.checked, again.changed, again.notices) == (1, 0, 0)
    assert Notice.objects.filter(deck=deck).count() == 1


def test_a_chunk_done_twice_is_counted_and_told_once(sample_catalogue, user):
    deck = _deck(user)
    _ban_tigercat()
    job = recheck_start(game_slug="redline", format="standard", reason="test")
    assert recheck_run_chunk(job_id=job.pk, index=0) == "finished"
    assert recheck_run_chunk(job_id=job.pk, index=0) == "skipped"
    job.refresh_from_db()
    assert (job.checked, job.notices) == (1, 1)
    assert Notice.objects.filter(deck=deck).count() == 1


def test_legal_again_is_a_notice_too(sample_catalogue, user):
    deck = _deck(user, name="Back")
    _ban_tigercat()
    _recheck()
    RuleSetCard.objects.filter(rule_set__code="T2").update(banned=False)  # T2 edited
    _recheck(code="T2")
    latest = Notice.objects.filter(deck=deck).order_by("-id").first()
    assert (latest.was_legal, latest.legal) == (False, True)
    assert latest.message == "Back is legal again in Standard under T2."
    assert Notice.objects.filter(deck=deck).count() == 2


def test_a_points_change_tells_the_owner(sample_catalogue, user):
    deck = _deck(user, game="hex-skirmish", name="Army")
    _recheck("hex-skirmish")
    before = Deck.objects.get(pk=deck.pk).report["totals"]["points"]
    lancers = Card.objects.get(game__slug="hex-skirmish", name="Lancers")  # one in the list
    make_set("P2", 0, game="hex-skirmish", costs={"Lancers": lancers.cost + 2})
    job = _recheck("hex-skirmish", code="P2")
    assert job.notices == 1
    notice = Notice.objects.get(deck=deck)
    assert notice.kind == "points"
    assert (notice.was_points, notice.points) == (before, before + 2)
    assert (notice.was_legal, notice.legal) == (True, True)
    assert notice.message == f"Army: total points {before} → {before + 2} in Standard under P2."


def test_only_the_games_format_is_re_checked(sample_catalogue, user):
    _deck(user)
    _deck(user, fmt="scramble")
    _deck(user, game="hex-skirmish")
    job = recheck_start(game_slug="redline", format="standard", reason="test")
    assert job.total == 1


def test_decks_are_cut_into_chunks_with_a_constant_number_of_queries(
    sample_catalogue, user, settings
):
    settings.RECHECK_CHUNK_DECKS = 3
    for i in range(7):
        _deck(user, name=f"D{i}")
    _recheck()
    _ban_tigercat()
    job = recheck_start(game_slug="redline", format="standard", reason="test")
    assert len(job.chunks) == 3
    counts = []
    for i in range(3):
        with CaptureQueriesContext(connection) as ctx:
            recheck_run_chunk(job_id=job.pk, index=i)
        counts.append(len(ctx.captured_queries))
    job.refresh_from_db()
    assert (job.status, job.checked, job.changed, job.notices) == ("done", 7, 7, 7)
    # job, start mark, decks with versions, pool, collection check of nothing…, lock, write,
    # notices, job lock, job save, savepoints: the same for 3 decks as for 1
    assert counts[0] == counts[1], counts
    assert counts[0] <= 14, counts


def test_a_deck_saved_meanwhile_keeps_its_own_verdict(sample_catalogue, user):
    from decks.verdicts import recheck_jobs

    deck = _deck(user)
    _ban_tigercat()
    job = recheck_start(game_slug="redline", format="standard", reason="test")
    job = RecheckJob.objects.select_related("game").get(pk=job.pk)
    _n, changed = recheck_jobs._check_chunk(job, *job.chunks[0])
    services.deck_save_version(
        deck=deck, author=user, text=sample_list("redline", "standard") + "\n# x", based_on=1
    )
    from django.db import transaction

    with transaction.atomic():
        written, told = recheck_jobs._write_chunk(job, changed)
    assert (written, told) == (0, 0)


def test_a_stalled_job_has_its_chunks_sent_again_then_fails(sample_catalogue, user, settings):
    from datetime import timedelta

    from django.utils import timezone

    _deck(user)
    job = recheck_start(game_slug="redline", format="standard", reason="test")
    later = timezone.now() + timedelta(seconds=settings.RECHECK_STALL_SECONDS + 1)
    assert recheck_sweep(now=later)["requeued"] == [job.pk]
    for _ in range(settings.RECHECK_MAX_SWEEPS - 1):
        later += timedelta(seconds=settings.RECHECK_STALL_SECONDS + 1)
        recheck_sweep(now=later)
    later += timedelta(seconds=settings.RECHECK_STALL_SECONDS + 1)
    assert recheck_sweep(now=later)["failed"] == [job.pk]
    job.refresh_from_db()
    assert job.status == "failed" and "no progress" in job.error


def test_an_admin_starts_a_re_check_and_follows_its_progress(
    sample_catalogue, user, staff_user, client
):
    _deck(user)
    client.force_login(staff_user)
    assert "Re-check a format" in client.get("/admin/decks/recheckjob/").content.decode()
    bad = client.post("/admin/decks/recheckjob/start/", {"game": "redline", "format": "nope"})
    assert bad.status_code == 200 and "nope" in bad.content.decode()
    response = client.post(
        "/admin/decks/recheckjob/start/", {"game": "redline", "format": "standard"}
    )
    job = RecheckJob.objects.get()
    assert response["Location"] == f"/admin/decks/recheckjob/{job.pk}/progress/"
    page = client.get(response["Location"]).content.decode()
    assert 'data-status="queued"' in page and 'data-running="true"' in page
    _run(job)
    page = client.get(response["Location"]).content.decode()
    assert 'data-status="done"' in page and 'data-running="false"' in page
    assert 'http-equiv="refresh"' not in page


def test_the_progress_page_is_the_staffs(user, client, sample_catalogue):
    job = recheck_start(game_slug="redline", format="standard", reason="test")
    client.force_login(user)
    assert client.get(f"/admin/decks/recheckjob/{job.pk}/progress/").status_code == 302


def test_a_deck_pinned_to_another_rule_set_is_left_alone(sample_catalogue, user):
    s1 = make_set("T1", 30)
    follows = _deck(user, name="Follows")
    pinned = _deck(user, name="Pinned")
    Deck.objects.filter(pk=pinned.pk).update(rule_set_pin=s1)
    _recheck(code="T1")
    _ban_tigercat("T2")
    job = _recheck(code="T2")
    assert job.total == 1  # the follower; the deck pinned to T1 is not in scope
    assert Notice.objects.filter(deck=follows).count() == 1
    assert not Notice.objects.filter(deck=pinned).exists()
    assert Deck.objects.get(pk=pinned.pk).legal
    # a re-check of every deck of the format checks the pinned one under its own T1
    everything = _recheck()
    assert (everything.total, everything.changed) == (2, 0)
    assert Deck.objects.get(pk=pinned.pk).report["rule_set"] == "T1"


def test_a_deck_pinned_to_the_changed_rule_set_is_re_checked(sample_catalogue, user):
    s2 = make_set("T2", 1)
    pinned = _deck(user, name="Pinned")
    Deck.objects.filter(pk=pinned.pk).update(rule_set_pin=s2)
    _recheck()
    make_set("T3", 0)  # in force today: followers move on, the pinned deck stays on T2
    RuleSetCard.objects.create(
        rule_set=s2, card=Card.objects.get(game__slug="redline", name="Tigercat"), banned=True
    )
    job = _recheck(code="T2")
    assert job.notices == 1
    notice = Notice.objects.get(deck=pinned)
    assert notice.rule_set_code == "T2" and "under T2" in notice.message


def test_an_upcoming_rule_set_changes_no_verdict_yet(sample_catalogue, user):
    deck = _deck(user)
    _recheck()
    make_set("T9", -10, banned=["Tigercat"])  # takes effect in ten days
    job = _recheck(code="T9")
    # the deck's stored effect of the upcoming rule set is written; its verdict is not
    assert (job.checked, job.changed, job.notices) == (1, 1, 0)
    deck = Deck.objects.get(pk=deck.pk)
    assert deck.legal and deck.report["rule_set"] is None
    assert deck.upcoming["items"][0].startswith("Tigercat banned (")
    assert deck.upcoming["legal"] is False
    again = _recheck(code="T9")
    assert (again.checked, again.changed, again.notices) == (1, 0, 0)


def test_a_deleted_pin_falls_back_to_following_with_one_notice(
    sample_catalogue, user, other_user, django_capture_on_commit_callbacks
):
    s1 = make_set("T1", 30)
    pinned = _deck(user, name="Pinned")
    also = _deck(other_user, name="Also pinned")
    bystander = _deck(other_user, name="Follows")
    Deck.objects.filter(pk__in=[pinned.pk, also.pk]).update(rule_set_pin=s1)
    _ban_tigercat("T2")
    _recheck()  # the follower told of T2's ban; the pinned decks legal under T1
    assert Deck.objects.get(pk=pinned.pk).legal
    told_before = Notice.objects.filter(deck=bystander).count()
    jobs_before = RecheckJob.objects.count()

    # how every deletion goes (the admin's too)
    with django_capture_on_commit_callbacks() as sent:
        rulesets.rule_set_delete(rule_set=s1)
    assert RecheckJob.objects.count() == jobs_before + 1
    job = RecheckJob.objects.latest("pk")
    assert job.rule_set_code == "T1" and "T1 deleted" in job.reason
    assert job.released["ids"] == sorted([pinned.pk, also.pk])
    # the job's chunks, sent once the delete commits (other apps hear of the change too:
    # the decklists app re-checks its published decklists)
    assert len([f for f in sent if "send_chunks_on_commit" in f.__qualname__]) == 1
    deck = Deck.objects.get(pk=pinned.pk)
    assert deck.rule_set_pin is None
    _run(job)

    for d, owner in ((pinned, user), (also, other_user)):
        [notice] = Notice.objects.filter(deck=d)
        assert notice.owner == owner and notice.kind == "pin"
        assert (notice.rule_set_code, notice.was_legal, notice.legal) == ("T1", True, False)
        assert notice.message.startswith(
            f"{d.name} was pinned to the rule set T1 (Sample season T1)"
        )
        assert "now follows Standard, checked under T2, and is not legal: " in notice.message
        assert "Tigercat" in notice.message
    assert not Deck.objects.get(pk=pinned.pk).legal
    assert Deck.objects.get(pk=pinned.pk).report["rule_set"] == "T2"
    assert Notice.objects.filter(deck=bystander).count() == told_before
    # the job done again (a redelivered chunk) tells nobody twice
    _recheck(code="T1")
    assert Notice.objects.filter(deck__in=[pinned, also]).count() == 2


def test_a_deleted_pin_of_a_deck_without_a_list_is_told_at_once(sample_catalogue, user):
    s1 = make_set("T1", 30)
    empty = services.deck_create(owner=user, game_slug="redline", format="standard", name="E")
    Deck.objects.filter(pk=empty.pk).update(rule_set_pin=s1)
    rulesets.rule_set_delete(rule_set=s1)
    [notice] = Notice.objects.filter(deck=empty)
    assert notice.kind == "pin" and notice.message == (
        "E was pinned to the rule set T1 (Sample season T1), which was deleted: it now "
        "follows Standard."
    )
    assert not RecheckJob.objects.exists()  # no saved list in the format: nothing to re-check


def test_deleting_an_unpinned_rule_set_starts_one_re_check(sample_catalogue, user):
    s1 = make_set("T1", 30)
    _deck(user)
    rulesets.rule_set_delete(rule_set=s1)
    [job] = RecheckJob.objects.all()
    assert job.rule_set_code == "T1" and job.released["ids"] == [] and job.total == 1


def test_the_day_a_rule_set_takes_effect_starts_one_re_check(sample_catalogue, user):
    from decks.verdicts.recheck_jobs import recheck_rule_sets_taking_effect

    _deck(user)
    s2 = make_set("T2", -1, banned=["Tigercat"])  # takes effect tomorrow
    today = rulesets.today()
    assert recheck_rule_sets_taking_effect(today=today) == []
    tomorrow = today + timedelta(days=1)
    first = recheck_rule_sets_taking_effect(today=tomorrow)
    assert recheck_rule_sets_taking_effect(today=tomorrow) == first  # beat again: same job
    job = RecheckJob.objects.get(pk=first[0])
    assert (job.rule_set_code, job.key) == ("T2", f"effective:{s2.pk}:{tomorrow:%Y-%m-%d}")
    assert RecheckJob.objects.count() == 1


def test_the_portable_writer_writes_the_same_and_skips_a_deck_saved_meanwhile(
    sample_catalogue, user
):
    """The writer of the databases other than PostgreSQL (the embedded SQLite): row locks
    and bulk_update, with the same condition."""
    from django.db import transaction
    from django.utils import timezone

    from decks.verdicts import recheck_jobs

    kept, saved = _deck(user, name="Kept"), _deck(user, name="Saved")
    _ban_tigercat()
    job = RecheckJob.objects.select_related("game").get(
        pk=recheck_start(game_slug="redline", format="standard", reason="test").pk
    )
    _n, changed = recheck_jobs._check_chunk(job, *job.chunks[0])
    services.deck_save_version(
        deck=saved, author=user, text=sample_list("redline", "standard") + "\n# x", based_on=1
    )
    with transaction.atomic():
        written = recheck_jobs._write_verdicts_portable(changed, timezone.now())
    assert written == {kept.pk}
    after = Deck.objects.get(pk=kept.pk)
    assert not after.legal and after.report["rule_set"] == "T2"
    assert after.violations_count == len(after.report["errors"]) >= 1
