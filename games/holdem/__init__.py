"""Heads-up limit Texas Hold'em (Loki, Billings et al. 1999), with the ACPC
``holdem.limit.2p.reverse_blinds`` structure: cards, rules checked against OpenSpiel's
``universal_poker``, hand evaluation by phevaluator, ACPC hand logs, simple opponents and
the fuzzy ProbTriple player, a plug-in of the match runner (``holdem.game``) and its bridge
to OpenSpiel (``holdem.openspiel``)."""
