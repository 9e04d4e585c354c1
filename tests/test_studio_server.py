"""The studio's server, through Starlette's TestClient: the token, same-origin writes, the
body cap, file names confined to the studio's folders."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path
from urllib.parse import unquote
from xml.etree import ElementTree

import pytest

pytest.importorskip("starlette", reason="the studio extra is not installed")
from starlette.testclient import TestClient

from fuzzeval.studio.app import build_app
from fuzzeval.studio.security import MAX_BODY, Refused, confine
from fuzzeval.studio.workspace import workspace_of
from tests.conftest import RULEBASES

TOKEN = "launch-token"
H = {"x-studio-token": TOKEN}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    work = tmp_path / "work"
    work.mkdir()
    shutil.copy(RULEBASES / "tipping.yaml", work / "tipping.yaml")
    return work


@pytest.fixture
def client(folder: Path) -> TestClient:
    return TestClient(build_app(workspace_of([str(folder)], folder), TOKEN),
                      base_url="http://127.0.0.1:8765")


def test_every_request_needs_the_token(client: TestClient) -> None:
    for url in ("/", "/static/studio.js", "/api/files", "/api/file?id=0/tipping.yaml"):
        assert client.get(url).status_code == 403, url
        assert client.get(url + ("&" if "?" in url else "?") + "token=wrong").status_code == 403
        assert client.get(url, headers={"x-studio-token": "wrong"}).status_code == 403
    refused = client.get("/api/files")
    assert refused.text.startswith("forbidden: open the address fuzzeval studio printed")
    assert client.post("/api/check", json={"text": "", "path": "x"}).status_code == 403


def test_the_page_and_its_files_come_with_the_token_in_the_address(client: TestClient,
                                                                   folder: Path) -> None:
    page = client.get(f"/?token={TOKEN}")
    assert page.status_code == 200 and page.headers["cache-control"] == "no-store"
    assert f'content="{TOKEN}"' in page.text and "{{TOKEN}}" not in page.text
    assert client.get(f"/static/studio.js?token={TOKEN}").headers["content-type"].startswith(
        "text/javascript")
    assert client.get(f"/static/nothing.js?token={TOKEN}").status_code == 404
    assert client.get("/api/files", headers=H).json() == {
        "files": [{"id": "0/tipping.yaml", "name": "tipping.yaml",
                   "folder": str(folder.resolve()), "writable": True}],
        "folders": [{"index": 0, "folder": str(folder.resolve()), "name": "work"}]}


def test_the_page_s_icon_is_inline_and_every_file_it_names_loads(client: TestClient) -> None:
    """A browser asks for /favicon.ico unless the page names an icon, and that request,
    without the token, was refused (403, an error in the page's console)."""
    page = client.get(f"/?token={TOKEN}").text
    links = re.findall(r'<link rel="([a-z]+)" href="([^"]+)">', page)
    assert [rel for rel, _ in links] == ["icon", "stylesheet"]
    icon = dict(links)["icon"]
    assert icon.startswith("data:image/svg+xml,")
    svg = ElementTree.fromstring(unquote(icon.removeprefix("data:image/svg+xml,")))
    assert svg.tag == "{http://www.w3.org/2000/svg}svg"
    assert svg[0].get("fill") == "#1f77b4"  # the %23 read back as #
    named = re.findall(r'(?:href|src)="(/[^"]*)"', page)
    assert named == [f"/static/studio.css?token={TOKEN}", f"/static/studio.js?token={TOKEN}"]
    assert [client.get(url).status_code for url in named] == [200, 200]


def test_a_write_needs_the_header_token_and_the_same_origin(client: TestClient) -> None:
    body = {"text": "name: x\n", "path": "x.yaml"}
    # the token in the address is for what a browser loads, never for a write
    assert client.post(f"/api/check?token={TOKEN}", json=body).status_code == 403
    assert client.post("/api/check", json=body, headers=H).status_code == 200
    same = {**H, "origin": "http://127.0.0.1:8765"}
    assert client.post("/api/check", json=body, headers=same).status_code == 200
    other = client.post("/api/check", json=body, headers={**H, "origin": "http://evil.test"})
    assert (other.status_code, other.text) == (
        403, "forbidden: a write from another origin (http://evil.test)\n")
    site = client.post("/api/check", json=body, headers={**H, "sec-fetch-site": "cross-site"})
    assert site.status_code == 403


def test_a_body_over_a_megabyte_is_refused(client: TestClient) -> None:
    small = client.post("/api/check", headers=H, json={"text": "x" * 900_000, "path": "a"})
    assert small.status_code == 200
    big = client.post("/api/check", headers=H, json={"text": "x" * MAX_BODY, "path": "a"})
    assert big.status_code == 413
    assert big.text == (f"a request body may hold at most 1,000,000 bytes "
                        f"(got {MAX_BODY + 22:,})\n")  # '{"text":"' and '","path":"a"}'


def test_confine_refuses_names_that_leave_the_folder(tmp_path: Path) -> None:
    inside = tmp_path / "in"
    (inside / "sub").mkdir(parents=True)
    (tmp_path / "secret.yaml").write_text("x")
    os.symlink(tmp_path / "secret.yaml", inside / "out.yaml")
    os.symlink(inside / "sub", inside / "here")
    assert confine(inside, "sub/a.yaml") == inside / "sub" / "a.yaml"
    assert confine(inside, "here/a.yaml") == inside / "here" / "a.yaml"  # a link inside
    for name in ("../secret.yaml", "sub/../../secret.yaml", "/etc/passwd", "", "out.yaml",
                 "~/x.yaml", "a\\..\\b.yaml", "a\0.yaml"):
        with pytest.raises(Refused):
            confine(inside, name)


def test_the_api_refuses_files_outside_its_folders(client: TestClient, folder: Path) -> None:
    (folder.parent / "secret.yaml").write_text("name: secret\n")
    os.symlink(folder.parent / "secret.yaml", folder / "link.yaml")
    (folder / "notes.txt").write_text("hello")
    for file_id in ("0/../secret.yaml", "0//etc/passwd.yaml", "0/link.yaml", "1/tipping.yaml",
                    "x/tipping.yaml", "0/notes.txt"):
        got = client.get("/api/file", params={"id": file_id}, headers=H)
        assert got.status_code == 403, file_id
    listed = [f["id"] for f in client.get("/api/files", headers=H).json()["files"]]
    assert listed == ["0/tipping.yaml"]  # the link out is not listed either
    text = (RULEBASES / "tipping.yaml").read_text()
    for name in ("../escape.yaml", "/tmp/escape.yaml", "link.yaml"):
        got = client.post("/api/save-as", headers=H, json={"folder": 0, "name": name,
                                                            "text": text})
        assert got.status_code in (403, 409), name
    assert not (folder.parent / "escape.yaml").exists()
    assert (folder.parent / "secret.yaml").read_text() == "name: secret\n"


def test_a_shipped_base_by_name_is_read_only(tmp_path: Path) -> None:
    client = TestClient(build_app(workspace_of(["tipping"], tmp_path), TOKEN))
    files = client.get("/api/files", headers=H).json()
    assert [(f["name"], f["writable"]) for f in files["files"]] == [("tipping.yaml", False)]
    opened = client.get("/api/file", params={"id": "0/tipping.yaml"}, headers=H).json()
    saved = client.post("/api/save", headers=H, json={"id": "0/tipping.yaml",
                                                      "text": opened["text"],
                                                      "stamp": opened["stamp"]})
    assert saved.status_code == 403
    assert "a shipped rule base is read-only" in saved.json()["error"]
    assert client.get("/api/file", params={"id": "0/cribbage_linguistic.yaml"},
                      headers=H).status_code == 403  # not among the files it was given


def test_malformed_requests_are_one_line_errors(client: TestClient) -> None:
    for body in (b"not json", b"[1]"):
        got = client.post("/api/check", headers={**H, "content-type": "application/json"},
                          content=body)
        assert got.status_code == 400 and "\n" not in got.json()["error"]
    got = client.post("/api/explain", headers=H, json={"text": 3, "path": "x"})
    assert got.json() == {"error": "field 'text': expected str"}


def test_a_folder_is_listed_to_a_depth_without_hidden_folders(tmp_path: Path) -> None:
    for name in ("a.yaml", "sub/b.yml", ".git/c.yaml", "node_modules/d.yaml",
                 "1/2/3/e.yaml", "1/2/3/4/f.yaml", "1/2/3/4/5/i.yaml", "g.txt", ".h.yaml"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x")
    client = TestClient(build_app(workspace_of([str(tmp_path)], tmp_path), TOKEN))
    listed = [f["name"] for f in client.get("/api/files", headers=H).json()["files"]]
    assert listed == ["1/2/3/4/f.yaml", "1/2/3/e.yaml", "a.yaml", "sub/b.yml"]  # 4 down
