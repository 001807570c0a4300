"""Play pages over the games' own objects: a page (and an API route) for any game's tool, a
goldfish page for any game with a goldfish, and campaigns for any game with campaign rules
(the Django side of the game packages)."""
