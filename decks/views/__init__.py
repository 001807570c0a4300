"""Deck pages, one module per resource: checking a list (check), lists of decks (browse),
creating one (create), a deck's page and diffs (detail), its downloads (downloads), the
owner's writes (owner), a sample hand (hand), a card added from its page (card_to_deck).

Every read of a deck is scoped in the query (lookups): `Deck.objects.visible_to(user)` for
pages by id (an unlisted deck of someone else is not found there), `.shared(token)` for share
links, `.owned_by(user)` for anything that writes.
"""
