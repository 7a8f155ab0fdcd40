"""The real outcomes a world draws by (a roll the table heard, a random card the seat saw move) come from a copy of the
real match's generator kept in step with the world's chance (`_Source`). An attempt that failed and drew more or
fewer outcomes than the one kept (another option of another seat's answer: one more refusal in Overloaded, one more
card scored at random) is rewound with its outcomes (`_Source.rewind`), so the copy stays in step for the worlds
after it: each real outcome kept is of the kind and size of the world's outcome at its place. The world keeps
neither that copy nor a state of it taken to rewind to (it would tell the real match's chance)."""

import random

import pytest
from walks import walker

from interpreter.game import load_game
from interpreter.run.belief.kept import _belief


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (3, 2)])
def test_the_real_outcomes_kept_stay_in_step_with_the_world_s_chance(players, seed):
    game = load_game("overloaded")
    m = game.new_match(players=players, seed=seed)
    bot, rng = walker(seed), random.Random(seed)
    drawn = 0
    while not m.over and len(m.history) <= 60:
        if len(m.history) % 3 == 0 and m.to_act():
            seat = m.to_act()[0]
            world = m.determinize(seat, rng)
            kept, events = _belief(m, seat).reals, world._drawn[1].events
            in_step = [real[0] == e[0] and (real[1] < 0) == (e[1] < 0) for real, e in zip(kept, events, strict=False)]
            assert all(in_step), (len(m.history), seat, kept, events)
            source = world._drawn[1]
            assert source.stream is None and source.saved is None, len(m.history)
            drawn += 1
        for p in m.to_act():
            m.apply(p, bot.pick(len(m.legal_actions(p))))
    assert drawn > 10
