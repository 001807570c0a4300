from django.apps import AppConfig
from django.urls import reverse

from cardsite import hooks
from catalogue import hooks as catalogue_hooks
from notices import subjects
from notices.subjects import DECK


def _deck_page(pk: int) -> str:
    return reverse("decks:detail", args=[pk])


class DecksConfig(AppConfig):
    name = "decks"
    verbose_name = "Decks"

    def ready(self):
        # Imported here: the listeners import the models, which Django loads after the app
        # configs. (They import the re-check's kind of job too, which registers itself with
        # the site's job system: decks.verdicts.recheck_jobs.)
        from . import listeners

        catalogue_hooks.CATALOGUE_CHANGED.register(listeners.revalidate_after_catalogue_change)
        hooks.PROFILE_CONTEXT.register(listeners.profile_decks)
        catalogue_hooks.RULE_SET_CHANGED.register(listeners.recheck_after_rule_set_change)
        # A rule set file's preview: what it would do to the saved decks' verdicts.
        catalogue_hooks.RULE_SET_PREVIEW.register(listeners.rule_set_preview)
        # Before a rule set is deleted, inside the deleting transaction (the hook says so):
        # the one re-check its deletion needs, sent once it commits, and the pinned decks'
        # owners told (catalogue.rulesets.rule_set_delete).
        catalogue_hooks.RULE_SET_DELETING.register(listeners.pins_released)
        # A notice about a deck links to the deck's page.
        subjects.register(DECK, _deck_page)
