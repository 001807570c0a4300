"""Likes, favourites and follows (once per user, counters and reputation with F()), comments
(an account with a saved deck; limits; Markdown sanitised; notices to the decklist's author,
the comment replied to and every user mentioned, each kind switchable), reports (once) and
logged moderation, throttles tighter for new accounts."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from decklists import services
from decklists.models import Author, Comment, Decklist, ModerationLog, Report
from notices.models import Notice
from notices.services import preference_set

pytestmark = pytest.mark.django_db


def _reputation(user) -> int:
    return Author.objects.get(user=user).reputation


def test_liking_twice_is_one_like_and_one_point_of_reputation(
    sample_catalogue, user, other_user, publish
):
    decklist = publish(user)
    assert services.decklist_like(decklist=decklist, user=other_user) is True
    assert services.decklist_like(decklist=decklist, user=other_user) is False
    services.decklist_favourite(decklist=decklist, user=other_user)
    services.decklist_favourite(decklist=decklist, user=other_user)
    decklist.refresh_from_db()
    assert (decklist.likes, decklist.favourites) == (1, 1)
    assert _reputation(user) == 1 + 5
    services.decklist_unlike(decklist=decklist, user=other_user)
    services.decklist_unlike(decklist=decklist, user=other_user)
    decklist.refresh_from_db()
    assert decklist.likes == 0 and _reputation(user) == 5


def test_a_like_of_ones_own_decklist_counts_but_earns_no_reputation(
    sample_catalogue, user, publish
):
    decklist = publish(user)
    services.decklist_like(decklist=decklist, user=user)
    decklist.refresh_from_db()
    assert decklist.likes == 1 and _reputation(user) == 0


def test_likes_lift_a_decklist_in_the_popular_order_and_age_lowers_it(
    sample_catalogue, user, other_user, carol, publish
):
    from decklists.services import search

    older = publish(user, name="Older")
    publish(user, "redline", "scramble", name="Newer")
    week = timedelta(days=7)
    from decklists.services.popularity import freshness, score

    Decklist.objects.filter(pk=older.pk).update(
        published_at=older.published_at - week,
        freshness=freshness(older.published_at - week),
        score=score(likes=0, fresh=freshness(older.published_at - week)),
    )
    order = lambda: [d.name for d in search.decklist_search(search.Search())]  # noqa: E731
    assert order() == ["Newer", "Older"]
    # a week older needs four times the likes (plus one): three likes are not enough...
    for who in (user, other_user, carol):
        services.decklist_like(decklist=Decklist.objects.get(pk=older.pk), user=who)
    assert order() == ["Newer", "Older"]
    # ...four are: 1 + 4 = 5 > 4 × (1 + 0)
    from django.contrib.auth import get_user_model

    dave = get_user_model().objects.create_user("dave", "d@example.com", "a-long-pass-999")
    services.decklist_like(decklist=Decklist.objects.get(pk=older.pk), user=dave)
    assert order() == ["Older", "Newer"]


def test_following_an_author_tells_the_follower_when_they_publish(
    sample_catalogue, user, other_user, publish
):
    assert services.author_follow(author=user, follower=other_user) is True
    assert services.author_follow(author=user, follower=other_user) is False
    with pytest.raises(services.DecklistInvalid):
        services.author_follow(author=user, follower=user)
    decklist = publish(user, name="Fresh")
    services.followers_tell(decklist_id=decklist.pk)
    services.followers_tell(decklist_id=decklist.pk)  # a task delivered twice tells once
    (notice,) = Notice.objects.filter(owner=other_user)
    assert notice.kind == "published" and "Fresh" in notice.message
    assert notice.get_absolute_url() == decklist.get_absolute_url()
    assert Author.objects.get(user=user).followers == 1


def test_commenting_needs_an_account_that_saved_a_deck(sample_catalogue, user, other_user, publish):
    decklist = publish(user)
    with pytest.raises(services.NotAllowed):
        services.comment_post(decklist=decklist, author=other_user, text="first!")
    assert not Comment.objects.exists()


def test_a_comment_of_20000_characters_is_refused_with_the_limit(
    sample_catalogue, user, publish, client
):
    decklist = publish(user)
    with pytest.raises(services.DecklistInvalid) as refused:
        services.comment_post(decklist=decklist, author=user, text="x" * 20_000)
    assert refused.value.errors == {"text": ["20000 characters; at most 5000"]}
    client.force_login(user)
    response = client.post(reverse("decklists:comment", args=[decklist.pk]), {"text": "x" * 20_000})
    assert response.status_code == 400 and "at most 5000" in response.content.decode()
    assert not Comment.objects.exists()


def test_a_comment_tells_the_author_the_comment_replied_to_and_every_mention_once(
    sample_catalogue, user, other_user, carol, publish, make_deck
):
    decklist = publish(user)
    make_deck(other_user)
    make_deck(carol)
    first = services.comment_post(decklist=decklist, author=other_user, text="Nice list")
    reply = services.comment_post(
        decklist=decklist,
        author=carol,
        text=f"@{other_user.username} agreed, and @{user.username} too. @nobody <script>x()</script>",
        reply_to=first.pk,
    )
    kinds = sorted(Notice.objects.values_list("owner__username", "kind"))
    assert kinds == [
        ("alice", "comment"),  # bob's comment
        ("alice", "comment"),  # carol's (the author is told of the comment, not as a mention)
        ("bob", "reply"),  # carol replied to bob (not told again as a mention)
    ]
    assert f'href="/decklists/authors/{other_user.username}/"' in reply.html
    assert "<script" not in reply.html and "x()" not in reply.html and "@nobody" in reply.html
    decklist.refresh_from_db()
    assert decklist.comments == 2


def test_a_mention_of_a_user_not_otherwise_told_is_a_mention_notice(
    sample_catalogue, user, other_user, carol, publish, make_deck
):
    decklist = publish(user)
    make_deck(other_user)
    services.comment_post(decklist=decklist, author=other_user, text=f"ask @{carol.username}")
    assert Notice.objects.get(owner=carol).kind == "mention"


def test_a_switched_off_kind_is_not_written(sample_catalogue, user, other_user, publish, make_deck):
    decklist = publish(user)
    make_deck(other_user)
    preference_set(user, email_digest=False, muted=["comment"])
    services.comment_post(decklist=decklist, author=other_user, text="hello")
    assert not Notice.objects.filter(owner=user).exists()


def test_the_account_page_switches_a_kind_off(client, user):
    client.force_login(user)
    page = client.get("/accounts/profile/").content.decode()
    assert 'name="kind" value="mention" checked' in page
    kinds = ["published", "comment", "reply"]
    response = client.post("/notices/settings/", {"kinds_shown": "1", "kind": kinds})
    assert response.status_code == 302
    page = client.get("/accounts/profile/").content.decode()
    assert 'name="kind" value="mention" checked' not in page
    assert 'name="kind" value="reply" checked' in page


def test_commenting_on_a_hidden_decklist_is_a_404(
    client, sample_catalogue, user, other_user, staff_user, publish, make_deck
):
    decklist = publish(user)
    make_deck(other_user)
    services.decklist_hide(decklist=decklist, actor=staff_user, reason="spam")
    client.force_login(other_user)
    response = client.post(reverse("decklists:comment", args=[decklist.pk]), {"text": "hi"})
    assert response.status_code == 404 and not Comment.objects.exists()


def test_the_decklists_author_hides_a_comment_and_every_step_is_logged(
    client, sample_catalogue, user, other_user, staff_user, publish, make_deck
):
    decklist = publish(user)
    make_deck(other_user)
    comment = services.comment_post(decklist=decklist, author=other_user, text="buy cheap gold")
    client.force_login(user)
    url = reverse("decklists:comment-moderate", args=[decklist.pk, comment.pk])
    assert client.post(url, {"action": "hide", "reason": ""}).status_code == 302
    comment.refresh_from_db()
    assert comment.hidden is False  # no reason: not done
    hidden = client.post(url, {"action": "hide", "reason": "spam"}, follow=True)
    assert "Comment hidden." in hidden.content.decode()
    comment.refresh_from_db()
    decklist.refresh_from_db()
    assert comment.hidden and comment.hidden_reason == "spam" and decklist.comments == 0
    # the author may not delete; staff may
    client.post(url, {"action": "delete", "reason": "spam"})
    assert Comment.objects.filter(pk=comment.pk).exists()
    client.force_login(staff_user)
    client.post(url, {"action": "delete", "reason": "spam, for good"})
    assert not Comment.objects.filter(pk=comment.pk).exists()
    log = list(
        ModerationLog.objects.order_by("at", "id").values_list(
            "actor__username", "action", "reason"
        )
    )
    assert log == [("alice", "hide", "spam"), ("staff", "delete", "spam, for good")]


def test_staff_hide_and_restore_a_decklist_and_are_told_so_in_the_past_tense(
    client, sample_catalogue, user, staff_user, publish
):
    decklist = publish(user)
    client.force_login(staff_user)
    url = reverse("decklists:moderate", args=[decklist.pk])
    hidden = client.post(url, {"action": "hide", "reason": "spam"}, follow=True)
    assert "Decklist hidden." in hidden.content.decode()
    restored = client.post(url, {"action": "restore", "reason": "not spam"}, follow=True)
    assert "Decklist restored." in restored.content.decode()


def test_a_comment_of_someone_elses_decklist_cannot_be_hidden_by_a_player(
    client, sample_catalogue, user, other_user, carol, publish, make_deck
):
    decklist = publish(user)
    make_deck(other_user)
    comment = services.comment_post(decklist=decklist, author=other_user, text="fine")
    client.force_login(carol)
    url = reverse("decklists:comment-moderate", args=[decklist.pk, comment.pk])
    assert client.post(url, {"action": "hide", "reason": "x"}).status_code == 404
    comment.refresh_from_db()
    assert comment.hidden is False


def test_a_user_reports_a_comment_once_and_staff_hide_it_from_the_admin_queue(
    client, sample_catalogue, user, other_user, carol, staff_user, publish, make_deck
):
    decklist = publish(user)
    make_deck(other_user)
    comment = services.comment_post(decklist=decklist, author=other_user, text="spam spam")
    client.force_login(carol)
    url = reverse("decklists:comment-report", args=[decklist.pk, comment.pk])
    client.post(url, {"reason": "spam"})
    client.post(url, {"reason": "spam again"})
    assert Report.objects.count() == 1
    client.force_login(staff_user)
    queue = client.get(reverse("admin:decklists_report_changelist") + "?state=open")
    assert queue.status_code == 200 and "spam spam" in queue.content.decode()
    report = Report.objects.get()
    asked = client.post(
        reverse("admin:decklists_report_changelist"),
        {"action": "hide_items", "_selected_action": [report.pk]},
    )
    assert asked.status_code == 200 and "Reason" in asked.content.decode()  # asks why first
    done = client.post(
        reverse("admin:decklists_report_changelist"),
        {"action": "hide_items", "_selected_action": [report.pk], "apply": "1", "reason": "spam"},
    )
    assert done.status_code == 302
    comment.refresh_from_db()
    report.refresh_from_db()
    assert comment.hidden and report.outcome == "hidden" and report.resolved_by == staff_user
    assert ModerationLog.objects.get().actor == staff_user


def test_new_accounts_may_post_fewer_comments_than_older_ones(
    client, sample_catalogue, user, other_user, publish, make_deck, settings
):
    from rest_framework.throttling import ScopedRateThrottle

    ScopedRateThrottle.THROTTLE_RATES = {
        **ScopedRateThrottle.THROTTLE_RATES,
        "comment": "3/hour",
        "comment_new": "1/hour",
    }
    decklist = publish(user)
    make_deck(other_user)
    type(other_user).objects.filter(pk=user.pk).update(
        date_joined=timezone.now() - timedelta(days=30)
    )
    url = reverse("decklists:comment", args=[decklist.pk])
    client.force_login(other_user)  # joined today: new
    assert client.post(url, {"text": "one"}).status_code == 302
    assert client.post(url, {"text": "two"}).status_code == 429
    client.force_login(user)  # joined a month ago
    codes = [client.post(url, {"text": f"c{i}"}).status_code for i in range(4)]
    assert codes == [302, 302, 302, 429]
