"""Run by hand (``python -m``), never imported by the game: re-teach the shipped rule base
from GNU Backgammon's choices."""
