"""Published decklists: frozen snapshots of players' decks, and what the community does
with them (likes, favourites, comments, follows, reports and moderation).

A `Decklist` is a copy of one version of a deck at the moment its owner published it: its
own list (`list_text`, `entries`, `options`), name and description (Markdown, stored raw
and rendered sanitised), separate from the deck, which goes on changing. `precedent` is
the decklist it derives from: the author's earlier publication of the same deck (a
republication, "v2 of …") or the decklist the deck was copied from. `signature` is a hash
of the sorted list: two decklists with the same signature hold the same cards.

Counters (`likes`, `favourites`, `comments`) are denormalised on the decklist and moved
with `F()` expressions as rows come and go; `score` orders the popular lists (see
`decklists.services.popularity`). A decklist's cards are also rows of `DecklistCard` (card,
decklist, count), indexed by card, so that a search by cards included and excluded reads
an index instead of every list.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse

from cardsite.models import ChunkedJob, JobStatus
from catalogue.models import format_name
from decks.lists import SavedList
from decks.models import stored_verdict
from validation.runner import Report as Verdict

from .listing_cache import listings_changed

#: The longest description and comment a user may write (characters of Markdown).
DESCRIPTION_MAX = 5000
COMMENT_MAX = 5000
#: The longest moderation or report reason.
REASON_MAX = 500
#: The condition of the lists' partial indexes: a decklist anyone may read.
LISTED = Q(hidden=False)


class DecklistQuerySet(models.QuerySet):
    """Every read of decklists goes through one of these scopes, applied in the query."""

    def listed(self) -> DecklistQuerySet:
        """The decklists anyone may read: not hidden by a moderator."""
        return self.filter(hidden=False)

    def visible_to(self, user) -> DecklistQuerySet:
        """Staff read every decklist (moderation); the others the listed ones."""
        if getattr(user, "is_staff", False):
            return self.all()
        return self.listed()

    def update(self, **kwargs) -> int:
        """Every change of decklists' rows (counters, score, hidden) gives the cached lists
        a new generation once it commits (`listing_cache`)."""
        n = super().update(**kwargs)
        if n:
            listings_changed()
        return n


class DecklistSet(models.Model):
    """Decks meant to be played together, published at once (the sides of a match, a
    campaign's lists): each is a decklist of the set."""

    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="decklist_sets"
    )
    name = models.CharField(max_length=200)
    description = models.TextField(blank=True, max_length=DESCRIPTION_MAX)
    description_html = models.TextField(blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.name


class Decklist(models.Model):
    """A published snapshot of a deck (see the module docstring)."""

    class Derivation(models.TextChoices):
        VERSION = "version", "a later version of"
        COPY = "copy", "derived from"

    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="decklists"
    )
    game = models.ForeignKey("catalogue.Game", on_delete=models.PROTECT, related_name="+")
    format = models.SlugField(max_length=40)
    name = models.CharField(max_length=200)
    description = models.TextField(blank=True, max_length=DESCRIPTION_MAX)
    description_html = models.TextField(blank=True, editable=False)
    deck = models.ForeignKey(
        "decks.Deck", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    deck_version = models.ForeignKey(
        "decks.DeckVersion", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    #: The deck's version number when it was published.
    version_number = models.PositiveIntegerField(default=1)
    #: 1 for a deck's first publication, 2 for its second ("v2 of …"), and so on.
    revision = models.PositiveIntegerField(default=1)
    precedent = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="derivatives"
    )
    derivation = models.CharField(max_length=10, choices=Derivation.choices, blank=True)
    set = models.ForeignKey(
        DecklistSet, on_delete=models.SET_NULL, null=True, blank=True, related_name="decklists"
    )
    list_text = models.TextField()
    entries = models.JSONField(default=list)
    options = models.JSONField(default=dict, blank=True)
    signature = models.CharField(max_length=64)
    #: The list's faction (its leader's, else the faction most of its cards are) and its
    #: leader (the one card of a section that holds exactly one), "" for none.
    faction = models.CharField(max_length=40, blank=True)
    leader = models.CharField(max_length=200, blank=True)
    #: The rules' report when it was published (legal: an illegal list is refused) and the
    #: rule set it was checked under ("" for the bare format).
    published_report = models.JSONField(default=dict, blank=True)
    published_code = models.CharField(max_length=40, blank=True)
    likes = models.PositiveIntegerField(default=0)
    favourites = models.PositiveIntegerField(default=0)
    comments = models.PositiveIntegerField(default=0)
    score = models.FloatField(default=0)
    #: The score's time part: the day of publication (days since 1970) over the half-life.
    freshness = models.FloatField(default=0)
    hidden = models.BooleanField(default=False)
    hidden_reason = models.CharField(max_length=REASON_MAX, blank=True)
    published_at = models.DateTimeField()

    objects = DecklistQuerySet.as_manager()

    class Meta:
        ordering = ["-published_at", "-id"]
        indexes = [
            models.Index(fields=["-score", "-id"], condition=LISTED, name="decklist_score"),
            models.Index(
                fields=["game", "-score", "-id"], condition=LISTED, name="decklist_game_score"
            ),
            models.Index(
                fields=["-published_at", "-id"], condition=LISTED, name="decklist_published"
            ),
            models.Index(
                fields=["game", "-published_at", "-id"],
                condition=LISTED,
                name="decklist_game_published",
            ),
            models.Index(fields=["-likes", "-id"], condition=LISTED, name="decklist_likes"),
            models.Index(
                fields=["-favourites", "-id"], condition=LISTED, name="decklist_favourites"
            ),
            models.Index(fields=["-comments", "-id"], condition=LISTED, name="decklist_comments"),
            models.Index(fields=["author", "-published_at"], name="decklist_author"),
            models.Index(fields=["signature", "published_at"], name="decklist_signature"),
            models.Index(fields=["deck", "-revision"], name="decklist_deck"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def format_name(self) -> str:
        """The format's name as its game spells it ("Standard"); the slug of a format the
        game no longer has."""
        return format_name(self.game.slug, self.format)

    def get_absolute_url(self) -> str:
        return reverse("decklists:detail", args=[self.pk])

    @property
    def verdict(self) -> Verdict | None:
        """The verdict it was published with (`published_report` read back by
        `Report.from_dict`); None when none is stored."""
        return stored_verdict(self.published_report)

    def saved_list(self) -> SavedList:
        """The published list as the verdict check reads it, in its own format (another
        format's check: `.in_format(fmt)`); no owner's collection counts for it."""
        return SavedList.stored(
            game=self.game, format=self.format, entries=self.entries, options=self.options
        )

    # What the deck exports (decks.selectors.deck_export, the printable sheet) read of a
    # deck and its version: a decklist is both.
    @property
    def number(self) -> int:
        """The revision, read as a version number by the exports."""
        return self.revision

    @property
    def owner(self):
        return self.author

    @property
    def created_at(self):
        return self.published_at

    @property
    def definition(self):
        return self.game.definition


class DecklistCard(models.Model):
    """`count` copies of a card in a decklist (all its sections together)."""

    decklist = models.ForeignKey(Decklist, on_delete=models.CASCADE, related_name="cards")
    card = models.ForeignKey("catalogue.Card", on_delete=models.CASCADE, related_name="+")
    count = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["decklist", "card"], name="decklistcard_once"),
        ]
        # The search's index: the decklists holding a card, at least so many copies.
        indexes = [models.Index(fields=["card", "count", "decklist"], name="decklistcard_card")]

    def __str__(self) -> str:
        return f"{self.count} × {self.card_id} in {self.decklist_id}"


class DecklistLegality(models.Model):
    """A decklist's verdict in one format of its game under the rule set in force when it
    was checked (`rule_set_code`, "" for the bare format): re-checked when a rule set of the
    format changes or takes effect. `errors` holds the first problems' messages."""

    decklist = models.ForeignKey(Decklist, on_delete=models.CASCADE, related_name="legality")
    format = models.SlugField(max_length=40)
    legal = models.BooleanField()
    rule_set_code = models.CharField(max_length=40, blank=True)
    errors = models.JSONField(default=list, blank=True)
    checked_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["decklist", "format"], name="decklistlegality_once"),
        ]
        verbose_name_plural = "decklist legality"

    def __str__(self) -> str:
        return f"{self.decklist_id} in {self.format}: {'legal' if self.legal else 'not legal'}"


