"""The JSON Schema accepts every shipped and test rule base and rejects broken ones."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator

from fuzzeval.formats.loading import parse_rulebase
from fuzzeval.formats.schema import rulebase_schema

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "rulebases").glob("*.yaml")) + sorted((ROOT / "tests/data").glob("*.yaml"))


def test_schema_is_valid() -> None:
    Draft202012Validator.check_schema(rulebase_schema())


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_valid_files_validate(path: Path) -> None:
    Draft202012Validator(rulebase_schema()).validate(yaml.safe_load(path.read_text()))


@pytest.mark.parametrize(
    "mutation",
    [
        lambda d: d.update(colour="red"),
        lambda d: d.update(defuzzifier="mean"),
        lambda d: d["inputs"]["quality"].update(range=[0]),
        lambda d: d["output"].pop("name"),
        lambda d: d["rules"].append("tip is high"),
        lambda d: d["inputs"].update({"and": d["inputs"]["quality"]}),
        lambda d: d["inputs"]["quality"]["terms"]["average"].update(adjust=["middle"]),
    ],
)
def test_broken_files_rejected_by_schema_and_loader(mutation: object) -> None:
    data = yaml.safe_load((ROOT / "rulebases" / "tipping.yaml").read_text())
    mutation(data)  # type: ignore[operator]
    assert list(Draft202012Validator(rulebase_schema()).iter_errors(data))
    rb, problems = parse_rulebase(yaml.safe_dump(data))
    assert rb is None and any(p.severity == "error" for p in problems)


@pytest.mark.pinned
def test_the_schema_says_what_a_bare_number_is() -> None:
    import json

    from fuzzeval.formats.schema import rulebase_schema

    assert json.dumps(rulebase_schema()).count('"description": "A singleton."') == 2
    output = rulebase_schema()["properties"]["output"]
    one_of = output["properties"]["terms"]["additionalProperties"]["oneOf"]
    assert one_of[1] == {"type": "number", "description": "A singleton."}  # a bare number
    assert one_of[2]["properties"]["points"] == {"type": "number",
                                                 "description": "A singleton."}


@pytest.mark.mutation_pin
def test_the_schema_and_the_reader_agree_on_the_least_resolution() -> None:
    """The JSON schema editors validate against says what the reader refuses: resolution
    11 is read, 10 is not."""
    from fuzzeval.formats.schema import rulebase_schema
    from fuzzeval.formats.yaml_read import MIN_RESOLUTION

    assert MIN_RESOLUTION == 11
    assert rulebase_schema()["properties"]["resolution"]["minimum"] == MIN_RESOLUTION
