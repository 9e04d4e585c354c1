"""Four-seat Hearts (Sturtevant & White 2006): cards, rules checked against OpenSpiel,
features of a candidate card, rule-of-thumb, fuzzy and ISMCTS players, a plug-in of the
match runner (``hearts.game``) and its bridge to OpenSpiel (``hearts.openspiel``)."""
