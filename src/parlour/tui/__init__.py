"""Parlour in the terminal: full-screen Textual apps (``parlour tui``). Screens render the engines'
player views and send moves; they hold no rule."""

from parlour.terminal_widths import use_terminal_widths

use_terminal_widths()  # Hindi's vowel signs take the cells the terminal gives them
