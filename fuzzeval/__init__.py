"""fuzzeval: a Mamdani fuzzy-rule engine that grades game positions and explains its grades."""

from fuzzeval.engine import Evaluator, Explanation, RuleFiring, compile_rulebase
from fuzzeval.errors import (
    FuzzevalError,
    GameNotFound,
    NotationError,
    Problem,
    RuleBaseError,
    RuleBaseWarning,
)
from fuzzeval.loading import (
    check_rulebase,
    dump_rulebase,
    load_rulebase,
    parse_rulebase,
    rulebase_to_yaml,
)
from fuzzeval.rulebase import PointRef, Rule, RuleBase, Term, Variable

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
    "check_rulebase",
    "compile_rulebase",
    "dump_rulebase",
    "load_rulebase",
    "parse_rulebase",
    "rulebase_to_yaml",
]
