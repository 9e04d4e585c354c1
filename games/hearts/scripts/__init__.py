"""Run by hand (``python -m``), never imported by the game: check our rules against
OpenSpiel's ``hearts``."""
