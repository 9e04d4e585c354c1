"""The studio: rule bases edited, explained and drawn in a browser (``fuzzeval studio``).

It sits on top, beside the command line: every number it shows comes from the library
(the loader's checker, the evaluator's explain and batch grade, the comment-keeping point
writer), never from a second implementation. Starlette and uvicorn are an optional extra
(``pip install 'fuzzeval[studio]'``), imported only when the command runs.
"""
