"""Search at decision time: selective sampling of hidden information, each candidate
played out.

Built on the core and on ``fuzzeval.play``'s game protocols.
"""
