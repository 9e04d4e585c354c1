"""``fuzzeval studio``: the rule-base studio in a browser (fuzzeval.studio); Starlette and
uvicorn are imported when it runs, so the command line starts as fast without them."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from fuzzeval.cli.common import console, err_console, user_errors


def studio(
    paths: Annotated[list[str] | None, typer.Argument(
        metavar="[RULEBASE|FOLDER]...",
        help="Rule-base files, shipped names, calibration databases or folders (none: the "
             "shipped rule bases, read-only, and this folder).")] = None,
    port: Annotated[int, typer.Option("--port", min=0, max=65535,
                                      help="Port to listen on (0: any free one).")] = 8765,
    host: Annotated[str, typer.Option(
        "--host", help="Address to listen on: 127.0.0.1 is this machine only.")] = "127.0.0.1",
    no_open: Annotated[bool, typer.Option("--no-open",
                                          help="Print the address; open no browser.")] = False,
) -> None:
    """Edit, explain and draw rule bases in a browser, until Ctrl-C.

    Prints the studio's address, which carries a token made at each launch: only a page opened from it may read or write files, and only inside the folders given.
    """  # noqa: E501 - one line per paragraph: the help renderer keeps line breaks
    from fuzzeval.extras import STUDIO, STUDIO_SERVER

    with user_errors():
        STUDIO.require("fuzzeval studio")
        STUDIO_SERVER.require("fuzzeval studio")
        from fuzzeval.studio import serve
        from fuzzeval.studio.app import build_app
        from fuzzeval.studio.security import new_token
        from fuzzeval.studio.workspace import workspace_of

        local = serve.check_host(host)
        workspace = workspace_of(paths or [], Path.cwd())
        token = new_token()
        sock = serve.bind(host, port)
    if not local:
        err_console.print(f"warning: listening on {host}: other machines can reach the "
                          "studio, and anyone with its address can change the files in it",
                          markup=False, highlight=False)
    url = serve.address(sock, token)
    console.print(f"fuzzeval studio at {url} (Ctrl-C stops it)", markup=False,
                  highlight=False, soft_wrap=True)
    if not no_open:
        import webbrowser

        webbrowser.open(url)
    serve.run(build_app(workspace, token), sock)
