"""The run-time limits that keep a match of untrusted content finite and small (SECURITY.md).

The compiler checks constants against them before play (a `repeat 100000 times`, `rounds: 1000000`);
compiled game code checks the rest as it runs, each failure a RuleError at the DSL text.
"""

MAX_LOOP = 10_000  # rounds of one `repeat N times`, or of a `while` without `at most`
# Steps of one match, by default (`--max-steps`): a step is one loop round, one call that may recur, one card
# moved by a move of several, one element an aggregate or `where` runs over, one round, turn or deal of the flow.
MAX_STEPS = 1_000_000
MAX_CHECK_STEPS = 10_000_000  # steps of a match's invariants and checks together (counted as MAX_STEPS are)
# An aggregate or `where` that runs over nothing again for each element, a move, flip or show of several cards:
# uncharged up to this many elements (its work is bounded like any statement's)
UNCHARGED = 128
MAX_CALL_DEPTH = 200  # procedures calling themselves, abilities resolving abilities: nested at most this deep
MAX_OPTIONS = 10_000  # options of one choice (`a number from A to B`; a card choice never has more)
MAX_ROUNDS = 10_000  # a flow's `rounds:`
MAX_NUMBER = 2**63 - 1  # the largest whole number (or, negated, the smallest) a match keeps: counters, names, scores
