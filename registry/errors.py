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


class InvalidInput(RegistryError):
    """Input the registry cannot store as given: names the field and the rule."""


class SlugTaken(RegistryError):
    """Another row already uses this slug in the same layer (or tenant)."""


class StaleVersion(RegistryError):
    """The agent changed since the caller read it: re-read, re-apply, retry."""

    def __init__(self, message: str, current_version: int | None) -> None:
        super().__init__(message)
        self.current_version = current_version


class NotAllowed(RegistryError):
    """Row-level security refused a write: the row is not this tenant's to write."""


class NotInherited(RegistryError):
    """An opt-out named an agent the project does not inherit."""
