"""What the terminal table prints to a person never tells what the seat may not know: two matches that part
where another seat made a choice hidden from the person are told alike — story and screens — for as long
as the seat cannot tell them apart (equal information states)."""

import io

import pytest
from walks import walker

from interpreter import load_game
from interpreter.leaks import _hidden_pairs
from interpreter.run.match import Match
from interpreter.table import WORDS, Table


def told_alike(worlds: list[Match], start: int, forks: list[list[tuple[int, int]]], seat: int, steps: int) -> int:
    """Tell both worlds from `start` (the fork) at `seat`, each answering its fork then 0 everywhere; assert
    the printed text is the same at each point the seat cannot tell them apart. Returns the points compared."""
    tables = []
    for w, fork in zip(worlds, forks, strict=True):
        out = io.StringIO()
        table = Table(w, out, WORDS["en"], seat, prompt_out=io.StringIO())
        table.narration.printed = start  # as if it had told the match from its start: the same count of decisions
        table.narration.decisions = sum(1 for line in w.log[:start] if line["type"] == "decision")
        together = w.simultaneous
        for who, action in fork:
            w.apply(who, action)
            table.catch_up(together)
        tables.append((table, out))
    compared = 0
    for _ in range(steps):
        if any(w.over for w in worlds) or worlds[0].information_state(seat) != worlds[1].information_state(seat):
            break
        shown = []
        for w, (table, out) in zip(worlds, tables, strict=True):
            if seat in w.to_act():
                title, blocks = table.screen(seat)
                print(title, *["\n".join(b) for b in blocks], file=out)
            shown.append(out.getvalue())
        assert shown[0] == shown[1]
        compared += 1
        if worlds[0].to_act() != worlds[1].to_act():
            break
        together = [w.simultaneous for w in worlds]
        for who in worlds[0].to_act():
            for w, (table, _), simultaneous in zip(worlds, tables, together, strict=True):
                w.apply(who, 0)
                table.catch_up(simultaneous)
    return compared


@pytest.mark.parametrize("name", ["hearts", "overloaded", "sky-haulers", "low-tide"])
def test_a_hidden_choice_of_another_seat_is_told_alike_either_way(name):
    game = load_game(name)
    m = Match(game, game.default_players, 4, log=True)
    bot = walker(4)
    forks = points = 0
    while not m.over and forks < 60 and (forks < 12 or not points):
        for p in m.to_act():
            for a, b in _hidden_pairs(m, p, 0)[:1] if p != 0 else []:
                rest = [(q, 0) for q in m.to_act() if q != p] if m.simultaneous else []
                points += told_alike([m.clone(), m.clone()], len(m.log), [[(p, a), *rest], [(p, b), *rest]], 0, 8)
                forks += 1
        seat = m.to_act()[0]
        m.apply(seat, bot.pick(len(m.legal_actions(seat))))
    assert forks and points
