"""``python -m euchre.server [--host H] [--port P] [--db PATH] [--bot-delay S] …``.

The same command as ``euchre serve``, declared once (:func:`euchre.cli.serve.serve_command`):
the web app on uvicorn until interrupted, with the same options, limits and refusals
(see ``docs/server.md``).
"""

from __future__ import annotations

import typer

from euchre.cli.serve import serve_command


def main(argv: list[str] | None = None) -> None:
    """Read the command line (``argv``, default: the process's) and serve."""
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False,
                      rich_markup_mode=None,
                      context_settings={"help_option_names": ["-h", "--help"]})
    app.command()(serve_command)
    typer.main.get_command(app)(args=argv, prog_name="python -m euchre.server")


if __name__ == "__main__":
    main()
