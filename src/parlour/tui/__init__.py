"""Parlour in the terminal: full-screen Textual apps (``parlour tui``). Screens render the engines'
player views and send moves; they hold no rule."""
