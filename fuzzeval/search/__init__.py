"""Search at decision time: selective sampling of hidden information, each candidate
played out (``sampling``), and maxⁿ in the perfect-information game (``maxn``).

Built on the core and on ``fuzzeval.play``'s game protocols.
"""
