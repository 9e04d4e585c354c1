"""A rule base is read by YAML's composer over libyaml's parser where PyYAML has it (a tenth
of the time: the fuzzy advisor reads one on every command), else over PyYAML's own: both
give PyYAML's own nodes, marks and located problems."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from fuzzeval.formats import yaml_read
from tests.test_loading_limits import DEEP_YAML, _errors, _text

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted([*(ROOT / "rulebases").glob("*.yaml"), *(ROOT / "tests" / "data").glob("*.yaml")])
PARSERS = [pytest.param(yaml_read._PyParser, id="pyyaml")]
if yaml_read._CParser is not None:
    PARSERS.insert(0, pytest.param(yaml_read._CParser, id="libyaml"))


def _tree(node: Any) -> Any:
    """A node as plain data: tag, value and where it starts and ends."""
    where = (node.start_mark.line, node.start_mark.column, node.end_mark.line,
             node.end_mark.column)
    if isinstance(node, yaml.ScalarNode):  # a plain scalar's style: libyaml '', PyYAML None
        return node.tag, node.value, node.style or None, where
    if isinstance(node, yaml.MappingNode):
        return node.tag, [(_tree(k), _tree(v)) for k, v in node.value], where
    return node.tag, [_tree(v) for v in node.value], where


@pytest.fixture(params=PARSERS)  # what is wrong is said alike: libyaml's errors are re-read
def parser(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> type:
    monkeypatch.setattr(yaml_read, "_Loader", yaml_read._loader_over(request.param))
    return request.param  # type: ignore[no-any-return]


def test_the_libyaml_parser_is_used_where_pyyaml_has_it() -> None:
    assert yaml.__with_libyaml__ == (yaml_read._CParser is not None)
    assert issubclass(yaml_read._Loader, yaml_read._CParser or yaml_read._PyParser)


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_every_shipped_and_test_base_composes_to_pyyamls_own_nodes(path: Path,
                                                                   parser: type) -> None:
    text = path.read_text()
    assert _tree(yaml_read._compose(text)) == _tree(yaml.compose(text, Loader=yaml.SafeLoader))


@pytest.mark.parametrize(("tail", "line"), DEEP_YAML)
def test_nesting_too_deep_is_the_same_located_problem(tail: str, line: int,
                                                      parser: type) -> None:
    assert _errors(_text() + tail + "\n") == [
        f"h.yaml:{line}: (yaml): lists and mappings may nest at most 100 levels deep "
        "(got level 101)"]


def test_a_character_yaml_refuses_is_the_same_located_problem(parser: type) -> None:
    assert _errors(_text() + "extra: a\x07b\n") == [
        "h.yaml:15: (yaml): not valid YAML: special characters are not allowed "
        "(got character #x0007)"]


def test_a_syntax_error_is_located_alike(parser: type) -> None:
    (error,) = _errors(_text() + "extra: [1, 2\n")
    assert error.startswith("h.yaml:16: (yaml): not valid YAML: ")
