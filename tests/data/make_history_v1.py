"""Makes tests/data/history_v1.sqlite: a version-1 history (JSON features, players written
out), for tests/test_stored_features.py. Run it from a checkout of commit ab76fd8 (before
the compact storage), in tests/data: python make_history_v1.py. The file now shipped was
made so with greedy pegging's later fix applied to that checkout (in its
games/cribbage/pegging.py: the replies weighed over range(13), not range(min(room, 13)))."""

import sqlite3

from fuzzeval.games.backgammon.game import GAME as BG
from fuzzeval.games.cribbage.game import GAME as CR
from fuzzeval.play.match import MatchSpec
from fuzzeval.play.match_runs import run_match
from fuzzeval.play.spec import PlayerSpec
from fuzzeval.play.store import History

with History("history_v1.sqlite") as h:
    run_match(h, CR, MatchSpec("cribbage", PlayerSpec("greedy"), PlayerSpec("random"), 2, 7))
    run_match(h, BG, MatchSpec("backgammon", PlayerSpec.parse("fuzzy:rulebase=backgammon_simple"),
                               PlayerSpec("pubeval"), 1, 2))
conn = sqlite3.connect("history_v1.sqlite")
conn.execute("PRAGMA journal_mode=DELETE")
conn.execute("VACUUM")
conn.close()
