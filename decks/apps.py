from django.apps import AppConfig


def revalidate_after_catalogue_change(*, game_slug: str) -> None:
    """Saved decks of a game are re-validated in the background once a change to its
    catalogue is committed."""
    from django.db import transaction

    from .tasks import revalidate_game_decks

    transaction.on_commit(lambda: revalidate_game_decks.delay(game_slug))


def profile_decks(user) -> dict:
    """The profile page's list of the user's decks."""
    from .selectors import deck_list_for_owner
    from .verdicts import decks_refresh

    decks = deck_list_for_owner(owner=user)
    decks_refresh(decks)
    return {"decks": decks}


def recheck_after_rule_set_change(*, game_slug: str, format: str, code: str) -> None:
    """Once a change to one of a format's rule sets is committed, a worker re-checks the
    format's saved decks that follow it and those pinned to that rule set, in chunks, and
    tells their owners what changed (decks.verdicts.recheck_jobs)."""
    from django.db import transaction

    from catalogue.models import RuleSet

    from .tasks import recheck_start

    if not RuleSet.objects.filter(game__slug=game_slug, format=format, code=code).exists():
        # Deleted: the deletion started its own re-check (unpin_decks_of_deleted_rule_set).
        return
    reason = f"rule set {code} changed"
    transaction.on_commit(lambda: recheck_start.delay(game_slug, format, code, reason))


def unpin_decks_of_deleted_rule_set(sender, instance, **kwargs) -> None:
    """A rule set about to be deleted: the one re-check of its format starts (once the
    delete commits); its pinned decks fall back to following their format (the foreign key
    is set to null), and the re-check tells each of their owners once."""
    from .verdicts.recheck_jobs import pins_released

    pins_released(rule_set=instance)


class DecksConfig(AppConfig):
    name = "decks"
    verbose_name = "Decks"

    def ready(self):
        from django.db.models.signals import pre_delete

        from cardsite import hooks

        hooks.register("catalogue_changed", revalidate_after_catalogue_change)
        hooks.register("profile_context", profile_decks)
        hooks.register("rule_set_changed", recheck_after_rule_set_change)
        pre_delete.connect(
            unpin_decks_of_deleted_rule_set,
            sender="catalogue.RuleSet",
            dispatch_uid="decks-unpin-deleted-rule-set",
        )
