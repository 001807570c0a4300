from django.apps import AppConfig


class SimulationsConfig(AppConfig):
    """Goldfish simulation runs: the simulation kinds (read from the games' capabilities),
    the SimulationRun model, the chunked Celery tasks that play them, and their pages and
    API."""

    name = "simulations"
    verbose_name = "Simulations"
