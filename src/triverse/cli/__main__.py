"""``python -m triverse.cli``: the ``triverse`` command."""

from triverse.cli import main

raise SystemExit(main())
