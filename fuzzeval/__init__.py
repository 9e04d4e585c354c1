"""fuzzeval: a Mamdani fuzzy-rule engine that grades game positions and explains its grades.

The names below are the documented Python API (docs/python-api.md); each is imported from
its module on first use, so ``import fuzzeval`` (and the CLI's start-up) costs no numpy,
no compiled engine and no package metadata until a name is asked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fuzzeval.lazy import lazy_exports

_WHERE = {
    "Evaluator": "engine.evaluator",
    "Explanation": "engine.evaluator",
    "FuzzevalError": "errors",
    "GameNotFound": "errors",
    "NotationError": "errors",
    "PointRef": "engine.rulebase",
    "Problem": "errors",
    "Rule": "engine.rulebase",
    "RuleBase": "engine.rulebase",
    "RuleBaseError": "errors",
    "RuleBaseWarning": "errors",
    "RuleFiring": "engine.evaluator",
    "Term": "engine.rulebase",
    "Variable": "engine.rulebase",
    "__version__": "_version",
    "check_rulebase": "formats.loading",
    "compile_rulebase": "engine.evaluator",
    "dump_rulebase": "formats.yaml_write",
    "load_rulebase": "formats.loading",
    "parse_rulebase": "formats.loading",
    "rulebase_to_yaml": "formats.yaml_write",
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
    from fuzzeval.engine.evaluator import Evaluator, Explanation, RuleFiring, compile_rulebase
    from fuzzeval.engine.rulebase import PointRef, Rule, RuleBase, Term, Variable
    from fuzzeval.errors import (
        FuzzevalError,
        GameNotFound,
        NotationError,
        Problem,
        RuleBaseError,
        RuleBaseWarning,
    )
    from fuzzeval.formats.loading import check_rulebase, load_rulebase, parse_rulebase
    from fuzzeval.formats.yaml_write import dump_rulebase, rulebase_to_yaml
