"""REDLINE goldfish: one player against an opponent that never acts (the game spec section 1).

``simulate_redline`` plays every game of a chunk at once with numpy arrays of shape
``(..., games)``; ``simulate_redline_reference`` plays the same policy one game at a time in
plain Python (the benchmark's baseline and the cross-check of the tests).

Policy, turn by turn (every game plays all ``T`` turns; a game's win is recorded on the first
turn its win condition holds, and the per-turn figures describe the deck's development as if
play went on):

1. Opening: draw 7. Partial mulligan once with the band ``lo``-``hi`` of resources ``r``
   (``MulliganBand``, 2-4 unless the run says otherwise):
   keep when ``lo <= r <= hi``; when ``r < lo`` put every non-resource card on the bottom and
   draw as many; when ``r > hi`` put ``r - hi`` resources on the bottom (lowest ``provides``
   first) and draw as many.
2. Each turn: draw 1 (turn 1 too, for either player), then the control bonuses of the missions
   controlled at the start of the turn: ``{"recon": n}`` adds to the recon pool,
   ``{"resources": n}`` to this turn's deploy pool.
3. Deploy at most one resource (the highest ``provides`` in hand). The deploy pool is the sum
   of ``provides`` of the deployed resources (all reset, all expended) plus resource bonuses.
4. Deploy efreets, most expensive first (ties: heavier class, then Scouting, then name), as
   many as are affordable while fewer than 5 efreets are in play.
5. Deploy equipment (most expensive first) onto an efreet with a free slot of the
   equipment's type, else a free ``open`` slot (pilots need a ``pilot`` slot).
6. Deploy affordable strategies (resources only), then tactics (resources first, then recon),
   most expensive first.
7. Cards left in hand are "stuck"; then discard to 7 in this order: cards the goldfish cannot
   deploy (generals, missions, critical hits), tactics, strategies, equipment, efreets (most
   expensive first within a kind), and resources last (lowest ``provides`` first).
8. Missions: the efreets in play (heaviest class first, Scouting first within a class) are
   dealt round-robin to the missions not yet controlled, in red-line position order (efreet
   ``k`` goes to the ``k mod u``-th of the ``u`` open missions), so a mission may get a squad.
   Each Scouting efreet sent adds 1 recon (the pool holds at most 6). Each squad rolls
   capture: light 1d6-2, medium 1d6, heavy 1d6+2, combined over the squad as the rulebook's
   "may combine their rolls" allows: every roll that adds to the total, none that would lower
   it (a light's -1 or 0 is left out); it captures when the total reaches the printed capture
   cost plus one per capture token on the mission. A capture
   adds a capture token and razes the opponent's arsenal (60 cards, it never draws) by the
   printed capture cost.
9. Win: razed when the opponent's arsenal is empty (it happens during combat, so it takes
   precedence), else tactical when all 5 missions are controlled at the end of the turn.

Simplifications of the rulebook (the goldfish has no opponent to fight):

* no combat, damage, repairs, critical hits, retreats, entrenchment or mission dials; the
  opponent never deploys, captures or blocks, so controlled missions are never lost and
  capture tokens never lie on a mission still to be captured;
* card text, keywords other than Scouting, general abilities, firebases, mines, Prepared
  Ground, scorched earth/rubble and heroic uniqueness are ignored; equipment, strategies and
  tactics only use up resources and leave the hand;
* the efreet limit is enforced by never deploying a sixth efreet (no scrapping);
* equipment and strategies cannot be paid with recon; unused resources vanish each turn;
* the player's own arsenal must hold at least ``14 + T`` cards, so cards put on the bottom
  by the mulligan are never drawn again and the player never runs out of cards;
* ``SimParams.on_the_play`` has no effect: both players draw on turn 1 (the game spec decision).

The package: `setup` (the deck read, the counts, `Engine`), `vectorised` (the kernel, one
function per phase of a turn) and `reference` (one game at a time).
"""

from __future__ import annotations

from .reference import _one_game_at_a_time
from .setup import (
    BLOCK,
    CLASS_MOD,
    CLASSES,
    DEFAULT_BAND,
    DEFAULT_CAPTURE_COST,
    EFREET,
    EFREET_LIMIT,
    EQUIPMENT,
    HAND_LIMIT,
    KIND,
    OPEN,
    OPENING,
    PILOT,
    RECON_MAX,
    RED_LINE,
    RESOURCE,
    SLOTS,
    STRATEGY,
    TACTIC,
    ChunkPlay,
    Engine,
    MulliganBand,
    default_missions,
)
from .setup import _Chunk as _Chunk
from .setup import _empty_counts as _empty_counts
from .setup import _Setup as _Setup
from .setup import _setup as _setup
from .vectorised import _deploy_efreets as _deploy_efreets
from .vectorised import _deploy_equipment as _deploy_equipment
from .vectorised import _deploy_resource as _deploy_resource
from .vectorised import _deploy_strategies_and_tactics as _deploy_strategies_and_tactics
from .vectorised import _discard_to_limit as _discard_to_limit
from .vectorised import _draw_and_bonuses as _draw_and_bonuses
from .vectorised import _raze_and_recon as _raze_and_recon
from .vectorised import _record_turn as _record_turn
from .vectorised import _send_to_missions as _send_to_missions
from .vectorised import _vectorised, combined_capture_roll

simulate_redline = Engine(_vectorised)
simulate_redline_reference = Engine(_one_game_at_a_time)

__all__ = [
    "BLOCK",
    "CLASSES",
    "CLASS_MOD",
    "DEFAULT_BAND",
    "DEFAULT_CAPTURE_COST",
    "EFREET",
    "EFREET_LIMIT",
    "EQUIPMENT",
    "HAND_LIMIT",
    "KIND",
    "OPEN",
    "OPENING",
    "PILOT",
    "RECON_MAX",
    "RED_LINE",
    "RESOURCE",
    "SLOTS",
    "STRATEGY",
    "TACTIC",
    "ChunkPlay",
    "Engine",
    "MulliganBand",
    "combined_capture_roll",
    "default_missions",
    "simulate_redline",
    "simulate_redline_reference",
]
