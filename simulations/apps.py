from django.apps import AppConfig


class SimulationsConfig(AppConfig):
    """Goldfish simulation runs: the simulation kinds (read from the games' capabilities),
    the SimulationRun model and its kinds of chunked job (played by the site's one job
    system), and their pages and API."""

    name = "simulations"
    verbose_name = "Simulations"

    def ready(self) -> None:
        # Imported here: the kinds of job (which register themselves with the site's job
        # system) import the models, which Django loads after the app configs.
        from . import jobs  # noqa: F401
