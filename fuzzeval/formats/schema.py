"""JSON Schema of rule-base files, so editors can validate and complete them. The keys
come from the loader's own lists, so the two cannot drift apart."""

from __future__ import annotations

from typing import Any

from fuzzeval.engine.membership import POINT_NAMES
from fuzzeval.engine.rulebase import DEFUZZIFIERS
from fuzzeval.formats.grammar import KEYWORDS
from fuzzeval.formats.yaml_read import (
    MAX_MADE_BY_CHARS,
    OUTPUT_KEYS,
    RULE_KEYS,
    TERM_KEYS,
    TOP_KEYS,
    VARIABLE_KEYS,
)

_NAME = {
    "type": "string",
    "pattern": "^(?!(?i:" + "|".join(sorted(KEYWORDS)) + ")$)[A-Za-z_][A-Za-z0-9_]*$",
    "description": "Letters, digits and _, not a keyword (if, then, is, and, or, not).",
}
_POINTS = {
    "type": "array",
    "items": {"type": "number"},
    "minItems": 3,
    "maxItems": 3,
    "description": "Triangle [left, peak, right], left <= peak <= right, inside the range.",
}
_RANGE = {
    "type": "array",
    "items": {"type": "number"},
    "minItems": 2,
    "maxItems": 2,
    "description": "[low, high] with low < high; inputs are clipped to it.",
}
_RULE_TEXT = {
    "type": "string",
    "pattern": r"^\s*[iI][fF]\s",
    "description": "if CONDITION then OUTPUT is TERM; 'and' binds tighter than 'or'.",
}


def _closed(properties: dict[str, Any], keys: tuple[str, ...], **extra: Any) -> dict[str, Any]:
    assert set(properties) == set(keys), "schema and loader keys differ"
    return {"type": "object", "properties": properties, "additionalProperties": False, **extra}


def rulebase_schema() -> dict[str, Any]:
    """The schema (draft 2020-12) of a rule-base YAML file."""
    term_map = _closed(
        {
            "points": _POINTS,
            "adjust": {
                "type": "array",
                "items": {"enum": list(POINT_NAMES)},
                "uniqueItems": True,
                "minItems": 1,
                "description": "Points the calibrator may move (input terms only).",
            },
            "bounds": {
                "type": "array",
                "items": {"type": "number"},
                "minItems": 2,
                "maxItems": 2,
                "description": "[low, high]: the values a single-valued output term's meaning "
                "allows, which the tuner may search; without it the term is pinned.",
            },
        },
        TERM_KEYS,
        required=["points"],
    )
    variable = _closed(
        {
            "range": _RANGE,
            "terms": {
                "type": "object",
                "minProperties": 1,
                "propertyNames": _NAME,
                "additionalProperties": {"oneOf": [_POINTS, term_map]},
            },
            "description": {"type": "string"},
        },
        VARIABLE_KEYS,
        required=["range", "terms"],
    )
    output = _closed(
        {
            "name": _NAME,
            "range": _RANGE,
            "terms": {
                "type": "object",
                "minProperties": 1,
                "propertyNames": _NAME,
                "additionalProperties": {
                    "oneOf": [
                        _POINTS,
                        {"type": "number", "description": "A singleton."},
                        _closed(
                            {
                                "points": {"type": "number", "description": "A singleton."},
                                "bounds": term_map["properties"]["bounds"],
                            },
                            ("points", "bounds"),
                            required=["points", "bounds"],
                        ),
                    ]
                },
            },
            "description": {"type": "string"},
        },
        OUTPUT_KEYS,
        required=["name", "range", "terms"],
    )
    rule = {
        "oneOf": [
            _RULE_TEXT,
            _closed(
                {
                    "rule": _RULE_TEXT,
                    "weight": {"type": "number", "exclusiveMinimum": 0, "maximum": 1},
                },
                RULE_KEYS,
                required=["rule"],
            ),
        ]
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "fuzzeval rule base",
        **_closed(
            {
                "name": {"type": "string", "minLength": 1},
                "description": {"type": "string"},
                "made_by": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": MAX_MADE_BY_CHARS,
                    "pattern": "^[^\\n]*$",
                    "description": "Where the rule base came from, one line: 'written by "
                    "hand', or the command that made it (tune and calibrate write it).",
                },
                "defuzzifier": {"enum": list(DEFUZZIFIERS)},
                "default": {"type": "number", "description": "Grade when no rule fires."},
                "resolution": {"type": "integer", "minimum": 11},
                "inputs": {
                    "type": "object",
                    "minProperties": 1,
                    "propertyNames": _NAME,
                    "additionalProperties": variable,
                },
                "output": output,
                "rules": {"type": "array", "minItems": 1, "items": rule},
            },
            TOP_KEYS,
            required=["name", "defuzzifier", "default", "inputs", "output", "rules"],
        ),
    }
