"""Four-seat Hearts (Sturtevant & White 2006): cards, rules checked against OpenSpiel, features of a
candidate card, and rule-of-thumb players. Not yet wired into the match runner."""
