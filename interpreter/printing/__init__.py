"""Print-and-play: `meeple print GAME` lays every card of a game out on sheets to print, cut and play.

The road: the game's content (`load_content`: cards and the `print:` section) → `spec.print_spec` (what each card
shows where) → `sheets.copies` (every copy in its count) → `layout.sheet_layout` (where on a sheet; crop marks)
→ `faces.draw_face` / `draw_back` (each card, its texts fitted by `fit.fit_text`) → a PDF, or PNG images
(`images.pages_as_png`).
"""

from .layout import PrintError

__all__ = ["PrintError"]
