"""Any meeple game in the game-AI ecosystem: `openspiel.load(GAME, players=N)` (a `pyspiel.Game`) and
`pettingzoo.env(GAME, players=N)` (an AEC environment); see docs/adapters.md. Each needs its library
(`pip install meeple[ai]`), imported only when its adapter is."""
