"""Bridges to other programs: fuzzeval players as OpenSpiel bots (``openspiel``) and the
same rule base in scikit-fuzzy, the cross-check (``reference``)."""
