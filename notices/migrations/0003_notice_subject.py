"""A notice names its subject generically (`subject_kind`, `subject_id`) instead of a
foreign key into the decks app: the new columns, filled from the rows as they are (a deck's
notice from its deck; a community notice from its key, "published:<decklist>",
"comment:<comment>", "reply:<comment>", "mention:<comment>"). The old constraints go in
0004 and the foreign key in 0005, each in its own transaction (backwards, 0005 fills the
deck back from the subject before 0004 puts back the constraints that read it)."""

from django.db import migrations, models
from django.db.models import F

#: A community notice's key prefix -> the kind of its subject (the id follows the colon).
COMMUNITY = {
    "published": "decklist",
    "comment": "comment",
    "reply": "comment",
    "mention": "comment",
}


def subjects_from_rows(apps, schema_editor):
    Notice = apps.get_model("notices", "Notice")
    Notice.objects.filter(deck__isnull=False).update(subject_kind="deck", subject_id=F("deck_id"))
    rows = Notice.objects.filter(deck__isnull=True).values_list("pk", "key")
    for pk, key in rows.iterator(chunk_size=2000):
        prefix, _, rest = key.partition(":")
        kind = COMMUNITY.get(prefix)
        if kind and rest.isdigit():
            Notice.objects.filter(pk=pk).update(subject_kind=kind, subject_id=int(rest))


class Migration(migrations.Migration):
    dependencies = [
        ("notices", "0002_community_notices"),
    ]

    operations = [
        migrations.AddField(
            model_name="notice",
            name="subject_kind",
            field=models.CharField(blank=True, default="", max_length=20),
        ),
        migrations.AddField(
            model_name="notice",
            name="subject_id",
            field=models.BigIntegerField(blank=True, null=True),
        ),
        migrations.RunPython(subjects_from_rows, migrations.RunPython.noop, elidable=False),
    ]
