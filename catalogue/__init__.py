"""The catalogue of every game: games, expansions, cards and printings, rule sets; the admin
that enters them, the all-or-nothing expansion and rule set file imports, the search
language, the browse pages and the read-only card API."""
