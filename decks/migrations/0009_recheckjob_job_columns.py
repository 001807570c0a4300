"""A re-check job takes the columns of every chunked job (cardsite.models.ChunkedJob): what
was `chunks_done` (each finished chunk's counts, with its seconds and worker) becomes
`chunk_results` (the counts) and `timings` (the seconds and workers); `chunks_done` is now
how many chunks are done, `n_chunks` how many there are; `sweeps` is `attempts`; a running
chunk holds a lease (`chunk_started`) and says its progress (`chunk_progress`)."""

from django.db import migrations, models

COUNTS = ("checked", "changed", "notices")


def split_chunk_results(apps, schema_editor):
    RecheckJob = apps.get_model("decks", "RecheckJob")
    db = schema_editor.connection.alias
    for job in RecheckJob.objects.using(db).only("pk", "chunks", "chunk_results", "timings"):
        results, timings = {}, dict(job.timings or {})
        for key, done in (job.chunk_results or {}).items():
            results[key] = {k: done[k] for k in COUNTS if k in done}
            if "seconds" in done or "worker" in done:
                timings.setdefault("chunks", {})[key] = {
                    "seconds": done.get("seconds", 0),
                    "worker": done.get("worker", ""),
                }
        job.chunk_results = results
        job.timings = timings
        job.n_chunks = len(job.chunks or [])
        job.chunks_done = len(results)
        job.save(update_fields=["chunk_results", "timings", "n_chunks", "chunks_done"])


def join_chunk_results(apps, schema_editor):
    RecheckJob = apps.get_model("decks", "RecheckJob")
    db = schema_editor.connection.alias
    for job in RecheckJob.objects.using(db).only("pk", "chunk_results", "timings"):
        timed = (job.timings or {}).get("chunks", {})
        job.chunk_results = {
            key: {**done, **timed.get(key, {})} for key, done in (job.chunk_results or {}).items()
        }
        job.save(update_fields=["chunk_results"])


class Migration(migrations.Migration):
    dependencies = [("decks", "0008_deck_upcoming")]

    operations = [
        migrations.RenameField("recheckjob", "chunks_done", "chunk_results"),
        migrations.RenameField("recheckjob", "sweeps", "attempts"),
        migrations.AddField(
            model_name="recheckjob",
            name="n_chunks",
            field=models.PositiveIntegerField(default=1),
        ),
        migrations.AddField(
            model_name="recheckjob",
            name="chunks_done",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="recheckjob",
            name="chunk_started",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AddField(
            model_name="recheckjob",
            name="chunk_progress",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AddField(
            model_name="recheckjob",
            name="timings",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.RunPython(split_chunk_results, join_chunk_results),
    ]
