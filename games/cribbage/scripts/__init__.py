"""Run by hand (``python -m``), never imported by the game: regenerate the game's data
tables and rerun the papers' experiments."""
