"""YAML text -> RuleBase: the reader behind ``fuzzeval.formats.loading``.

Reading walks the composed YAML node tree (safe loader only) so that every problem carries
its line, and collects *all* problems before failing: ``file:line: key: what must hold (got
value)``. Whatever the text, reading answers with a RuleBase or with problems, never with
another exception: numbers are bounded (``fuzzeval.engine.membership``: MAX_MAGNITUDE, RESOLUTION,
MIN_WEIGHT) and read without Python's big-integer pitfalls, and YAML nesting and rule nesting
are bounded (MAX_YAML_DEPTH, ``fuzzeval.formats.grammar.MAX_NESTING``).

Its own module because PyYAML's import is a third of a one-hand advice's own cost: a rule
base read before is loaded from ``fuzzeval.formats.loading``'s cache without it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

import yaml
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.resolver import Resolver

from fuzzeval.engine.membership import (
    MAX_MAGNITUDE,
    MIN_WEIGHT,
    POINT_NAMES,
    Triangle,
    number_text,
    range_problem,
    resolution_problem,
    triangle_problem,
)
from fuzzeval.engine.rulebase import (
    DEFUZZIFIERS,
    PointName,
    Rule,
    RuleBase,
    Term,
    Variable,
    conditions_used,
)
from fuzzeval.errors import Problem, one_line
from fuzzeval.formats.grammar import KEYWORDS, NAME_RE, RuleSyntaxError, parse_rule

TOP_KEYS = (
    "name",
    "description",
    "made_by",
    "defuzzifier",
    "default",
    "resolution",
    "inputs",
    "output",
    "rules",
)
REQUIRED_TOP = ("name", "defuzzifier", "default", "inputs", "output", "rules")
VARIABLE_KEYS = ("range", "terms", "description")
OUTPUT_KEYS = ("name", "range", "terms", "description")
TERM_KEYS = ("points", "adjust", "bounds")
RULE_KEYS = ("rule", "weight")
DEFAULT_RESOLUTION = 1001
MIN_RESOLUTION = 11
#: how deep YAML lists and mappings may nest (a rule base needs 6); PyYAML composes nodes
#: recursively, a few frames a level, so this stays well inside Python's recursion limit
MAX_YAML_DEPTH = 100
#: the longest text read as a number: a double needs at most 24 characters; the cap keeps
#: PyYAML's big-integer arithmetic (base-60 numbers such as 1:30:00 are quadratic) quick
MAX_NUMBER_CHARS = 100

_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
_STR = "tag:yaml.org,2002:str"


@dataclass
class _Ctx:
    path: str
    problems: list[Problem] = field(default_factory=list)

    def error(self, node: yaml.Node | None, key: str, message: str) -> None:
        self._add(node, key, message, "error")

    def warn(self, node: yaml.Node | None, key: str, message: str) -> None:
        self._add(node, key, message, "warning")

    def _add(
        self, node: yaml.Node | None, key: str, message: str, sev: Literal["error", "warning"]
    ) -> None:
        line = node.start_mark.line + 1 if node is not None else None
        self.problems.append(Problem(self.path, line, one_line(key, 80), one_line(message), sev))

    @property
    def failed(self) -> bool:
        return any(p.severity == "error" for p in self.problems)



def _shown(node: yaml.Node) -> str:
    if isinstance(node, yaml.ScalarNode):
        text = str(node.value)
        return repr(text[:40] + "..." if len(text) > 40 else text)
    return "a mapping" if isinstance(node, yaml.MappingNode) else "a list"


Entries = dict[str, tuple[yaml.Node, yaml.Node]]


def _mapping(ctx: _Ctx, node: yaml.Node, key: str, allowed: tuple[str, ...]) -> Entries | None:
    """Keys of a mapping node -> (key node, value node); reports duplicates and unknown keys."""
    if not isinstance(node, yaml.MappingNode):
        ctx.error(node, key, f"must be a mapping (got {_shown(node)})")
        return None
    out: Entries = {}
    for knode, vnode in node.value:
        if not isinstance(knode, yaml.ScalarNode) or knode.tag != _STR:
            hint = ""
            if isinstance(knode, yaml.ScalarNode) and knode.tag.endswith(":bool"):
                hint = "; YAML reads yes/no/on/off as true/false: quote it or choose another name"
            ctx.error(knode, key, f"keys must be names (got {_shown(knode)}){hint}")
            continue
        name = str(knode.value)
        where = f"{key}.{name}" if key else name
        if name in out:
            ctx.error(knode, where, "duplicate key: each name may appear once")
        elif allowed and name not in allowed:
            ctx.error(knode, where, f"unknown key; allowed here: {', '.join(allowed)}")
        else:
            out[name] = (knode, vnode)
    return out


def _number(ctx: _Ctx, node: yaml.Node, key: str) -> float | None:
    """A number within +-MAX_MAGNITUDE, or None (and a problem)."""
    if isinstance(node, yaml.ScalarNode) and node.tag in (_INT, _FLOAT):
        if len(str(node.value)) > MAX_NUMBER_CHARS:
            ctx.error(
                node,
                key,
                f"must be a number written in at most {MAX_NUMBER_CHARS} characters "
                f"(got {_shown(node)}, {len(str(node.value)):,} characters)",
            )
            return None
        try:
            value = float(SafeConstructor().construct_object(node))
        except (ArithmeticError, ValueError, IndexError):
            # a number beyond float (OverflowError), an explicit !!int or !!float tag on
            # text that is not one (ValueError, IndexError for an empty !!int)
            value = math.nan
        if abs(value) <= MAX_MAGNITUDE:
            return value
    bound = f"{MAX_MAGNITUDE:.0e}".replace("e+", "e")
    ctx.error(node, key, f"must be a number from -{bound} to {bound} (got {_shown(node)})")
    return None


def _string(ctx: _Ctx, node: yaml.Node, key: str) -> str | None:
    if isinstance(node, yaml.ScalarNode) and node.tag == _STR and str(node.value).strip():
        return str(node.value)
    ctx.error(node, key, f"must be a non-empty text (got {_shown(node)})")
    return None


def _identifier(ctx: _Ctx, knode: yaml.Node, key: str, name: str) -> bool:
    if not NAME_RE.match(name) or name.lower() in KEYWORDS:
        ctx.error(
            knode,
            key,
            "names must be letters, digits and _, not starting with a digit, and not one of "
            f"{', '.join(sorted(KEYWORDS))} (got {name!r})",
        )
        return False
    return True


def _numbers(ctx: _Ctx, node: yaml.Node, key: str, count: int) -> list[float] | None:
    if not isinstance(node, yaml.SequenceNode) or len(node.value) != count:
        ctx.error(node, key, f"must be a list of {count} numbers (got {_shown(node)})")
        return None
    values = [_number(ctx, item, key) for item in node.value]
    return None if any(v is None for v in values) else [v for v in values if v is not None]


def _range(ctx: _Ctx, node: yaml.Node, key: str) -> tuple[float, float] | None:
    values = _numbers(ctx, node, key, 2)
    if values is None:
        return None
    if not values[0] < values[1]:
        ctx.error(node, key, f"must be [low, high] with low < high (got {values})")
        return None
    problem = range_problem(values[0], values[1])
    if problem:
        ctx.error(node, key, problem)
        return None
    return values[0], values[1]


def _term(
    ctx: _Ctx,
    node: yaml.Node,
    key: str,
    name: str,
    rng: tuple[float, float] | None,
    is_output: bool,
) -> Term | None:
    """The term; with a broken range (``rng`` None) only its own numbers are checked."""
    adjust: tuple[PointName, ...] = ()
    bounds_node: yaml.Node | None = None
    pts_node = node
    if isinstance(node, yaml.MappingNode):
        entries = _mapping(ctx, node, key, TERM_KEYS)
        if entries is None:
            return None
        if "points" not in entries:
            ctx.error(node, key, "a term written as a mapping needs 'points: [left, peak, right]'")
            return None
        pts_node = entries["points"][1]
        if "adjust" in entries:
            adjust = _adjust(ctx, entries["adjust"][1], f"{key}.adjust", is_output) or ()
        if "bounds" in entries:
            bounds_node = entries["bounds"][1]
        key = f"{key}.points"
    if is_output and isinstance(pts_node, yaml.ScalarNode):
        v = _number(ctx, pts_node, key)
        points = None if v is None else [v, v, v]
    else:
        points = _numbers(ctx, pts_node, key, 3)
    if points is None or rng is None:
        return None
    tri = (points[0], points[1], points[2])
    problem = triangle_problem(tri, *rng) or resolution_problem(tri, *rng, is_output)
    if problem:
        ctx.error(pts_node, key, problem)
        return None
    bounds = None
    if bounds_node is not None:
        bounds = _bounds(ctx, bounds_node, key.removesuffix(".points") + ".bounds", tri, rng,
                         is_output)
        if bounds is None:
            return None
    return Term(name, Triangle(*tri), adjust, bounds)


def _bounds(
    ctx: _Ctx,
    node: yaml.Node,
    key: str,
    tri: tuple[float, float, float],
    rng: tuple[float, float],
    is_output: bool,
) -> tuple[float, float] | None:
    """An output singleton's ``bounds: [low, high]``: what its meaning allows, inside the
    output range and around its value (the tuner searches there; without it, it is pinned)."""
    if not is_output or tri[0] != tri[2]:
        ctx.error(
            node,
            key,
            "only single-valued output terms have bounds (the values the tuner may give "
            "them); input terms mark their movable points with 'adjust:'",
        )
        return None
    values = _numbers(ctx, node, key, 2)
    if values is None:
        return None
    lo, hi = values
    if not rng[0] <= lo <= hi <= rng[1]:
        ctx.error(
            node,
            key,
            f"must be [low, high] with low <= high inside the output range "
            f"[{rng[0]:g}, {rng[1]:g}] (got [{lo:g}, {hi:g}])",
        )
        return None
    if not lo <= tri[1] <= hi:
        ctx.error(node, key, f"must contain the term's value {tri[1]:g} (got [{lo:g}, {hi:g}])")
        return None
    return lo, hi


def _adjust(ctx: _Ctx, node: yaml.Node, key: str, is_output: bool) -> tuple[PointName, ...] | None:
    if is_output:
        ctx.error(
            node,
            key,
            "only input terms can be adjusted: the calibrator moves points "
            "toward the mean of winning inputs",
        )
        return None
    items = node.value if isinstance(node, yaml.SequenceNode) else None
    names = [str(i.value) for i in items or [] if isinstance(i, yaml.ScalarNode)]
    if items is None or len(names) != len(items) or not names:
        ctx.error(
            node, key, f"must be a list of point names left, peak, right (got {_shown(node)})"
        )
        return None
    bad = [n for n in names if n not in POINT_NAMES]
    if bad or len(set(names)) != len(names):
        ctx.error(node, key, f"must name each of left, peak, right at most once (got {names})")
        return None
    return tuple(p for p in POINT_NAMES if p in names)


def _variable(
    ctx: _Ctx, node: yaml.Node, key: str, name: str, allowed: tuple[str, ...], is_output: bool
) -> tuple[Variable | None, dict[str, yaml.Node]]:
    """The variable, and each term's node (for locating warnings)."""
    entries = _mapping(ctx, node, key, allowed)
    term_nodes: dict[str, yaml.Node] = {}
    if entries is None:
        return None, term_nodes
    for needed in ("range", "terms"):
        if needed not in entries:
            ctx.error(node, key, f"missing '{needed}'")
    if "range" not in entries or "terms" not in entries:
        return None, term_nodes
    rng = _range(ctx, entries["range"][1], f"{key}.range")
    tnodes = _mapping(ctx, entries["terms"][1], f"{key}.terms", ())
    if tnodes is not None and not tnodes:
        ctx.error(entries["terms"][1], f"{key}.terms", "must define at least one term")
    terms = []
    for tname, (tk, tv) in (tnodes or {}).items():
        tkey = f"{key}.terms.{tname}"
        term_nodes[tname] = tk
        if _identifier(ctx, tk, tkey, tname):
            term = _term(ctx, tv, tkey, tname, rng, is_output)
            if term is not None:
                terms.append(term)
    description = ""
    if "description" in entries:
        description = _string(ctx, entries["description"][1], f"{key}.description") or ""
    if rng is None or tnodes is None or len(terms) != len(tnodes) or not terms:
        return None, term_nodes
    return Variable(name, rng[0], rng[1], tuple(terms), description), term_nodes


