"""Learning rule bases from play: calibration (eq. 1's step and the rounds that drive it),
held-out checks, measures, tuning (CMA-ES) and teaching (imitation).

Built on the core and on ``fuzzeval.play``.
"""
