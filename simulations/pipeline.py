"""The goldfish pipeline, once for every caller: a run on a worker (`simulations.services`)
and a game played in the request (`play.services`) go through the same steps.

1. `clean_goldfish_params`: the parameters parsed and bounded against their specs
   (`validation.params.clean_params`), then the goldfish's own checks across fields.
2. `build_inputs`: the plain inputs, read from the catalogue once: a deck goldfish's from
   the sections it reads of a deck version (`deck_inputs`), a deckless one's from its
   parameters and the catalogue's cards of the kinds it reads.
3. `results`: the chunks' statistics (each the goldfish's own type,
   validation/sim/stats.py) merged (sufficient statistics add up exactly) and summarised,
   the merged statistics written as JSON; `play_inline` plays one chunk and returns its
   results.
4. `shown`: what a page shows of a summary: the key figures and the rendered charts.

No game is named here: each step calls the `Goldfish` (validation/capabilities.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from catalogue.services import cards_by_kind
from decks.selectors import version_entries
from validation.capabilities import Goldfish
from validation.params import ParamsInvalid, ParamSpec, clean_params
from validation.sim.metrics import rows as metric_rows
from validation.sim.stats import S

from . import charts


class InputsMissing(ValueError):
    """A goldfish that has neither a deck's nor its parameters' way to its inputs."""


def clean_goldfish_params(
    goldfish: Goldfish[Any],
    raw: Mapping[str, Any] | None,
    *,
    specs: Sequence[ParamSpec] | None = None,
    card_choices: Mapping[str, Sequence[str]] | None = None,
    allow_unknown: bool = False,
    check: bool = True,
) -> dict[str, Any]:
    """The goldfish's parameters (or `specs`, its own with others, such as a page's seed)
    cleaned, then, with `check`, its `check_params` across fields. Raises
    `validation.params.ParamsInvalid` with one message per bad field."""
    clean = clean_params(
        goldfish.params if specs is None else specs,
        raw,
        card_choices=card_choices,
        allow_unknown=allow_unknown,
        label=goldfish.label,
    )
    errors = goldfish.check_params(clean) if check else {}
    if errors:
        raise ParamsInvalid(errors)
    return clean


def deck_inputs(goldfish: Goldfish[Any], deck_version) -> dict[str, Any]:
    """A deck goldfish's inputs: the sections it reads of `deck_version` as rules-core
    entries (one query) handed to its `prepare`. InputsError (a ValueError) or LookupError
    when the deck cannot be played."""
    if goldfish.prepare is None:
        raise InputsMissing(f"{goldfish.label} plays no deck")
    return goldfish.prepare(version_entries(version=deck_version, sections=goldfish.sections))


def build_inputs(
    goldfish: Goldfish[Any], *, game_slug: str, params: Mapping[str, Any], deck_version=None
) -> dict[str, Any]:
    """The plain inputs of a run, read from the catalogue once: a deck goldfish's from the
    sections it reads of `deck_version` (one query), a deckless one's from its parameters
    and the catalogue's cards of the kinds it reads (one query). InputsError (a ValueError)
    when they cannot be played; InputsMissing when the goldfish has no way to them."""
    if goldfish.prepare is not None:
        return deck_inputs(goldfish, deck_version)
    if goldfish.inputs_from_params is not None:
        cards = cards_by_kind(game_slug=game_slug, kinds=goldfish.reads)
        return goldfish.inputs_from_params(params, cards)
    raise InputsMissing(f"{goldfish.label} needs its inputs")


def results(goldfish: Goldfish[S], parts: Sequence[S], inputs: Mapping[str, Any]) -> dict[str, Any]:
    """The statistics of every chunk merged (as JSON), and their summary."""
    stats = goldfish.merge(parts)
    return {"stats": stats.as_dict(), "summary": goldfish.summarise(stats, inputs)}


def stored_results(
    goldfish: Goldfish[Any], parts: Sequence[Mapping[str, Any]], inputs: Mapping[str, Any]
) -> dict[str, Any]:
    """`results` of chunks stored as JSON, each read back once as the goldfish's statistics."""
    return results(goldfish, [goldfish.read_stats(p) for p in parts], inputs)


def play_inline(
    goldfish: Goldfish[Any], inputs: Mapping[str, Any], params: Mapping[str, Any], seed: int
) -> dict[str, Any]:
    """Play the whole run as one chunk, now; its `results`."""
    return results(goldfish, [goldfish.run_chunk(inputs, params, seed, 0, 1)], inputs)


def shown(
    goldfish: Goldfish[Any],
    summary: Mapping[str, Any] | None,
    *,
    prefix: str = "",
    with_metrics: bool = False,
) -> dict:
    """What a page shows of a summary: `figures` [(label, text)] and `charts`, each its
    `spec` and rendered `svg` (`prefix` keeps ids apart when several share a page).

    A statistic is one figure: the goldfish's metrics are its figures of record (what
    comparisons and the tuner read), and its key figures never restate one. A page that
    lists the metrics in a table of their own (a run's page) takes the key figures alone;
    `with_metrics` puts each metric's figure first for a page that has no such table."""
    if not summary:
        return {"figures": [], "charts": []}
    figures = list(goldfish.key_figures(summary))
    if with_metrics:
        metrics = metric_rows(goldfish.metrics, summary)
        figures = [(r["metric"].label, r["shown"]) for r in metrics] + figures
    return {
        "figures": figures,
        "charts": [
            {"spec": s, "svg": charts.render(s, prefix=prefix)} for s in goldfish.charts(summary)
        ],
    }
