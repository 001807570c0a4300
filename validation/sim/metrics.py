"""What a goldfish measures: its metrics, declared by the game, read by the site.

A `Metric` names one figure of a goldfish run that a player may compare between decks:

- `key` (stable, in addresses and the API), `label` (what the player reads), `unit`
  ("share of games", "turn", "cards"), `better` ("higher" or "lower": which way is good)
  and `proportion` (a share of games, shown in percentage points, or a mean, shown in its
  unit);
- `read(summary) -> float | None`: the metric's value from a finished run's summary (None
  when the run cannot say, e.g. a metric of turn 8 in a run of 6 turns);
- `min_turns`: the fewest turns a run must play for the metric to mean something;
- `margin`: the equivalence margin of a paired comparison, a difference too small to matter
  (in the metric's own terms: a share for a proportion); None takes the default, one
  percentage point for a share of games (`SHARE_MARGIN`) and 0.05 of the unit for a mean
  (`MEAN_MARGIN`).

A goldfish that can play two decks on common random numbers (`Goldfish.play_pair`) gives
every game's value of each metric (an integer per game: 0/1 for a proportion), from which
`validation.sim.paired` keeps paired sums. Web apps never name a metric: they list the
goldfish's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

HIGHER = "higher"
LOWER = "lower"
#: The default equivalence margins: one percentage point of a share, 0.05 of a mean's unit.
SHARE_MARGIN = 0.01
MEAN_MARGIN = 0.05


@dataclass(frozen=True)
class Metric:
    key: str
    label: str
    unit: str
    better: str
    proportion: bool
    read: Callable[[Mapping[str, Any]], float | None]
    help: str = ""
    min_turns: int = 0
    margin: float | None = None

    def __post_init__(self) -> None:
        if self.better not in (HIGHER, LOWER):
            raise ValueError(f"metric {self.key}: better is 'higher' or 'lower'")

    def value(self, summary: Mapping[str, Any] | None) -> float | None:
        """The metric's value in a run's summary, None when it has none."""
        if not summary:
            return None
        if self.min_turns and int(summary.get("turns") or 0) < self.min_turns:
            return None
        try:
            value = self.read(summary)
        except (KeyError, IndexError, TypeError):
            return None
        return None if value is None else float(value)

    def applies(self, params: Mapping[str, Any]) -> bool:
        """Whether a run with these parameters measures the metric (enough turns)."""
        turns = params.get("turns")
        return not self.min_turns or turns is None or int(turns) >= self.min_turns

    def format(self, value: float | None) -> str:
        """A value as the player reads it: a share in percent, a mean with two decimals."""
        if value is None:
            return "—"
        return f"{value * 100:.1f}%" if self.proportion else f"{value:.2f}"

    def format_difference(self, value: float | None) -> str:
        """A difference: percentage points for a share, the unit's for a mean (signed)."""
        if value is None:
            return "—"
        if self.proportion:
            return f"{value * 100:+.1f} points"
        return f"{value:+.2f} {self.unit}"

    def format_interval(self, low: float, high: float) -> str:
        """An interval of differences, the unit said once: "-5.1 to -0.9 points"."""
        if self.proportion:
            return f"{low * 100:+.1f} to {high * 100:+.1f} points"
        return f"{low:+.2f} to {high:+.2f} {self.unit}"

    def format_amount(self, value: float) -> str:
        """A difference's size, unsigned: "3.0 points", "0.25 turns"."""
        if self.proportion:
            return f"{abs(value) * 100:.1f} points"
        return f"{abs(value):.2f} {self.unit}"

    @property
    def equivalence_margin(self) -> float:
        """The margin within which two decks count as equivalent at this metric."""
        if self.margin is not None:
            return float(self.margin)
        return SHARE_MARGIN if self.proportion else MEAN_MARGIN

    def improves(self, difference: float) -> bool:
        """Whether B − A = `difference` is better for B."""
        return difference > 0 if self.better == HIGHER else difference < 0

    def as_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "label": self.label,
            "unit": self.unit,
            "better": self.better,
            "proportion": self.proportion,
            "help": self.help,
        }


def find(metrics: Sequence[Metric], key: str) -> Metric | None:
    return next((m for m in metrics if m.key == key), None)


def named(metrics: Sequence[Metric], key: str) -> Metric:
    """The metric `key` of `metrics` (a run's stored choice); KeyError when it has none."""
    found = find(metrics, key)
    if found is None:
        raise KeyError(f"no metric {key!r}")
    return found


def rows(metrics: Sequence[Metric], summary: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """Each metric with its value in `summary` (for a run page), skipping those it lacks."""
    out = []
    for m in metrics:
        value = m.value(summary)
        if value is not None:
            out.append({"metric": m, "value": value, "shown": m.format(value)})
    return out


def comparison_rows(
    metrics: Sequence[Metric],
    summary_a: Mapping[str, Any] | None,
    summary_b: Mapping[str, Any] | None,
) -> list[dict[str, Any]]:
    """Each metric in two runs, with B − A and whether B is better (two separate runs: no
    interval, since their games are not paired)."""
    out = []
    for m in metrics:
        a, b = m.value(summary_a), m.value(summary_b)
        if a is None and b is None:
            continue
        diff = b - a if a is not None and b is not None else None
        out.append(
            {
                "metric": m,
                "a": m.format(a),
                "b": m.format(b),
                "difference": m.format_difference(diff),
                "b_better": diff is not None and diff != 0 and m.improves(diff),
                "b_worse": diff is not None and diff != 0 and not m.improves(diff),
            }
        )
    return out
