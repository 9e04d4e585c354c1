"""``fuzzeval evaluate`` against hostile input: ragged CSVs, clashing columns, repeated
inputs, NaN and infinities, and strict JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from fuzzeval.cli import app
from fuzzeval.cli.common import print_json

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def strict_loads(text: str) -> Any:
    """json.loads that fails on Infinity, -Infinity and NaN, as strict parsers do."""

    def refuse(constant: str) -> Any:
        raise AssertionError(f"not strict JSON: {constant}")

    return json.loads(text, parse_constant=refuse)


def one_error_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ") and "Traceback" not in err
    return lines[0]


def grade(quality: str, service: str) -> float:
    code, out, err = run("evaluate", "tipping", "-i", f"quality={quality}",
                         "-i", f"service={service}", "--json")
    assert code == 0, err
    return float(strict_loads(out)["grade"])


# --- 1. the CSV table -------------------------------------------------------------------


def test_csv_every_row_one_field_more_than_header_is_refused(tmp_path: Path) -> None:
    # pandas used to make the first column the index and shift every value one left
    src = tmp_path / "in.csv"
    src.write_text("quality,service\n1,2,3\n4,5,6\n")
    code, out, err = run("evaluate", "tipping", "--csv", str(src))
    assert code == 2 and out == ""
    line = one_error_line(err)
    assert f"{src}:2:" in line and "3 fields" in line and "header" in line


def test_csv_row_with_a_field_too_few_or_too_many_names_its_line(tmp_path: Path) -> None:
    src = tmp_path / "in.csv"
    src.write_text("quality,service\n1,2\n4\n")
    code, _, err = run("evaluate", "tipping", "--csv", str(src))
    assert code == 2 and f"{src}:3:" in one_error_line(err)
    src.write_text("quality,service\n1,2\n3,4\n5,6,7\n")
    code, _, err = run("evaluate", "tipping", "--csv", str(src))
    assert code == 2 and f"{src}:4:" in one_error_line(err)


def test_csv_line_numbers_count_blank_lines_and_quoted_newlines(tmp_path: Path) -> None:
    src = tmp_path / "in.csv"
    src.write_text('quality,service,note\n1,2,"two\nlines"\n\n4,5\n')
    code, _, err = run("evaluate", "tipping", "--csv", str(src))
    assert code == 2 and f"{src}:5:" in one_error_line(err)


def test_csv_with_the_output_column_already_is_refused(tmp_path: Path) -> None:
    src = tmp_path / "in.csv"
    src.write_text("quality,service,tip\n1,2,15\n")
    dest = tmp_path / "out.csv"
    code, out, err = run("evaluate", "tipping", "--csv", str(src), "-o", str(dest))
    assert code == 2 and out == "" and not dest.exists()
    line = one_error_line(err)
    assert f"{src}:1:" in line and "'tip'" in line


def test_csv_duplicate_column_names_are_refused(tmp_path: Path) -> None:
    src = tmp_path / "in.csv"
    src.write_text("quality,service,quality\n1,2,3\n")
    code, out, err = run("evaluate", "tipping", "--csv", str(src))
    assert code == 2 and out == ""
    line = one_error_line(err)
    assert f"{src}:1:" in line and "'quality'" in line and "twice" in line


def test_csv_bad_cell_names_file_line_and_column(tmp_path: Path) -> None:
    src = tmp_path / "in.csv"
    for cell, why in (("abc", "'abc' is not a number"), ("", "empty"), ("nan", "NaN")):
        src.write_text(f"quality,service\n1,2\n{cell},3\n")
        code, _, err = run("evaluate", "tipping", "--csv", str(src))
        line = one_error_line(err)
        assert code == 2 and f"{src}:3:" in line and "quality" in line and why in line


def test_csv_grades_the_right_columns_and_keeps_cells_verbatim(tmp_path: Path) -> None:
    src = tmp_path / "in.csv"
    src.write_text('id,service,quality\n007,9.8,6.50\n"a, b",inf,-1\n')
    code, out, err = run("evaluate", "tipping", "--csv", str(src))
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "id,service,quality,tip"
    assert lines[1].startswith("007,9.8,6.50,") and lines[2].startswith('"a, b",inf,-1,')
    assert float(lines[1].rsplit(",", 1)[1]) == pytest.approx(grade("6.5", "9.8"))
    assert float(lines[2].rsplit(",", 1)[1]) == pytest.approx(grade("0", "10"))


def test_csv_does_not_mix_with_single_grade_options(tmp_path: Path) -> None:
    src = tmp_path / "in.csv"
    src.write_text("quality,service\n1,2\n")
    code, _, err = run("evaluate", "tipping", "--csv", str(src), "-i", "quality=3")
    assert code == 2 and "--csv" in one_error_line(err)
    code, _, err = run("evaluate", "tipping", "-i", "quality=3", "-i", "service=3",
                       "-o", str(tmp_path / "out.csv"))
    assert code == 2 and "--output" in one_error_line(err)


# --- 2. repeated inputs -----------------------------------------------------------------


def test_duplicate_input_is_refused() -> None:
    code, out, err = run("evaluate", "tipping", "-i", "quality=1", "-i", "quality=9",
                         "-i", "service=3")
    assert code == 2 and out == ""
    line = one_error_line(err)
    assert "quality" in line and "twice" in line
    code, _, err = run("evaluate", "tipping", "-i", "service=3", "-i", " service=3")
    assert code == 2 and "service" in one_error_line(err)


# --- 3. NaN, infinities and strict JSON -------------------------------------------------


def test_explain_json_with_infinite_input_is_strict_json() -> None:
    code, out, err = run("evaluate", "tipping", "-i", "quality=inf", "-i", "service=3",
                         "--explain", "--json")
    assert code == 0, err
    data = strict_loads(out)
    assert data["inputs"]["quality"] == "inf"
    assert data["used"]["quality"] == 10.0 and data["clipped"] == ["quality"]
    code, out, _ = run("evaluate", "tipping", "-i", "quality=-inf", "-i", "service=3",
                       "--explain", "--json")
    assert strict_loads(out)["inputs"]["quality"] == "-inf"


def test_infinite_inputs_clip_to_the_range() -> None:
    assert grade("inf", "3") == pytest.approx(grade("10", "3"))
    assert grade("-inf", "3") == pytest.approx(grade("0", "3"))


def test_nan_input_is_refused_naming_the_option() -> None:
    code, out, err = run("evaluate", "tipping", "-i", "quality=nan", "-i", "service=3")
    assert code == 2 and out == ""
    line = one_error_line(err)
    assert "--input 'quality=nan'" in line and "row 0" not in line


def test_print_json_spells_non_finite_numbers_as_strings(
    capsys: pytest.CaptureFixture[str],
) -> None:
    print_json({"a": float("nan"), "b": [float("-inf"), np.float32("inf"), 1.5],
                "c": (np.float64("nan"), np.int64(3)), float("inf"): True, 2.5: None})
    data = strict_loads(capsys.readouterr().out)
    assert data == {"a": "nan", "b": ["-inf", "inf", 1.5], "c": ["nan", 3], "inf": True,
                    "2.5": None}


def test_csv_unclosed_quote_is_refused(tmp_path: Path) -> None:
    # the csv module would otherwise read '"2<newline>' as the number 2
    src = tmp_path / "in.csv"
    src.write_text('quality,service\n1,"2\n')
    code, out, err = run("evaluate", "tipping", "--csv", str(src))
    assert code == 2 and out == "" and f"{src}:" in one_error_line(err)


# --- a plain table is graded in bulk, to the same bytes as the exact reader --------------

_CELL = st.one_of(
    st.floats(allow_nan=False, width=64).map(repr),
    st.integers(-10, 20).map(str),
    st.sampled_from(["", " 5", "5 ", "1_0", "nan", "NaN", "inf", "-inf", "x", "1e400",
                     "\u0661", "\u00a0"]),
    st.text(alphabet=st.sampled_from(list('ab ,"\r\n\x00é5.')), max_size=4))


@settings(max_examples=150, deadline=None)
@given(cells=st.lists(st.tuples(_CELL, _CELL, _CELL), min_size=0, max_size=6),
       blanks=st.sets(st.integers(0, 6), max_size=2), end=st.sampled_from(["\n", "", "\r\n"]),
       order=st.sampled_from(["quality,service,note", "note,service,quality"]))
def test_the_bulk_path_grades_to_the_exact_readers_bytes_or_leaves_it_to_it(
        tmp_path_factory: pytest.TempPathFactory, cells: list[tuple[str, str, str]],
        blanks: set[int], end: str, order: str) -> None:
    """The bulk path (plain tables) gives what Python's csv reader and writer give, byte
    for byte, or declines the table; a problem is then named by the exact reader."""
    import io

    from fuzzeval.cli import evaluate as cmd
    from fuzzeval.cli.plain_csv import grade_plain
    from fuzzeval.engine.evaluator import compile_rulebase

    folder = tmp_path_factory.mktemp("plain")
    lines = [order] + [",".join(row) for row in cells]
    for k in sorted(blanks, reverse=True):
        lines.insert(min(k + 1, len(lines)), "")
    path = folder / "t.csv"
    path.write_bytes((end.join(lines) + end).encode("utf-8", "surrogatepass"))
    ev = compile_rulebase(cmd.open_rulebase("tipping"))
    exact = io.StringIO()
    try:
        exact_rows: int | str = cmd._grade_exact(path, ev, exact)
    except Exception as problem:
        exact_rows = str(problem)
    bulk = io.StringIO()
    try:
        rows = grade_plain(path, ev, bulk, lambda line, header: cmd._check_header(
            path, line, header, ev))
    except Exception as problem:
        assert str(problem) == exact_rows
        return
    if rows is not None:
        assert rows == exact_rows and bulk.getvalue() == exact.getvalue()


def test_a_plain_table_of_several_blocks_is_graded_in_bulk(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from fuzzeval.cli import evaluate as cmd
    from fuzzeval.cli import plain_csv
    from fuzzeval.engine.evaluator import compile_rulebase

    monkeypatch.setattr(plain_csv, "BLOCK_CHARS", 64)  # lines cut across blocks
    path = tmp_path / "t.csv"
    rows = [f"{i},{i % 11}.25,{(7 * i) % 11}.5,row {i}" for i in range(300)]
    path.write_text("id,quality,service,note\n" + "\n".join(rows))  # no last line end
    ev = compile_rulebase(cmd.open_rulebase("tipping"))
    bulk, exact = io.StringIO(), io.StringIO()
    assert plain_csv.grade_plain(path, ev, bulk, lambda line, header: None) == 300
    assert cmd._grade_exact(path, ev, exact) == 300
    assert bulk.getvalue() == exact.getvalue()
    # each line keeps its cells and gets its own row's grade (the engine's, not the file's)
    grade = float(ev.grade(np.array([[10.25, 4.5]]))[0])  # row 10: quality 10.25, service 4.5
    assert bulk.getvalue().splitlines()[11] == f"10,10.25,4.5,row 10,{grade!r}"
