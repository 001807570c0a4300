"""What a player owns (whole products and loose cards) set against their decks: built decks, availability, wants, and the collection's CSV import and export."""