def _rules(
    ctx: _Ctx,
    node: yaml.Node,
    inputs: dict[str, Variable],
    declared: set[str],
    output: Variable | None,
    output_name: str | None,
) -> tuple[list[Rule], list[tuple[int, yaml.Node, Rule]]]:
    """Parse and resolve the rules; names of declared-but-broken variables are not re-reported."""
    if not isinstance(node, yaml.SequenceNode) or not node.value:
        ctx.error(node, "rules", f"must be a non-empty list of rules (got {_shown(node)})")
        return [], []
    rules: list[Rule] = []
    located: list[tuple[int, yaml.Node, Rule]] = []
    # sets once, not a scan of the terms for each rule: a learned base has a term per rule
    terms_of = {name: frozenset(v.term_names) for name, v in inputs.items()}
    output_terms = frozenset(output.term_names) if output is not None else frozenset()
    for i, item in enumerate(node.value):
        key = f"rules[{i}]"
        weight: float | None = 1.0
        text_node = item
        if isinstance(item, yaml.MappingNode):
            entries = _mapping(ctx, item, key, RULE_KEYS)
            if entries is None or "rule" not in entries:
                if entries is not None:
                    ctx.error(
                        item, key, "a rule written as a mapping needs 'rule: if ... then ...'"
                    )
                continue
            text_node = entries["rule"][1]
            if "weight" in entries:
                wnode = entries["weight"][1]
                weight = _number(ctx, wnode, f"{key}.weight")
                if weight is not None and not 0 < weight <= 1:
                    ctx.error(wnode, f"{key}.weight", f"must be in (0, 1] (got {weight:g})")
                    weight = None
                elif weight is not None and weight < MIN_WEIGHT:
                    ctx.error(
                        wnode,
                        f"{key}.weight",
                        f"must be at least {MIN_WEIGHT:g} (got {number_text(weight)})",
                    )
                    weight = None
        text = _string(ctx, text_node, key)
        if text is None or weight is None:
            continue
        try:
            parsed = parse_rule(text)
        except RuleSyntaxError as exc:
            shown = text if len(text) <= 80 else text[:80] + "..."
            ctx.error(text_node, key, f"rule syntax: {exc} in {shown!r}")
            continue
        ok = True
        for cond in conditions_used(parsed.condition):
            var = inputs.get(cond.variable)
            if var is None and cond.variable in declared:
                ok = False
            elif var is None:
                known = ", ".join(sorted(declared)) or "none"
                ctx.error(
                    text_node, key, f"unknown input variable {cond.variable!r} (inputs: {known})"
                )
                ok = False
            elif cond.term not in terms_of[cond.variable]:
                ctx.error(
                    text_node,
                    key,
                    f"unknown term {cond.term!r} of {cond.variable!r} "
                    f"(terms: {', '.join(var.term_names)})",
                )
                ok = False
        if output_name is not None and parsed.output_variable != output_name:
            ctx.error(
                text_node,
                key,
                f"the rule must conclude on the output {output_name!r} "
                f"(got {parsed.output_variable!r})",
            )
            ok = False
        if output is not None and parsed.output_term not in output_terms:
            ctx.error(
                text_node,
                key,
                f"unknown output term {parsed.output_term!r} "
                f"(terms: {', '.join(output.term_names)})",
            )
            ok = False
        if ok:
            rule = Rule(parsed.condition, parsed.output_term, weight)
            rules.append(rule)
            located.append((i, text_node, rule))
    return rules, located


