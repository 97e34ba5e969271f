"""The server's logs: one event per accepted move, and JSON lines for log collectors.

- :data:`MOVES` (the ``triverse.moves`` logger) gets one ``INFO`` record per move stored, with
  the match id, the game, the move number, the seat, who played it (``human``, ``computer`` or
  ``timeout``) and the server's handling time in milliseconds as fields of the record
  (:func:`log_move`). Never a token, a seed or a notation: a move's event says that a move was
  made and how long it took, not what it was;
- :class:`JsonFormatter` writes any record as one JSON object a line: ``time``, ``level``,
  ``logger``, ``message``, and the record's own fields (a move's, an access line's);
- :func:`logging_config` is the ``logging.config.dictConfig`` that ``triverse serve`` gives
  uvicorn: uvicorn's own lines and the ``triverse`` loggers at ``INFO``, as text
  (``TRIVERSE_LOG_FORMAT=text``, the default) or as JSON lines (``json``, ``--log-json``).

>>> import json
>>> record = logging.makeLogRecord({"name": "triverse.moves", "levelno": 20,
...     "levelname": "INFO", "msg": "match %s: move %d", "args": ("m1", 3), "created": 0,
...     "match": "m1", "move": 3, "latency_ms": 1.25})
>>> json.loads(JsonFormatter().format(record))  # doctest: +NORMALIZE_WHITESPACE
{'time': '1970-01-01T00:00:00.000Z', 'level': 'INFO', 'logger': 'triverse.moves',
 'message': 'match m1: move 3', 'match': 'm1', 'move': 3, 'latency_ms': 1.25}
"""

from __future__ import annotations

import copy
import json
import logging
from datetime import UTC, datetime
from typing import Any

from triverse.server.config import LogFormat
from triverse.server.guards import redact

MOVES = logging.getLogger("triverse.moves")
"""One ``INFO`` record per move stored (:func:`log_move`)."""

PLAYERS = ("human", "computer", "timeout")
"""Who made a move: a person's action, a computer seat's move, or a time-out the server
recorded for a person whose turn ran out."""

_PLAIN = frozenset(logging.makeLogRecord({}).__dict__) | {"message", "asctime", "color_message"}
"""A record's attributes that are not fields of its own (``color_message``: uvicorn's copy of
the message with terminal colours)."""

ACCESS_FIELDS = ("client", "method", "path", "http_version", "status")
"""The arguments of a uvicorn access-log record, in order, as JSON fields."""


def log_move(match_id: str, game: str, number: int, seat: int, player: str,
             seconds: float) -> None:
    """Log the move ``number`` of a match, made by ``seat`` (``player``: see :data:`PLAYERS`),
    which the server handled in ``seconds``."""
    if not MOVES.isEnabledFor(logging.INFO):
        return
    ms = round(seconds * 1000, 3)
    MOVES.info("match %s (%s): move %d by seat %d (%s) in %.1f ms", match_id, game, number,
               seat, player, ms, extra={"event": "move", "match": match_id, "game": game,
                                        "move": number, "seat": seat, "player": player,
                                        "latency_ms": ms})


class JsonFormatter(logging.Formatter):
    """One JSON object a line: ``time`` (UTC, ISO 8601, milliseconds), ``level``, ``logger``,
    ``message``, then the record's own fields (``extra=``), ``exception`` and ``stack`` when it
    has them. A uvicorn access line's arguments become ``client``, ``method``, ``path``,
    ``http_version`` and ``status``. Seat tokens are redacted from the whole line, as from the
    text logs (:func:`triverse.server.guards.redact`)."""

    def format(self, record: logging.LogRecord) -> str:
        moment = datetime.fromtimestamp(record.created, UTC)
        entry: dict[str, Any] = {
            "time": moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in record.__dict__.items():
            if key not in _PLAIN and not key.startswith("_"):
                entry[key] = value
        if (record.name == "uvicorn.access" and isinstance(record.args, tuple)
                and len(record.args) == len(ACCESS_FIELDS)):
            entry.update(zip(ACCESS_FIELDS, record.args, strict=True))
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return redact(json.dumps(entry, default=str, ensure_ascii=False))


def logging_config(log_format: LogFormat = "text", level: str = "info") -> dict[str, Any]:
    """The logging configuration of ``triverse serve`` (uvicorn's ``log_config``): uvicorn's
    own, with the ``triverse`` loggers (the moves among them) sent to uvicorn's default handler
    at ``level``; with ``json``, every handler writes :class:`JsonFormatter` lines.

    >>> logging_config("json")["formatters"]["access"]
    {'()': 'triverse.server.logs.JsonFormatter'}
    >>> logging_config()["loggers"]["triverse"]
    {'handlers': ['default'], 'level': 'INFO', 'propagate': False}
    """
    from uvicorn.config import LOGGING_CONFIG

    config: dict[str, Any] = copy.deepcopy(LOGGING_CONFIG)
    if log_format == "json":
        json_lines = {"()": f"{__name__}.{JsonFormatter.__name__}"}
        config["formatters"] = {name: dict(json_lines) for name in config["formatters"]}
    config["loggers"]["triverse"] = {"handlers": ["default"], "level": level.upper(),
                                     "propagate": False}
    return config
