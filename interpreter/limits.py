"""The run-time limits that keep a match of untrusted content finite and small (SECURITY.md).

The compiler checks constants against them before play (a `repeat 100000 times`, `rounds: 1000000`);
compiled game code checks the rest as it runs, each failure a RuleError at the DSL text.
"""

MAX_LOOP = 10_000  # rounds of one `repeat N times`, or of a `while` without `at most`
MAX_STEPS = 1_000_000  # loop rounds and nested calls of one match, by default (`--max-steps`)
MAX_CALL_DEPTH = 200  # procedures calling themselves, abilities resolving abilities: nested at most this deep
MAX_OPTIONS = 10_000  # options of one choice (`a number from A to B`; a card choice never has more)
MAX_ROUNDS = 10_000  # a flow's `rounds:`
