"""Play tools of the rules core: calculators and goldfish simulators that take plain
`CardFacts` and answer with JSON-serialisable dicts (no Django).

- `combat_odds`: Tactical Assault exact combat odds and a close-combat Monte Carlo.
- `crew_economy`: Red Code crew schedule search, per-class table and visual field.
- `red_mittens`: Red Mittens goldfish against a passive opponent.
"""
