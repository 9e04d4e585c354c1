"""A new rule base's first text: the smallest base that shows every part of the format
(two inputs, so the surface has something to draw) and passes the loader's check."""

from __future__ import annotations

import json
from pathlib import PurePosixPath

TEMPLATE = """\
# A new rule base. Each term is a triangle [left, peak, right] within its variable's range;
# a rule reads "if INPUT is TERM (and|or INPUT is TERM ...) then OUTPUT is TERM".
name: {name}
description: A new rule base; say here what it grades and from what.
defuzzifier: centroid
default: 5            # the grade when no rule fires
inputs:
  first:
    description: The first input, 0 to 10.
    range: [0, 10]
    terms:
      low: [0, 0, 5]
      medium: [0, 5, 10]
      high: [5, 10, 10]
  second:
    description: The second input, 0 to 10.
    range: [0, 10]
    terms: {{low: [0, 0, 5], medium: [0, 5, 10], high: [5, 10, 10]}}
output:
  name: grade
  range: [0, 10]
  terms: {{low: [0, 0, 5], medium: [0, 5, 10], high: [5, 10, 10]}}
rules:
  - if first is low and second is low then grade is low
  - if first is medium or second is medium then grade is medium
  - if first is high and second is high then grade is high
"""


def template(file_name: str) -> str:
    """The template's text for a file ``file_name``, the base named after its stem (quoted,
    so that a stem such as ``yes`` or ``12`` stays a name)."""
    return TEMPLATE.format(name=json.dumps(PurePosixPath(file_name).stem))
