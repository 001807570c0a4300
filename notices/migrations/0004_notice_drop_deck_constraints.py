"""The uniqueness that read the notice's deck goes (0005 puts it back over the subject)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("notices", "0003_notice_subject"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="notice", name="notice_deck_key_unique"),
        migrations.RemoveConstraint(model_name="notice", name="notice_owner_key_unique"),
    ]
