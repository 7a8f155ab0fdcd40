"""A match at the terminal (`meeple play`): the running narration, a person's screen and prompt, the
round summaries and the final scores — each its own module, put together here:

- `table_teller`: what they share (the match, the reader's seat, the words, names, cards, the output);
- `table_narration`: the story, each event told through its kind in the catalogue (run/events.py);
- `table_screen`: a seat's screen, from its view;
- `table_input`: a person's question and answer;
- `table_summary`: the round summaries and the final score table;
- `table_words`, `table_cards`: the table's words in each language, cards by name.

With a person at a seat, everything printed comes from what that seat may see: `Match.view(seat)`,
`action_labels(seat)`, `prompt(seat)`, the game's `say` sentences (written for every player), and the
log's other events only where they concern that seat. Without one, the narration is omniscient, but a
choice the players did not all see is still printed as hidden.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TextIO

from .table_cards import Cards
from .table_input import InputEnded, Prompt, Quit
from .table_narration import Narration
from .table_screen import Screen
from .table_summary import Summaries
from .table_teller import Teller
from .table_words import WORDS, counted, spoken

__all__ = ["WORDS", "Cards", "InputEnded", "Quit", "Table", "counted", "spoken"]


class Table:
    """Prints one match as it goes. `human`: the seat a person plays (None: bots only, omniscient)."""

    def __init__(self, m: Any, out: TextIO | None, words: dict[str, str], human: int | None,
                 prompt_out: TextIO | None = None) -> None:
        self.teller = Teller(m, out, words, human, prompt_out)
        self.screens = Screen(self.teller)
        self.summaries = Summaries(self.teller)
        self.narration = Narration(self.teller, self.summaries, self.screens)
        self.prompt = Prompt(self.teller, self.screens)

    def asking(self, seat: int) -> None:
        """A bot is about to answer: keep its question for an omniscient narration of the answer."""
        self.narration.asking(seat)

    def catch_up(self, together: bool = False) -> None:
        """Tell the log lines added since the last call; `together`: the decision was simultaneous."""
        self.narration.catch_up(together)

    def flush(self) -> None:
        """Print all the narration holds back for a sentence that may still come."""
        self.narration.flush()

    def ask(self, seat: int, read: Callable[[], str] | None = None) -> int:
        """Tell what waits, then show the seat its screen and options and read a choice until it fits.
        Raises Quit or InputEnded."""
        self.narration.flush()
        return self.prompt.ask(seat, read)

    def screen(self, seat: int) -> tuple[str, list[list[str]]]:
        """The seat's screen: a heading and blocks of wrapped lines."""
        return self.screens.screen(seat)

    def figures(self, seat: int, view: dict[str, Any]) -> list[list[str]]:
        """Each player's declared figures as `seat` may know them."""
        return self.screens.figures(seat, view)

    def option_text(self, label: str, seat: int) -> str:
        """An option as the person reads it."""
        return self.prompt.option_text(label, seat)

    def final(self) -> None:
        """The final score table and the winner line."""
        self.summaries.final()
