"""Saving a game record without ever losing one: ask before replacing a file, refuse to
replace one when nobody can be asked, and write atomically (a crash or a full disk
leaves the old file whole).

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> write_atomically(folder / "g.json", "{}\\n")
>>> (folder / "g.json").read_text(), free_name(folder / "g.json").name
('{}\\n', 'g-2.json')
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shlex
import tempfile
import time
from pathlib import Path
from typing import Final

from rich.console import Console
from rich.markup import escape

from euchre.cli.lang import N_, _, ngettext
from euchre.cli.options import command_name
from euchre.cli.prompt import Prompter
from euchre.notation import GameRecord
from euchre.userdirs import data_folder

__all__ = ["SaveTarget", "describe_file", "free_name", "games_folder", "keep_game",
           "offer_save", "write_atomically"]


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder, flushed to
    the disk, then renamed over ``path``: readers see the old file or the new one, never
    a part.  A file replaced keeps its permissions."""
    folder = path.parent
    try:
        mode = path.stat().st_mode & 0o777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def free_name(path: Path) -> Path:
    """The first of ``g-2.json``, ``g-3.json``… that does not exist yet."""
    k = 2
    while True:
        candidate = path.with_name(f"{path.stem}-{k}{path.suffix}")
        if not candidate.exists():
            return candidate
        k += 1


def describe_file(path: Path) -> str:
    """What a file about to be replaced holds, in a few words (or ``""``)."""
    try:
        with path.open(encoding="utf-8") as f:
            record = json.loads(f.readline())
    except (OSError, UnicodeDecodeError, ValueError):
        return ""
    if not isinstance(record, dict) or not isinstance(record.get("deals"), list):
        return ""
    deals = len(record["deals"])
    if record.get("winners"):
        return ngettext("a saved finished game of {n} deal", "a saved finished game of {n} deals",
                        deals).format(n=deals)
    return ngettext("a saved unfinished game of {n} deal",
                    "a saved unfinished game of {n} deals", deals).format(n=deals)


class SaveTarget:
    """Where the game record goes, and how to say it."""

    def __init__(self, console: Console, prompter: Prompter, overwrite: bool = False) -> None:
        self.console = console
        self.prompter = prompter
        self.overwrite = overwrite

    def refusal(self, path: Path) -> str | None:
        """Before the game: why ``--save path`` cannot be honoured without asking, when
        nobody can be asked (``None``: it can)."""
        try:
            return self._refusal(path)
        except OSError as e:  # a name too long, say
            return f"--save {_shown(path)}: {e.strerror or e}"

    def _refusal(self, path: Path) -> str | None:
        if path.is_dir():
            return _("--save {path}: that is a folder; give a file name").format(path=path)
        if not path.parent.is_dir():
            return _("--save {path}: there is no folder {folder}").format(
                path=path, folder=path.parent)
        if path.exists() and not self.overwrite and not self.prompter.interactive:
            held = describe_file(path)
            return _("--save {path}: the file already exists{held} and there is no terminal "
                     "to ask whether to replace it; choose another file name, or add "
                     "--overwrite").format(path=path, held=f" ({held})" if held else "")
        return None

    def _unwritable(self, path: Path) -> str | None:
        """Why the record cannot go to ``path``, said before anything is asked: a folder
        given for a file, or a folder that is not there (``None``: it may be written)."""
        try:
            if path.is_dir():
                return _("{path} is a folder; give a file name").format(path=_shown(path))
            if not path.parent.is_dir():
                return _("there is no folder {folder}").format(folder=_shown(path.parent))
        except OSError as e:  # a name too long, say
            return _("{path}: {reason}").format(path=_shown(path), reason=_reason(e))
        return None

    def may_ask(self) -> bool:
        """Whether a question may be asked: at a terminal, before the input ended."""
        return self.prompter.interactive and not self.prompter.ended

    def save(self, path: Path, record: GameRecord) -> bool:
        """Write the record to ``path``; an existing file is replaced only if the person
        says so (or ``--overwrite``).  When nobody can be asked it goes to a free name
        beside it instead.  Says where it went, or why not."""
        refusal = self._unwritable(path)
        if refusal is not None:
            self.console.print("[red]" + _("Could not save the game record:") + f"[/] {refusal}")
            return False
        if path.exists() and not self.overwrite:
            if not self.may_ask():
                spare = free_name(path)
                self.console.print(_("{path} already exists and is kept; this game goes to "
                                     "{spare} instead.").format(path=escape(str(path)),
                                                                spare=escape(str(spare))))
                path = spare
            else:
                held = describe_file(path)
                question = _("{path} already exists{held}. Replace it?").format(
                    path=escape(str(path)), held=f" ({held})" if held else "")
                try:
                    replace = self.prompter.confirm(question)
                except (EOFError, KeyboardInterrupt):
                    self.console.print()
                    replace = False
                if not replace:
                    self.console.print(_("Kept {path} as it was.").format(
                        path=escape(str(path))))
                    return False
        try:
            write_atomically(path, json.dumps(record.to_json()) + "\n")
        except OSError as e:  # the reason, without the temporary file's name
            self.console.print("[red]" + _("Could not save the game record:") + "[/] "
                               + _("{path}: {reason}").format(path=_shown(path),
                                                              reason=_reason(e)))
            return False
        quoted = escape(shlex.quote(str(path)))
        saved = _("Saved the game record to {path}").format(path=escape(str(path)))
        # soft wrap: a long path stays whole, so that it can be copied
        if record.winners:
            self.console.print(f"{saved} [dim]({escape(command_name())} replay {quoted})[/]",
                               soft_wrap=True)
        else:  # an unfinished game: how to go on with it
            self.console.print(saved, soft_wrap=True)
            self.console.print(_("To go on with this game: {command}").format(
                command=f"[bold]{escape(command_name())} play --resume {quoted}[/]"),
                soft_wrap=True)
        return True