class _TooDeep(yaml.MarkedYAMLError):
    pass


_CParser: type | None
try:
    from yaml.cyaml import CParser  # type: ignore[attr-defined]
except ImportError:  # PyYAML built without libyaml
    _CParser = None
else:
    _CParser = CParser


class _PyParser(yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser):
    """PyYAML's own scanner and parser: the same events as libyaml's, ten times slower."""

    def __init__(self, text: str) -> None:
        yaml.reader.Reader.__init__(self, text)
        yaml.scanner.Scanner.__init__(self)
        yaml.parser.Parser.__init__(self)


def _loader_over(parser: type) -> type:
    """YAML's own composer over ``parser``, refusing lists and mappings nested deeper than
    MAX_YAML_DEPTH (the document's own list or mapping is level 1)."""

    class Loader(Composer, parser, Resolver):  # type: ignore[misc]
        def __init__(self, text: str) -> None:
            parser.__init__(self, text)  # type: ignore[misc]
            Composer.__init__(self)
            Resolver.__init__(self)
            self.depth = 0
            self.mark: Any = None  # a yaml.Mark: where the list or mapping composed starts

        def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
            event = self.peek_event()
            if not isinstance(event, yaml.CollectionStartEvent):
                return super().compose_node(parent, index)
            self.mark = event.start_mark
            if self.depth >= MAX_YAML_DEPTH:
                raise _TooDeep(
                    problem=f"lists and mappings may nest at most {MAX_YAML_DEPTH} levels "
                    f"deep (got level {self.depth + 1})",
                    problem_mark=self.mark,
                )
            self.depth += 1
            try:
                return super().compose_node(parent, index)
            finally:
                self.depth -= 1

    return Loader


