"""``python -m remis.cli`` runs the command line."""

import sys

from remis.cli import main

sys.exit(main())