_REASONS: Final = {
    errno.EACCES: N_("you may not write there"),
    errno.EPERM: N_("you may not write there"),
    errno.EROFS: N_("that disk is read-only"),
    errno.ENOSPC: N_("the disk is full"),
    errno.ENAMETOOLONG: N_("the name is too long"),
}
"""Why a file could not be written, for the causes a player meets, in words."""


def _reason(error: OSError) -> str:
    """Why ``error`` happened, in the player's words where known (else the system's)."""
    known = _REASONS.get(error.errno or 0)
    return _(known) if known is not None else escape(error.strerror or type(error).__name__)


def _shown(path: Path) -> str:
    """A path in a message, markup escaped; a very long one keeps its end (the file's
    name): ``…xxxx.json``."""
    text = str(path)
    return escape(text if len(text) <= 60 else "…" + text[-59:])


def offer_save(target: SaveTarget, record: GameRecord, save: Path | None) -> None:
    """Save to ``--save``, then (or else) offer to save when a person sits at a terminal,
    until the game is saved or the person declines with Enter.  An unfinished game that
    nobody could be asked about, or whose question was cut (Ctrl-C, Ctrl-D), and any game
    when the program is told to stop, goes to :func:`games_folder` (:func:`keep_game`)."""
    if save is not None and target.save(save, record):
        return
    while target.may_ask():
        try:
            name = target.prompter.ask(
                _("Save the game record? File name [dim](Enter to skip)[/] › "))
        except (EOFError, KeyboardInterrupt):
            target.console.print()
            break
        if not name:
            return
        if target.save(Path(name).expanduser(), record):
            return
    if not record.winners or target.prompter.stopped is not None:
        keep_game(target, record, None)


def games_folder() -> Path:
    """Where an unfinished game is saved when no file was named: ``games`` in euchre's
    folder of the user's data directory (:func:`euchre.userdirs.data_folder`:
    ``$XDG_DATA_HOME/euchre``, else ``~/.local/share/euchre``, on Linux)."""
    return data_folder() / "games"


def keep_game(target: SaveTarget, record: GameRecord, save: Path | None) -> bool:
    """Save a game (one stopped before its end) without asking anything: to ``--save``
    (beside it when that file exists), else, or when that fails, to a new file of
    :func:`games_folder`; the screen says where, and how to go on.  Whether it was saved."""
    if save is not None and target.save(save, record):
        return True
    folder = games_folder()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        target.console.print("[red]" + _("Could not save the game record:") + "[/] "
                             + _("{path}: {reason}").format(path=_shown(folder),
                                                            reason=_reason(e)))
        return False
    path = folder / time.strftime("game-%Y-%m-%d-%H%M%S.json")
    return target.save(free_name(path) if path.exists() else path, record)