_PyLoader = _loader_over(_PyParser)
#: libyaml's scanner and parser where PyYAML was built with them: a rule base is read on
#: every advice command, and libyaml reads one in a tenth of the time, to the same nodes
_Loader = _PyLoader if _CParser is None else _loader_over(_CParser)


def _compose(text: str) -> yaml.Node | None:
    """yaml.compose with the depth limit. A file libyaml cannot read is read again by
    PyYAML's own parser, so that what is wrong is said in one way (libyaml words a few
    problems differently and has a depth limit of its own)."""
    try:
        return _compose_by(_Loader, text)
    except yaml.YAMLError:
        if _Loader is _PyLoader:
            raise
    return _compose_by(_PyLoader, text)


def _compose_by(loader_class: type, text: str) -> yaml.Node | None:
    """Compose with ``loader_class``; running out of stack anyway is _TooDeep too."""
    loader = loader_class(text)
    try:
        node: yaml.Node | None = loader.get_single_node()
        return node
    except RecursionError:
        # Out of stack before MAX_YAML_DEPTH: the caller was already deep.
        raise _TooDeep(
            problem="nested too deeply to read (ran out of stack)", problem_mark=loader.mark
        ) from None
    finally:
        loader.dispose()


def _document(ctx: _Ctx, text: str) -> yaml.Node | None:
    try:
        node = _compose(text)
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow; not "marked"
        line = text.count("\n", 0, exc.position) + 1 if isinstance(exc.position, int) else None
        char = exc.character
        what = f"character #x{char:04x}" if isinstance(char, int) else f"{char!r}"
        ctx.problems.append(
            Problem(ctx.path, line, "(yaml)", f"not valid YAML: {exc.reason} (got {what})")
        )
        return None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        message = exc.problem if isinstance(exc, _TooDeep) else f"not valid YAML: {exc.problem}"
        ctx.problems.append(Problem(ctx.path, line, "(yaml)", one_line(str(message))))
        return None
    except yaml.YAMLError as exc:
        ctx.problems.append(Problem(ctx.path, None, "(yaml)", one_line(f"not valid YAML: {exc}")))
        return None
    if node is None:
        ctx.problems.append(
            Problem(
                ctx.path, None, "(file)", f"is empty; a rule base needs {', '.join(REQUIRED_TOP)}"
            )
        )
    return node


