"""fuzzeval: a Mamdani fuzzy-rule engine that grades game positions and explains its grades.

The names below are the documented Python API (docs/python-api.md); each is imported from
its module on first use, so ``import fuzzeval`` (and the CLI's start-up) costs no numpy,
no compiled engine and no package metadata until a name is asked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fuzzeval.lazy import lazy_exports

_WHERE = {
    "Evaluator": "engine",
    "Explanation": "engine",
    "FuzzevalError": "errors",
    "GameNotFound": "errors",
    "NotationError": "errors",
    "PointRef": "rulebase",
    "Problem": "errors",
    "Rule": "rulebase",
    "RuleBase": "rulebase",
    "RuleBaseError": "errors",
    "RuleBaseWarning": "errors",
    "RuleFiring": "engine",
    "Term": "rulebase",
    "Variable": "rulebase",
    "__version__": "_version",
    "check_rulebase": "loading",
    "compile_rulebase": "engine",
    "dump_rulebase": "yaml_write",
    "load_rulebase": "loading",
    "parse_rulebase": "loading",
    "rulebase_to_yaml": "yaml_write",
}
__all__ = [
    "Evaluator",
    "Explanation",
    "FuzzevalError",
    "GameNotFound",
    "NotationError",
    "PointRef",
    "Problem",
    "Rule",
    "RuleBase",
    "RuleBaseError",
    "RuleBaseWarning",
    "RuleFiring",
    "Term",
    "Variable",
    "__version__",
    "check_rulebase",
    "compile_rulebase",
    "dump_rulebase",
    "load_rulebase",
    "parse_rulebase",
    "rulebase_to_yaml",
]
__getattr__, __dir__ = lazy_exports(__name__, _WHERE)

if TYPE_CHECKING:
    from fuzzeval._version import __version__
    from fuzzeval.engine import Evaluator, Explanation, RuleFiring, compile_rulebase
    from fuzzeval.errors import (
        FuzzevalError,
        GameNotFound,
        NotationError,
        Problem,
        RuleBaseError,
        RuleBaseWarning,
    )
    from fuzzeval.loading import check_rulebase, load_rulebase, parse_rulebase
    from fuzzeval.rulebase import PointRef, Rule, RuleBase, Term, Variable
    from fuzzeval.yaml_write import dump_rulebase, rulebase_to_yaml
