"""A deck's exports: the list as Markdown and BBCode, a Tabletop Simulator saved object,
printable proxies, a tournament sheet and a unit sheet (registered as formats of
`decks.exports` by `formats`, when the app is ready).

Every export reads a saved version and the catalogue's cards it names (one query), and knows
no game: the card size, the sections laid out rather than drawn as a deck and the sections a
unit sheet lists come from the game's definition (`GameDef.card_size_mm`, `unit_sheet`,
`SectionSpec.laid_out`), what a card shows from its face (catalogue/card_images.py).
"""

from .forums import as_bbcode, as_markdown
from .lines import Line, version_lines
from .pdf import PAPERS
from .proxies import BLEEDS, PROXIES_MAX_PAGES, as_proxies, proxies_pages
from .sheets import as_sheet, as_unit_sheet
from .tts import as_tts

__all__ = [
    "BLEEDS",
    "PAPERS",
    "PROXIES_MAX_PAGES",
    "Line",
    "as_bbcode",
    "as_markdown",
    "as_proxies",
    "as_sheet",
    "as_tts",
    "as_unit_sheet",
    "proxies_pages",
    "version_lines",
]
