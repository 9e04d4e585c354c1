"""The players ``fuzzeval cribbage report`` measures by default, in a module of their own
(no numpy, no engine): the command's help names them, and the help starts fast."""

from __future__ import annotations

# each fuzzy player by its rule base's name: the plain "fuzzy" is whatever base plays by default
PLAYERS = ("random", "greedy", "es", "fuzzy:rulebase=cribbage_linguistic",
           "fuzzy:rulebase=cribbage_linguistic_tuned", "fuzzy:rulebase=cribbage_expected_points",
           "exhaustive", "exhaustive:weights=expert")

#: every cribbage player by name, for the commands' help (the game's player_names, which a
#: test holds equal to this, needs numpy)
NAMES = ("random", "greedy", "es", "fuzzy", "exhaustive", "sampling")
