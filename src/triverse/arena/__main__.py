"""``python -m triverse.arena``: the arena's own command line (as ``triverse arena``)."""

import sys

from triverse.arena import main

sys.exit(main())
