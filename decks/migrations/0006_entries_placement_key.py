"""Stored entries name a placed unit's [column, row] `placement` (it was `hex`)."""

from django.db import migrations

BATCH = 500


def _rename(apps, old: str, new: str) -> None:
    DeckVersion = apps.get_model("decks", "DeckVersion")
    changed = []
    for version in DeckVersion.objects.only("pk", "entries").iterator(chunk_size=BATCH):
        entries = version.entries if isinstance(version.entries, list) else []
        touched = False
        for entry in entries:
            if isinstance(entry, dict) and old in entry:
                value = entry.pop(old)
                entry.setdefault(new, value)
                touched = True
        if touched:
            changed.append(version)
        if len(changed) >= BATCH:
            DeckVersion.objects.bulk_update(changed, ["entries"])
            changed = []
    if changed:
        DeckVersion.objects.bulk_update(changed, ["entries"])


def forwards(apps, schema_editor):
    _rename(apps, "hex", "placement")


def backwards(apps, schema_editor):
    _rename(apps, "placement", "hex")


class Migration(migrations.Migration):
    dependencies = [("decks", "0005_recheckjob")]

    operations = [migrations.RunPython(forwards, backwards)]
