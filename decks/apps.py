from django.apps import AppConfig

from cardsite import hooks


class DecksConfig(AppConfig):
    name = "decks"
    verbose_name = "Decks"

    def ready(self):
        # Imported here: the listeners import the models, which Django loads after the app
        # configs. (They import the re-check's kind of job too, which registers itself with
        # the site's job system: decks.verdicts.recheck_jobs.)
        from . import listeners

        hooks.register("catalogue_changed", listeners.revalidate_after_catalogue_change)
        hooks.register("profile_context", listeners.profile_decks)
        hooks.register("rule_set_changed", listeners.recheck_after_rule_set_change)
        # A rule set file's preview: what it would do to the saved decks' verdicts.
        hooks.register("rule_set_preview", listeners.rule_set_preview)
        # Before a rule set is deleted, in the deleting transaction: the one re-check its
        # deletion needs, and the pinned decks' owners told (catalogue.rulesets.rule_set_delete).
        hooks.register("rule_set_deleting", listeners.pins_released)
