"""Entry point of `python3 -m tts_parity.capture_check` (cli.py)."""

from __future__ import annotations

import sys

from .cli import main

sys.exit(main())
