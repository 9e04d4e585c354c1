"""Run by hand (``python -m``), never imported by the game: check our rules against
OpenSpiel's ``universal_poker`` and phevaluator against treys, and regenerate the preflop
strength table."""