def read_yaml(text: str, path: str) -> tuple[RuleBase | None, list[Problem]]:
    """The rule base of YAML ``text`` (None if any error) and every problem found, each
    with its line: ``fuzzeval.formats.loading.parse_rulebase`` is the cached way in."""
    ctx = _Ctx(path)
    root = _document(ctx, text)
    if root is None:
        return None, ctx.problems
    top = _mapping(ctx, root, "", TOP_KEYS)
    if top is None:
        return None, ctx.problems
    for key in REQUIRED_TOP:
        if key not in top:
            ctx.error(root, key, "missing: a rule base needs " + ", ".join(REQUIRED_TOP))

    def get(key: str, read: Callable[[yaml.Node, str], Any]) -> Any:
        return read(top[key][1], key) if key in top else None

    name = get("name", lambda n, k: _string(ctx, n, k))
    description = get("description", lambda n, k: _string(ctx, n, k)) or ""
    made_by = get("made_by", lambda n, k: _made_by(ctx, n, k)) or ""
    defuzz = get("defuzzifier", lambda n, k: _string(ctx, n, k))
    if defuzz is not None and defuzz not in DEFUZZIFIERS:
        ctx.error(
            top["defuzzifier"][1],
            "defuzzifier",
            f"must be one of {', '.join(DEFUZZIFIERS)} (got {defuzz!r})",
        )
        defuzz = None
    default = get("default", lambda n, k: _number(ctx, n, k))
    resolution = DEFAULT_RESOLUTION
    if "resolution" in top:
        rnode = top["resolution"][1]
        res = _number(ctx, rnode, "resolution")
        if res is not None and (not res.is_integer() or res < MIN_RESOLUTION):
            ctx.error(
                rnode, "resolution", f"must be a whole number >= {MIN_RESOLUTION} (got {res:g})"
            )
        elif res is not None:
            resolution = int(res)

    inputs: dict[str, Variable] = {}
    term_nodes: dict[str, dict[str, yaml.Node]] = {}
    input_nodes: dict[str, yaml.Node] = {}
    if "inputs" in top:
        entries = _mapping(ctx, top["inputs"][1], "inputs", ())
        if entries is not None and not entries:
            ctx.error(top["inputs"][1], "inputs", "must define at least one input variable")
        for vname, (knode, vnode) in (entries or {}).items():
            key = f"inputs.{vname}"
            if not _identifier(ctx, knode, key, vname):
                continue
            var, tn = _variable(ctx, vnode, key, vname, VARIABLE_KEYS, is_output=False)
            input_nodes[vname] = knode
            term_nodes[vname] = tn
            if var is not None:
                inputs[vname] = var

    output: Variable | None = None
    output_name: str | None = None
    out_terms: dict[str, yaml.Node] = {}
    if "output" in top:
        onode = top["output"][1]
        oentries = _mapping(ctx, onode, "output", OUTPUT_KEYS)
        if oentries is not None:
            if "name" not in oentries:
                ctx.error(onode, "output", "missing 'name'")
            else:
                _, nv = oentries["name"]
                output_name = _string(ctx, nv, "output.name")
                if output_name is not None and not _identifier(ctx, nv, "output.name", output_name):
                    output_name = None
                elif output_name in input_nodes:
                    ctx.error(
                        nv,
                        "output.name",
                        f"must differ from every input name (got {output_name!r})",
                    )
            output, out_terms = _variable(
                ctx, onode, "output", output_name or "output", OUTPUT_KEYS, is_output=True
            )
    if output is not None and defuzz == "centroid":
        for term in output.terms:
            if term.triangle.is_singleton:
                ctx.error(
                    out_terms.get(term.name),
                    f"output.terms.{term.name}",
                    "a singleton has no area, so the centroid cannot use it; widen it or "
                    "use 'defuzzifier: weighted_average' or 'weighted_sum'",
                )
    if output is not None and default is not None and not output.lo <= default <= output.hi:
        ctx.error(
            top["default"][1],
            "default",
            f"must lie inside the output range [{output.lo:g}, {output.hi:g}] (got {default:g})",
        )

    rules, located = (
        ([], [])
        if "rules" not in top
        else _rules(ctx, top["rules"][1], inputs, set(input_nodes), output, output_name)
    )

    _warn_unused(ctx, located, inputs, input_nodes, term_nodes, output, out_terms)
    if ctx.failed or output is None or name is None or defuzz is None or default is None:
        return None, ctx.problems
    rb = RuleBase(
        name,
        defuzz,
        default,
        tuple(inputs.values()),
        output,
        tuple(rules),
        resolution,
        description,
        made_by,
    )
    return rb, ctx.problems


