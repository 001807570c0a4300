"""What other apps may use of the tabletop app (an import-linter contract keeps them to this
module): what a deck taken to the table keeps, for the play app's table page. The export
formats are reached through the decks app's registry (`decks.exports.FORMATS`), never
imported."""

from .table import KEPT_EXPORTS, deck_tables, table_cards, table_documents

__all__ = ["KEPT_EXPORTS", "deck_tables", "table_cards", "table_documents"]
