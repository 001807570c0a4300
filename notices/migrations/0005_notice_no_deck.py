"""The notice's foreign key into the decks app goes: its subject names the deck (filled by
0003). Uniqueness moves with it: once per owner, subject and key (per owner and key for a
notice without a subject). Backwards, the deck is filled back from the subject (a notice
whose deck is gone is dropped, as the foreign key's cascade would have)."""

from django.db import migrations, models
from django.db.models import F


def deck_from_subjects(apps, schema_editor):
    Notice = apps.get_model("notices", "Notice")
    Deck = apps.get_model("decks", "Deck")
    about_decks = Notice.objects.filter(subject_kind="deck")
    about_decks.exclude(subject_id__in=Deck.objects.values("pk")).delete()
    about_decks.update(deck_id=F("subject_id"))


class Migration(migrations.Migration):
    dependencies = [
        ("notices", "0004_notice_drop_deck_constraints"),
    ]

    operations = [
        migrations.RunPython(migrations.RunPython.noop, deck_from_subjects, elidable=False),
        migrations.RemoveField(model_name="notice", name="deck"),
        migrations.AddConstraint(
            model_name="notice",
            constraint=models.UniqueConstraint(
                condition=models.Q(("subject_id__isnull", False)),
                fields=("owner", "subject_kind", "subject_id", "key"),
                name="notice_subject_key_unique",
            ),
        ),
        migrations.AddConstraint(
            model_name="notice",
            constraint=models.UniqueConstraint(
                condition=models.Q(("subject_id__isnull", True)),
                fields=("owner", "key"),
                name="notice_owner_key_unique",
            ),
        ),
        migrations.AddIndex(
            model_name="notice",
            index=models.Index(fields=["subject_kind", "subject_id"], name="notice_subject"),
        ),
    ]