class LegalityJob(ChunkedJob):
    """The re-check of a game's decklists' legality today, a chunked job of the site's one
    job system (cardsite/jobs.py; its kind in decklists/services/legality_jobs.py): in one
    format, or in every format of the game (`format` ""), of every decklist of the game or
    (`only_due`) of those whose row in `format` is missing or not today's. `chunks` holds
    each chunk's first and last decklist id, `chunk_results` each finished chunk's count,
    `checked` their sum."""

    JOB_KIND = "decklists.recheck"
    Status = JobStatus

    game = models.ForeignKey("catalogue.Game", on_delete=models.CASCADE, related_name="+")
    format = models.SlugField(max_length=40, blank=True, default="")
    only_due = models.BooleanField(default=False)
    reason = models.CharField(max_length=200)
    total = models.PositiveIntegerField(default=0)
    checked = models.PositiveIntegerField(default=0)
    chunks = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["status", "heartbeat_at"], name="legalityjob_status")]

    def __str__(self) -> str:
        return f"decklist re-check #{self.pk} of {self.format or 'every format'} ({self.status})"


class DeckOrigin(models.Model):
    """The decklist a deck was copied from ("copy to my decks"): a publication of that deck
    is derived from it."""

    deck = models.OneToOneField("decks.Deck", on_delete=models.CASCADE, related_name="+")
    decklist = models.ForeignKey(Decklist, on_delete=models.SET_NULL, null=True, related_name="+")

    def __str__(self) -> str:
        return f"deck {self.deck_id} from decklist {self.decklist_id}"


