from django.apps import AppConfig


class SimulationsConfig(AppConfig):
    """Goldfish simulation runs: a registry of simulation kinds, the SimulationRun model, the
    chunked Celery tasks that play them, and their pages and API."""

    name = "simulations"
    verbose_name = "Simulations"

    def ready(self) -> None:
        # The built-in kinds (REDLINE and Hex Skirmish goldfish). Other apps register theirs
        # from their own AppConfig.ready() with simulations.kinds.register().
        from . import builtin_kinds

        builtin_kinds.register_builtin_kinds()
