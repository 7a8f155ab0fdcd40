"""A quiet match (sim's: no log, nobody watching) is at every decision in the state a logged match of the same seed
and answers is in: the generated code's quiet shortcuts (a card or a whole zone moved without `move` or
`move_zone`, cards turned face up with no test) put every card where, and facing as, the general path puts it."""

import pytest

from interpreter.game import load_game
from interpreter.load.loader import bundled_games
from interpreter.run.flow import Cursor, run_flow
from interpreter.run.random_bots import random_bot
from interpreter.run.runtime import State


def _state(st: State) -> tuple:
    return st.zones, st.zone_of, st.face, st.gc, st.pc, st.steps


def _answers(ask, pick):
    if ask[0] == -1:
        return [one[1][pick(len(one[1]))] for one in ask[1]]
    return ask[1][pick(len(ask[1]))]


@pytest.mark.parametrize("name", bundled_games())
def test_a_quiet_match_is_at_every_decision_where_a_logged_one_is(name):
    game = load_game(name)
    players = game.min_players
    for seed in (0, 1):
        states = [State(game.model.setup(players), players, seed, log, game.max_steps) for log in (None, [])]
        flows = [run_flow(game, st, Cursor()) for st in states]
        pick = random_bot(seed).pick
        asks = [next(flow) for flow in flows]
        decisions = 0
        while asks[0] is not None:
            assert asks[1] is not None and _state(states[0]) == _state(states[1]), (name, seed, decisions)
            answer = _answers(asks[0], pick)
            asks = [_send(flow, answer) for flow in flows]
            decisions += 1
        assert asks[1] is None and _state(states[0]) == _state(states[1]) and states[1].log, (name, seed)


def _send(flow, answer):
    """The flow's next ask, None once it ended."""
    try:
        return flow.send(answer)
    except StopIteration:
        return None
