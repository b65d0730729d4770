"""The twin's errors: each carries the one line the CLI prints and its exit status."""


class TwinInputError(Exception):
    """Bad input (arguments, text, bundle): exit 2."""

    exit_code = 2


class CaptureRefused(Exception):
    """CUDA refused to capture the decode step (e.g. a data-dependent shape inside it): exit 2."""

    exit_code = 2
