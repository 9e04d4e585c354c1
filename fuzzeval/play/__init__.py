"""Playing games: the game protocols, the registry of games, player specs, the match runner,
its executors, the history store, replays, tournaments and time estimates.

Built on the inference core (``fuzzeval``'s top-level modules); knows no game.
"""
