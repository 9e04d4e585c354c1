"""The play of cribbage (pegging): which card to lay.

``policies`` (the seat's view and the basic and greedy rules), ``features`` (what a
pegging rule base reads), ``kernels`` (the sampling player's compiled playouts),
``advice`` (one decision, explained) and ``report`` (players compared on the same deals).
"""