class Author(models.Model):
    """A user as an author of decklists: their reputation (+1 a like, +5 a favourite of
    one of their decklists by someone else), moved with F() expressions."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    reputation = models.IntegerField(default=0)
    followers = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.user_id}: {self.reputation}"


class _Mark(models.Model):
    """A user's mark on a decklist, at most one a user and decklist (the constraint
    `<model>_once`); `verb` is what its text says the user does."""

    verb: str
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    decklist = models.ForeignKey(Decklist, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        abstract = True
        constraints = [models.UniqueConstraint(fields=["decklist", "user"], name="%(class)s_once")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.verb} {self.decklist_id}"


class Like(_Mark):
    verb = "likes"

    class Meta(_Mark.Meta):
        indexes = [models.Index(fields=["user", "decklist"], name="like_user")]


class Favourite(_Mark):
    verb = "favours"

    class Meta(_Mark.Meta):
        indexes = [models.Index(fields=["user", "-created_at"], name="favourite_user")]


class Follow(models.Model):
    """`follower` is told when `author` publishes a decklist."""

    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["author", "follower"], name="follow_once"),
            models.CheckConstraint(
                condition=~Q(author=models.F("follower")), name="follow_not_self"
            ),
        ]
        indexes = [models.Index(fields=["follower"], name="follow_follower")]

    def __str__(self) -> str:
        return f"{self.follower_id} follows {self.author_id}"


class Comment(models.Model):
    """A comment on a decklist, in Markdown (`text` as written, `html` rendered and
    sanitised); `reply_to` the comment it answers. Hidden by the decklist's author or a
    moderator, with a reason."""

    decklist = models.ForeignKey(Decklist, on_delete=models.CASCADE, related_name="+")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    reply_to = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    text = models.TextField(max_length=COMMENT_MAX)
    html = models.TextField(editable=False)
    hidden = models.BooleanField(default=False)
    hidden_reason = models.CharField(max_length=REASON_MAX, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["decklist", "created_at", "id"], name="comment_decklist")]

    def __str__(self) -> str:
        return f"comment {self.pk} on {self.decklist_id}"


class Report(models.Model):
    """A user's report of a decklist or a comment (spam, abuse), once per user and item;
    open until a moderator acts on the item or dismisses it (`resolved_at`, `outcome`)."""

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    decklist = models.ForeignKey(
        Decklist, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    comment = models.ForeignKey(
        Comment, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    reason = models.CharField(max_length=REASON_MAX)
    created_at = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    outcome = models.CharField(max_length=20, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(decklist__isnull=False, comment__isnull=True)
                | Q(decklist__isnull=True, comment__isnull=False),
                name="report_one_target",
            ),
            models.UniqueConstraint(
                fields=["reporter", "decklist"],
                condition=Q(decklist__isnull=False),
                name="report_decklist_once",
            ),
            models.UniqueConstraint(
                fields=["reporter", "comment"],
                condition=Q(comment__isnull=False),
                name="report_comment_once",
            ),
        ]
        indexes = [
            models.Index(
                fields=["created_at"], condition=Q(resolved_at__isnull=True), name="report_open"
            )
        ]

    def __str__(self) -> str:
        what = f"decklist {self.decklist_id}" if self.decklist_id else f"comment {self.comment_id}"
        return f"report of {what} by {self.reporter_id}"


class ModerationLog(models.Model):
    """One moderation step: who did what to which item, when and why. Kept when the item is
    deleted (`target` names it)."""

    class Action(models.TextChoices):
        HIDE = "hide", "Hidden"
        RESTORE = "restore", "Restored"
        DELETE = "delete", "Deleted"
        DISMISS = "dismiss", "Reports dismissed"

    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    action = models.CharField(max_length=10, choices=Action.choices)
    target_kind = models.CharField(max_length=10)
    target_id = models.PositiveBigIntegerField()
    target = models.CharField(max_length=200)
    reason = models.CharField(max_length=REASON_MAX)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["target_kind", "target_id"], name="moderation_target")]

    def __str__(self) -> str:
        return f"{self.get_action_display()} {self.target_kind} {self.target_id}"
