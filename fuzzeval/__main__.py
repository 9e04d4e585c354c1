"""``python -m fuzzeval`` is the ``fuzzeval`` command."""

from fuzzeval.cli import main

main()
