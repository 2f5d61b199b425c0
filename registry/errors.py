"""The registry's error hierarchy.

Every error a person can act on derives from RegistryError; the CLI prints its message on
one line and exits non-zero, never with a traceback.
"""


class RegistryError(Exception):
    """An error whose message tells a person what was wrong and what to do."""

    exit_code = 1


class ConfigurationError(RegistryError):
    """Bad settings: a malformed database URL, missing PostgreSQL binaries, …"""

    exit_code = 2


class DatabaseUnavailable(RegistryError):
    """The database cannot be reached."""

    exit_code = 3


class NotFound(RegistryError):
    """A tenant, project, conversation or agent named by the caller does not exist."""

    exit_code = 4


def first_line(error: BaseException) -> str:
    """The first non-empty line of an error's message: drivers add hints on later lines."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    return lines[0] if lines else type(error).__name__
