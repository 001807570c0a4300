"""Decks and their versions: a list read and checked (`lists/`), stored verdicts and their
re-checks (`verdicts/`), the services that write decks (`services/`), the builder
(`builder/`), the deck pages and API, and the registry of export formats."""
