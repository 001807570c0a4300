"""Simulation runs on the workers: the goldfish pipeline, comparisons and tuning as kinds of
the one job system, their pages with charts, the exact odds calculator and the API."""
