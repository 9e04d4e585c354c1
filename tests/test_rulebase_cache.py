"""A rule-base file's parse is kept in the cache folder (fuzzeval.formats.loading), so that the next
process loads it without importing YAML: the one-hand advice's start-up."""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from fuzzeval.formats import loading
from fuzzeval.formats.loading import cache_folder, check_rulebase

ROOT = Path(__file__).resolve().parents[1]
TIPPING = (ROOT / "rulebases" / "tipping.yaml").read_text()
# an input no rule uses: a warning, which a cached load must still give
UNUSED = TIPPING.replace("inputs:\n", "inputs:\n  unused:\n    range: [0, 1]\n    terms:\n"
                         "      low: [0, 0, 1]\n", 1)

LOAD = """
import json, sys, warnings
from fuzzeval.formats.loading import check_rulebase
rb, problems = check_rulebase(sys.argv[1])
print(json.dumps({"rb": repr(rb), "problems": [str(p) for p in problems],
                  "yaml": "yaml" in sys.modules}))
"""


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache folder of this test's own, and no parse kept in this process."""
    monkeypatch.setenv("FUZZEVAL_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(loading, "_PARSED", {})
    return tmp_path / "cache" / "rulebases"


def _entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.pickle")) if folder.is_dir() else []


def test_the_next_process_loads_a_file_without_yaml_and_with_its_warnings(
        tmp_path: Path, cache: Path) -> None:
    path = tmp_path / "unused.yaml"
    path.write_text(UNUSED)
    env = {**os.environ, "FUZZEVAL_CACHE_DIR": str(tmp_path / "cache")}

    def load() -> dict[str, object]:
        done = subprocess.run([sys.executable, "-c", LOAD, str(path)], env=env,
                              capture_output=True, text=True, check=True)
        return json.loads(done.stdout)  # type: ignore[no-any-return]

    first = load()
    assert first["yaml"] is True
    assert len(_entries(cache)) == 1
    again = load()
    assert again["yaml"] is False  # the parse came from the cache
    assert again["rb"] == first["rb"] and "RuleBase(name='tipping'" in str(first["rb"])
    assert again["problems"] == first["problems"] == [
        f"{path}:12: warning: inputs.unused: no rule uses this variable, so it cannot "
        "change a grade"]  # tipping.yaml's inputs: are on line 11


def test_a_changed_file_is_read_again_and_each_path_has_its_own_entry(
        tmp_path: Path, cache: Path) -> None:
    path = tmp_path / "t.yaml"
    path.write_text(TIPPING)
    rb, _ = check_rulebase(path)
    assert rb is not None and rb.name == "tipping"
    path.write_text(TIPPING.replace("name: tipping", "name: tipped"))
    loading._PARSED.clear()
    rb, _ = check_rulebase(path)
    assert rb is not None and rb.name == "tipped"
    other = tmp_path / "u.yaml"
    other.write_text(UNUSED)
    loading._PARSED.clear()
    _, problems = check_rulebase(other)
    assert [p.path for p in problems] == [str(other)]
    assert len(_entries(cache)) == 3
    same = tmp_path / "v.yaml"  # t.yaml's text at another path: an entry of its own
    same.write_text(path.read_text())
    loading._PARSED.clear()
    check_rulebase(same)
    assert len(_entries(cache)) == 4


def test_a_damaged_entry_is_read_again_and_replaced(tmp_path: Path, cache: Path) -> None:
    path = tmp_path / "t.yaml"
    path.write_text(TIPPING)
    expected, _ = check_rulebase(path)
    (entry,) = _entries(cache)
    for damage in (b"", b"not a pickle", entry.read_bytes()[:40]):
        entry.write_bytes(damage)
        loading._PARSED.clear()
        rb, problems = check_rulebase(path)
        assert rb == expected and problems == []
        # written again, whole
        assert loading._from_cache(entry, TIPPING, str(path)) == (expected, ())


def test_text_parsed_directly_or_too_large_is_not_kept(
        tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    loading.parse_rulebase(TIPPING, "t.yaml")  # text from a caller: no file to key on
    assert _entries(cache) == []
    path = tmp_path / "t.yaml"
    path.write_text(TIPPING)
    monkeypatch.setattr(loading, "CACHE_MAX_BYTES", len(TIPPING) - 1)
    rb, _ = check_rulebase(path)
    assert rb is not None and _entries(cache) == []
    monkeypatch.setattr(loading, "CACHE_MAX_BYTES", len(TIPPING))
    loading._PARSED.clear()
    check_rulebase(path)
    assert len(_entries(cache)) == 1


def test_the_folder_keeps_at_most_its_entries_the_newest_kept(
        tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loading, "CACHE_ENTRIES", 4)
    counts = []
    for k in range(6):
        path = tmp_path / f"t{k}.yaml"
        path.write_text(TIPPING.replace("name: tipping", f"name: tipping{k}"))
        check_rulebase(path)
        entry = loading._cache_entry(path.read_text(), str(path))
        assert entry is not None
        os.utime(entry, ns=(k * 10**9, k * 10**9))  # written a second apart, whatever the disk
        counts.append(len(_entries(cache)))
    assert counts == [1, 2, 3, 4, 3, 4]  # past 4, the oldest go down to 3
    for k in (4, 5):  # the newest are kept
        text = TIPPING.replace("name: tipping", f"name: tipping{k}")
        entry = loading._cache_entry(text, str(tmp_path / f"t{k}.yaml"))
        assert entry is not None and entry in _entries(cache)


def test_no_cache_when_turned_off_or_when_the_folder_cannot_be_made(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loading, "_PARSED", {})
    path = tmp_path / "t.yaml"
    path.write_text(TIPPING)
    monkeypatch.setenv("FUZZEVAL_CACHE_DIR", "")
    assert cache_folder() is None
    assert check_rulebase(path)[0] is not None
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    monkeypatch.setenv("FUZZEVAL_CACHE_DIR", str(blocked))  # its rulebases/ cannot be made
    loading._PARSED.clear()
    rb, problems = check_rulebase(path)
    assert rb is not None and rb.name == "tipping" and problems == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file", "t.yaml"]


def test_a_refusal_a_failed_write_or_a_missing_reader_is_no_entry_and_no_error(
        tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A refusal can depend on more than the text (a rule read from deep in the stack runs
    out of it): only rule bases are kept. A write that fails (too deep to pickle, a full
    disk) leaves no part file; a reader whose source is not on disk reads again."""
    bad = tmp_path / "bad.yaml"
    bad.write_text(TIPPING.replace("defuzzifier: centroid", "defuzzifier: mean"))
    rb, problems = check_rulebase(bad)
    assert rb is None and problems and _entries(cache) == []
    path = tmp_path / "t.yaml"
    path.write_text(TIPPING)

    def too_deep(*_: object, **__: object) -> bytes:
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(pickle, "dumps", too_deep)
    rb, _ = check_rulebase(path)
    assert rb is not None and list(cache.iterdir()) == []  # no entry, no part file
    monkeypatch.undo()
    monkeypatch.setenv("FUZZEVAL_CACHE_DIR", str(tmp_path / "cache"))
    loading._PARSED.clear()
    check_rulebase(path)
    (entry,) = _entries(cache)

    def gone() -> tuple[object, ...]:
        raise FileNotFoundError("fuzzeval/formats/grammar.py")

    monkeypatch.setattr(loading, "_reader_stamp", gone)
    assert loading._from_cache(entry, TIPPING, str(path)) is None


def test_the_folder_is_the_users_cache_unless_named(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FUZZEVAL_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_folder() == tmp_path / "xdg" / "fuzzeval" / "rulebases"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_folder() == tmp_path / "home" / ".cache" / "fuzzeval" / "rulebases"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative")  # ignored, as the XDG spec says
    assert cache_folder() == tmp_path / "home" / ".cache" / "fuzzeval" / "rulebases"
    monkeypatch.setattr(os.path, "expanduser", lambda p: p)  # no home folder at all
    assert cache_folder() is None  # not a "~" folder in the working directory
    monkeypatch.setenv("FUZZEVAL_CACHE_DIR", str(tmp_path / "mine"))
    assert cache_folder() == tmp_path / "mine" / "rulebases"


def test_an_entry_is_another_texts_paths_or_readers_and_read_again(
        tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An entry holds its whole key: one whose name matches but whose text, path or reader
    differ (a checksum's collision, a fuzzeval whose reader changed) is not used."""
    from fuzzeval.formats import yaml_read

    path = tmp_path / "t.yaml"
    path.write_text(TIPPING)
    check_rulebase(path)
    (entry,) = _entries(cache)
    assert loading._from_cache(entry, TIPPING, str(path)) is not None
    assert loading._from_cache(entry, TIPPING + " ", str(path)) is None
    assert loading._from_cache(entry, TIPPING, str(path) + "x") is None
    reads: list[tuple[str, str]] = []
    real = yaml_read.read_yaml

    def read(text: str, where: str) -> object:
        reads.append((text, where))
        return real(text, where)

    monkeypatch.setattr(yaml_read, "read_yaml", read)
    monkeypatch.setattr(loading, "_reader_stamp", lambda: ("another reader",))
    loading._PARSED.clear()
    rb, _ = check_rulebase(path)
    assert rb is not None and reads == [(TIPPING, str(path))]  # read, not loaded
    assert loading._from_cache(entry, TIPPING, str(path)) == (rb, ())  # kept for the new one
    assert set(loading._READER_MODULES) == {
        "formats/loading.py", "formats/yaml_read.py", "formats/grammar.py",
        "engine/rulebase.py", "engine/membership.py", "errors.py"}


def test_the_readers_stamp_changes_with_its_sources(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    first = loading._reader_stamp()
    assert first == loading._reader_stamp()
    assert first[0] == sys.version
    files = [Path(str(f[0])) for f in first[1:]]  # type: ignore[index]
    assert [f.relative_to(ROOT / "fuzzeval").as_posix() for f in files[:-1]] \
        == list(loading._READER_MODULES)
    assert files[-1].name == "__init__.py"  # PyYAML's
    copy = tmp_path / "fuzzeval"
    copy.mkdir()
    for name in loading._READER_MODULES:
        (copy / name).parent.mkdir(exist_ok=True)
        (copy / name).write_text((ROOT / "fuzzeval" / name).read_text())
    monkeypatch.setattr(loading, "__file__", str(copy / "formats" / "loading.py"))
    before = loading._reader_stamp()
    os.utime(copy / "formats" / "grammar.py", ns=(0, 0))
    assert loading._reader_stamp() != before


def test_threads_writing_one_entry_write_files_of_their_own(
        tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Dask worker's threads may keep the same parse at once: each writes its own part
    file before the rename, so none renames a file another is still writing."""
    import threading

    path = tmp_path / "t.yaml"
    path.write_text(TIPPING)
    found = loading._parsed(TIPPING, str(path), keep=False)
    entry = loading._cache_entry(TIPPING, str(path))
    assert entry is not None
    both_written = threading.Barrier(2, timeout=10)
    renamed: list[str] = []
    real = os.replace

    def replace(src: Path, dst: Path) -> None:
        both_written.wait()  # neither renames before both have written
        renamed.append(Path(src).name)
        real(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    threads = [threading.Thread(target=loading._to_cache,
                                args=(entry, TIPPING, str(path), (found[0], ())))
               for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(renamed)) == 2
    assert loading._from_cache(entry, TIPPING, str(path)) == (found[0], ())
    assert list(cache.glob("*.part")) == []
