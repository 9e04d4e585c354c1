"""fuzzeval: a Mamdani fuzzy-rule engine that grades game positions and explains its grades."""

from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _version

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

try:  # the installed distribution's version: one source of truth, pyproject.toml
    __version__: str = _version("fuzzeval")
except PackageNotFoundError:  # a source tree on sys.path without an install
    __version__ = "0+unknown"

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