#: the longest ``made_by:`` line: a command with its options (a learn's with every option
#: is about 400 characters), not a story
MAX_MADE_BY_CHARS = 1000


def _made_by(ctx: _Ctx, node: yaml.Node, key: str) -> str | None:
    """Where the rule base came from: one line of text (an advice header prints it)."""
    text = _string(ctx, node, key)
    if text is None:
        return None
    if "\n" in text.strip() or len(text) > MAX_MADE_BY_CHARS:
        ctx.error(
            node,
            key,
            f"must be one line of at most {MAX_MADE_BY_CHARS:,} characters, e.g. 'written by "
            f"hand' or the command that made the file (got {len(text):,} characters"
            + (", several lines)" if "\n" in text.strip() else ")"),
        )
        return None
    control = next((c for c in text.strip() if not c.isprintable()), None)
    if control is not None:  # a terminal would act on it when an advice header prints it
        ctx.error(node, key, f"must be printable text (got character #x{ord(control):04x})")
        return None
    return text.strip()


def _warn_unused(
    ctx: _Ctx,
    located: list[tuple[int, yaml.Node, Rule]],
    inputs: dict[str, Variable],
    input_nodes: dict[str, yaml.Node],
    term_nodes: dict[str, dict[str, yaml.Node]],
    output: Variable | None,
    out_terms: dict[str, yaml.Node],
) -> None:
    if not located:
        return
    used = {(c.variable, c.term) for _, _, r in located for c in conditions_used(r.condition)}
    used_out = {r.output_term for _, _, r in located}
    for var in inputs.values():
        if not any(v == var.name for v, _ in used):
            ctx.warn(
                input_nodes.get(var.name),
                f"inputs.{var.name}",
                "no rule uses this variable, so it cannot change a grade",
            )
            continue
        for t in var.terms:
            if (var.name, t.name) not in used:
                ctx.warn(
                    term_nodes[var.name].get(t.name),
                    f"inputs.{var.name}.terms.{t.name}",
                    "no rule uses this term",
                )
    for t in output.terms if output is not None else ():
        if t.name not in used_out:
            ctx.warn(
                out_terms.get(t.name), f"output.terms.{t.name}", "no rule concludes on this term"
            )

