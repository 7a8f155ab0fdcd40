"""Stage 7, what a seat may believe: a determinization is another legal match, with a history of its own,
that the seat cannot tell from the real one.

`determinize(match, seat, rng)` draws such a world in three steps:

1. **Where the seat loses track** (`_trace`). Walking the match's recorded events, every card's life is
   cut into *paths* at the points where the seat can no longer tell it from others: a shuffle (the cards
   of the zone, each back apart) and a player's unseen choice of a card that leaves their hand (any card
   of the hand could have gone). Such a point is a *mix*: the world may send the mixed cards down any of
   the mixed paths (a choice keeps the order of the cards that stay, as a hand does; it mixes the cards of
   the hand with the back of the one that left; a card an answer named that leaves the hand only at a later
   turn leaves by what the rules do then, not by that choice, and is no mix). A path the seat
   sees (a move, flip or glimpse it sees, its own options and answers, what it sees now) must carry a
   card of the same face, and so must every path from the set-up, which is every match's. A look at
   several cards of another player's hand shows which faces lie there, not which card lies where: its
   paths carry those faces in some order (drawn at random for each world), so a later move of a card by
   its place in that hand, unseen, may have taken any of them.
2. **Which card goes down each path** (`_assign`): back from the last mix to the first, each mix is
   asked for the faces its paths need later, and passes the needs it cannot meet on to free paths that
   reach it (chosen at random among those that could bring the face); then forward, each mix hands out
   its cards: the needed faces where they are needed, the rest at random (a shuffle), or the card of a
   hand drawn uniformly among those that fit (a choice). The random choices go to a shuffle's paths in an
   order that hangs on what the seat saw, not on which real card went where (`_by_role`): two matches the
   seat cannot tell apart, given one generator, draw one world.
3. **The world played** (`_Replay`): a new match from the start whose shuffles deal the orders drawn;
   a roll, and any outcome after an answer whose moves the seat all saw, comes out as the real one did; every
   other outcome (a random card, player or place) is drawn anew by its real probabilities (see `_Source`);
   each answer is given again, a card by the card its path carries, and another seat's secret answer,
   or its pick of a card the seat did not see that stays where it is, is drawn anew uniformly among the
   options after which the seat observes the same. The rules decide what they imply: a player who did
   not follow suit held none of it, a hand that said "go fish" lacked the rank. Where a world parts from
   what the seat observed, it is mended: two cards the seat cannot tell apart, dealt by one shuffle, are
   swapped from that shuffle on, or a player's unseen choice from its hand takes another card of it (tried
   on a copy replayed from its kept base, first in the zones the failing answer touched and with the faces
   the seat was told of); a mended world is then played once more from its start, so that its whole
   history is its own.

Where every drawing from the start fails, the match is rebuilt from its seed and walked, a world drawn every
round of answers and carried on to the next (`_walked`); past that, `NoConsistentWorld`. The real match is never
returned; its shuffles are drawn anew, a world keeps neither the real seed nor a copy of the real generator, and its
chance after the present comes from `rng`.

The match keeps, per seat (`_Belief`), the walk of step 1 (carried on from where it stopped) and its last
world with a copy of it before every answer that dealt a shuffle: a draw at the same point moves on from
that world by a swap, and a draw after the match moved on carries it on (see `determinize`); either plays
the world again from the copy before the first shuffle it changed, not from the match's start. A world
that cannot be carried on is drawn again from one of its last shuffles (`_redealt`) before a new one is
drawn from the start (`_drawn`). A copy of the match starts from its beliefs (`carry`).

Where each part lives, each module importing only those above it in this list:

- `base`: the errors and budgets every part shares;
- `world_chance`: a world's chance, its drawing and the outcomes it reads back or draws anew;
- `trace`: step 1, the paths (`_Tracer`);
- `assign`: step 2, a card down every path (`_assign`), and a drawing's trades;
- `words`: which faces the seat's lines name;
- `replay_state`, `answers`, `told`, `mends`, `replay`: step 3, the world played (`_Replay`, built up in that order:
  what it holds and where it plays from; each answer given again; what the seat was told along it, by which a mend
  ranks its swaps; its mends; the play along the drawing);
- `kept`: what a match keeps per seat (`_Belief`), and `carry`;
- `exchange`: a swap no rule can tell, made without playing the world again;
- `moves`: a draw at the point of the last one, the kept world moved on;
- `stages`: `determinize` and its stages, and `replayed`.
"""

from .base import DEFAULT_MOVES, DEFAULT_PROBES, DEFAULT_REPAIRS, DEFAULT_TRIES, NoConsistentWorld, match_class
from .kept import carry
from .stages import determinize, replayed, shuffles_drawn

__all__ = ["DEFAULT_MOVES", "DEFAULT_PROBES", "DEFAULT_REPAIRS", "DEFAULT_TRIES", "NoConsistentWorld", "carry",
           "determinize", "match_class", "replayed", "shuffles_drawn"]
