"""Makes tests/data/history_v3.sqlite: a version-3 history (two seats, no payoffs stored),
for tests/test_stored_features.py. Run it from a checkout of commit a970c36 (the last
before any number of seats), in tests/data: python make_history_v3.py."""

import sqlite3

from fuzzeval.games.backgammon.game import GAME as BG
from fuzzeval.games.cribbage.game import GAME as CR
from fuzzeval.play.match import MatchSpec
from fuzzeval.play.match_runs import run_match
from fuzzeval.play.spec import PlayerSpec
from fuzzeval.play.store import History

with History("history_v3.sqlite") as h:
    run_match(h, CR, MatchSpec("cribbage", PlayerSpec("greedy"), PlayerSpec("random"), 3, 7))
    run_match(h, BG, MatchSpec("backgammon", PlayerSpec("pubeval"), PlayerSpec("random"), 2, 2))
conn = sqlite3.connect("history_v3.sqlite")
conn.execute("PRAGMA journal_mode=DELETE")
conn.execute("VACUUM")
conn.close()
