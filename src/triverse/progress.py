"""How far a run of games has got, for ``triverse simulate`` and ``triverse arena``.

On a terminal it is a Rich progress bar; elsewhere (a log, a pipe, a test) it is either a plain
line every tenth of the games or nothing at all, so machine-readable output stays clean. It only
ever writes to the stream it is given (the commands give it standard error).

>>> import io
>>> log = io.StringIO()
>>> with Progress(20, log) as bar:
...     for done in range(1, 21):
...         bar.update(done)
>>> log.getvalue().splitlines()[0].startswith("2/20 games")
True
>>> quiet = io.StringIO()
>>> with Progress(20, quiet, lines=False) as bar:
...     bar.update(20)
>>> quiet.getvalue()
''
"""

from __future__ import annotations

import time
from types import TracebackType
from typing import TextIO

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.progress import Progress as RichProgress


class Progress:
    """Progress through ``total`` games, shown on ``stream`` (``None``: not shown).

    A terminal gets a Rich bar; another stream gets a line every tenth of the games when
    ``lines`` is true, and nothing otherwise. :meth:`close` (or the end of a ``with`` block)
    finishes the bar.
    """

    def __init__(self, total: int, stream: TextIO | None, *, lines: bool = True,
                 what: str = "games") -> None:
        self.total, self.stream, self.lines, self.what = total, stream, lines, what
        self.start = time.monotonic()
        self.next_tenth = 1
        self._bar: RichProgress | None = None
        self._task: TaskID | None = None
        if stream is not None and stream.isatty():
            self._bar = RichProgress(
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn(f"{what} ·"),
                TimeElapsedColumn(),
                TextColumn("·"),
                TimeRemainingColumn(),
                TextColumn("left"),
                console=Console(file=stream),
                auto_refresh=False,  # no drawing thread: arena workers fork from this process
            )
            self._task = self._bar.add_task("", total=total)
            self._bar.start()

    @property
    def terminal(self) -> bool:
        """Whether the progress is a bar on a terminal."""
        return self._bar is not None

    def update(self, done: int) -> None:
        """``done`` games of the total are finished."""
        if self._bar is not None and self._task is not None:
            self._bar.update(self._task, completed=done, refresh=True)
            return
        stream = self.stream
        if stream is None or not self.lines:
            return
        if done * 10 >= self.next_tenth * self.total or done == self.total:
            elapsed = time.monotonic() - self.start
            eta = elapsed / done * (self.total - done) if done else 0.0
            stream.write(f"{done}/{self.total} {self.what}, {elapsed:.0f}s, "
                         f"about {eta:.0f}s left\n")
            stream.flush()
            while self.next_tenth * self.total <= done * 10:
                self.next_tenth += 1

    def close(self) -> None:
        """Finish the bar (it stays on the screen at its last state)."""
        if self._bar is not None:
            self._bar.stop()
            self._bar = None

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


__all__ = ["Progress"]
