"""Game plug-ins for fuzzeval: one package per game, each exporting GAME."""
