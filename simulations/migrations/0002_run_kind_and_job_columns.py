"""A run's simulation slug moves to `simulation`, and `kind` says what kind of run it is (a
goldfish run, a tool's background run, a comparison, a tuning run): read from the stored
inputs (`inputs["experiment"]`) and, for the others, from whether the slug is a tool's
background run of a registered game. `reaps` is the job system's `attempts`; a running
chunk's own progress gets a column (`chunk_progress`)."""

from django.db import migrations, models

from validation.registry import registry


def _tool_slugs() -> set[str]:
    """The slugs of the tools' background runs of the registered games (the registry is
    plain Python: what it says today is what the slugs meant when the runs were made)."""
    return {
        tool.background.slug for game in registry for tool in game.tools if tool.background
    }


def kinds_from_inputs(apps, schema_editor):
    SimulationRun = apps.get_model("simulations", "SimulationRun")
    db = schema_editor.connection.alias
    runs = SimulationRun.objects.using(db)
    runs.filter(inputs__experiment="compare").update(kind="comparison")
    runs.filter(inputs__experiment="tune").update(kind="tuning")
    runs.filter(kind="goldfish", simulation__in=_tool_slugs()).update(kind="tool")


class Migration(migrations.Migration):
    dependencies = [("simulations", "0001_initial")]

    operations = [
        migrations.RenameField("simulationrun", "kind", "simulation"),
        migrations.RenameField("simulationrun", "reaps", "attempts"),
        migrations.AddField(
            model_name="simulationrun",
            name="kind",
            field=models.CharField(
                choices=[
                    ("goldfish", "Goldfish run"),
                    ("tool", "Tool's background run"),
                    ("comparison", "Comparison"),
                    ("tuning", "Tuning run"),
                ],
                default="goldfish",
                max_length=12,
            ),
        ),
        migrations.AddField(
            model_name="simulationrun",
            name="chunk_progress",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.RunPython(kinds_from_inputs, migrations.RunPython.noop),
    ]
