"""The findings each example expects, read from its own source: a line ending in `# capture-check: RULE`
must be reported under RULE at that line, and no other line of the example's unsafe step may be."""

import re
from pathlib import Path

_MARKER = re.compile(r"#\s*capture-check:\s*([a-z-]+)\s*$")


def marked_findings(path):
    """{(rule, lineno)} of the markers in the file at `path` (a module's __file__)."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    return {(match.group(1), number) for number, line in enumerate(lines, 1) if (match := _MARKER.search(line))}
