"""Properties of whole matches, over Hypothesis-drawn playthroughs (interpreter.testing).

Hypothesis and interpreter.testing are imported when a test runs, not when the suite is collected (once in
every worker)."""

import pytest

from interpreter.game import load_game
from interpreter.run.match import replay

OVERLOADED = load_game("overloaded")
SKY = load_game("sky-haulers")
EXAMPLES = 10       # Hypothesis examples per property in the default run
SLOW_EXAMPLES = 25  # ... and behind @pytest.mark.slow


def drawn(strategy: str, game, **options):
    """`@given(interpreter.testing.<strategy>(game, **options))` run with EXAMPLES examples by default and
    SLOW_EXAMPLES under the slow marker (the test's id ends in its count)."""
    def wrap(fn):
        @pytest.mark.parametrize("examples", [EXAMPLES, pytest.param(SLOW_EXAMPLES, marks=pytest.mark.slow)])
        def test(examples: int) -> None:
            from hypothesis import HealthCheck, given, settings

            from interpreter import testing

            checks = [HealthCheck.too_slow, HealthCheck.large_base_example]
            given_test = given(getattr(testing, strategy)(game, **options))(fn)
            settings(max_examples=examples, deadline=None, suppress_health_check=checks)(given_test)()

        test.__name__, test.__qualname__, test.__doc__ = fn.__name__, fn.__qualname__, fn.__doc__
        return test
    return wrap


def conserved(m) -> bool:
    st = m.st
    return sorted(c for z in st.zones for c in z) == list(range(len(m.layout.card_ids)))


@drawn("matches", OVERLOADED)
def test_overloaded_score_is_the_score_pile_plus_bonus(m):
    t, st = m.layout, m.st
    value, bonus = OVERLOADED.prop_names, dict(OVERLOADED.counter_names[1])
    v = next(k for k, name in value.items() if name == "value")
    b = next(i for i, name in bonus.items() if name == "bonus")
    for p in range(m.players):
        pile = st.zones[t.zone_names.index(f"pile@{p}")]
        assert m.result()["scores"][p] == sum(t.props[v][c] for c in pile) + st.pc[b][p]
    assert conserved(m)


@drawn("matches", OVERLOADED, finished=False)
def test_an_overloaded_match_replays_from_its_seed_decisions_and_chance_outcomes(m):
    again = replay(OVERLOADED, m.players, m.seed, m.history, chance=m.chance_drawn)
    assert again.st.zones == m.st.zones and again.st.pc == m.st.pc and again.to_act() == m.to_act()


@drawn("matches", SKY, finished=False)
def test_sky_haulers_hands_never_pass_ten_and_chains_never_pass_four(m):
    t, st = m.layout, m.st
    for zi, cards in enumerate(st.zones):
        name = t.zone_names[zi]
        if name.startswith("hand@"):
            assert len(cards) <= 10
        if name.startswith("chain@"):
            assert len(cards) <= 4
    assert conserved(m)


@drawn("checked_matches", OVERLOADED)
def test_overloaded_keeps_its_declared_invariants(m):
    assert m.over


@drawn("checked_matches", SKY, finished=False)
def test_sky_haulers_keeps_its_declared_invariants(m):
    assert m.st.round >= 1


def test_a_broken_invariant_is_reported_with_its_seed_and_decisions(tmp_path):
    import shutil

    from hypothesis import Phase, given, settings

    from interpreter.paths import data_dir
    from interpreter.testing import checked_matches

    shutil.copytree(data_dir("cards") / "overloaded", tmp_path / "g")
    game_yaml = tmp_path / "g" / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace(
        "capacity_not_negative: capacity >= 0",
        "capacity_not_negative: capacity >= 0\n  never_overloaded: overloads == 0"))
    game = load_game(tmp_path / "g")

    # no shrinking: what is proven is the report of a broken invariant (seed, decisions), which the first
    # failing example makes; shrinking it again and again costs a minute (`meeple check` tests shrinking)
    @settings(max_examples=20, deadline=None, database=None, phases=[Phase.explicit, Phase.reuse, Phase.generate])
    @given(checked_matches(game, players=3))
    def play(m):
        pass

    report = r"never_overloaded \(P0, P1, P2\) broken in overloaded, 3 players, seed \d+, after decisions \["
    with pytest.raises(AssertionError, match=report):
        play()


@drawn("matches", OVERLOADED, finished=False)
def test_a_drawn_match_goes_on_clones_and_pickles_after_its_example(m):
    import pickle

    copy, saved = m.clone(), pickle.loads(pickle.dumps(m))
    for other in (copy, saved):
        assert other.st.zones == m.st.zones and other.to_act() == m.to_act()
    while not m.over:  # its chance goes on from its seed once the drawn outcomes are used
        for seat in m.to_act():
            for other in (m, copy, saved):
                other.apply(seat, 0)
    assert copy.result() == m.result() == saved.result()
