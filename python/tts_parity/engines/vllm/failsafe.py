"""The recorder never stops the engine: whatever fails inside its hooks (a folder it cannot write, a full disk, a
tensor of a shape it does not expect) is caught where the recorder's own code runs, said in one line on stderr
naming the requests and what failed, and recording stops for those requests; vLLM's own calls are never inside
these guards, so the engine's exceptions stay the engine's. No vLLM import here."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable

PREFIX = "tts_parity vLLM recorder"


def one_line(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def report(who: str, what: str, error: BaseException, consequence: str) -> None:
    """`<prefix>: <who>: <what> failed (<error>); <consequence>` on stderr, flushed at once (a worker may die next)."""
    print(f"{PREFIX}: {who}: {what} failed ({one_line(error)}); {consequence}", file=sys.stderr, flush=True)


def requests_label(req_ids: Iterable[str]) -> str:
    ids = sorted(set(req_ids))
    if not ids:
        return "no request"
    return ("request " if len(ids) == 1 else "requests ") + ", ".join(ids)
