"""Errors that carry a message meant for the user."""

import re

# Control characters (line breaks above all) in a quoted key or file name would split a
# one-line message, or move the cursor of a terminal: they are shown escaped instead.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def _escape_controls(text: str) -> str:
    return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


# A message quotes what it refuses; data of a megabyte must not make a megabyte-long line.
MAX_MESSAGE = 2000


class DataError(ValueError):
    """Input data is malformed: the message names the file, line or field and what was expected."""

    def __str__(self) -> str:
        # A message may quote what was refused (a lone surrogate, an undecodable file name);
        # escape it so that printing the message can never fail in turn.
        text = super().__str__().encode("utf-8", "backslashreplace").decode("utf-8")
        if len(text) > MAX_MESSAGE:
            text = f"{text[:MAX_MESSAGE]}…({len(text) - MAX_MESSAGE} more characters)"
        return text


class BundleError(DataError):
    """A project bundle cannot be loaded; ``path`` is the JSON path of the problem."""

    def __init__(self, message: str, path: str = "$", file: str | None = None):
        self.json_path = path
        self.file = file
        where = f"{file}: " if file else ""
        # The path names keys of the data, which may hold any character (a key "\n").
        super().__init__(f"{_escape_controls(where + path)}: {message}")


class BundleChangedOnDisk(DataError):
    """A save found the bundle on disk changed since it was loaded; nothing was written."""

    def __init__(self, file: str, expected: str | None, actual: str | None):
        self.file = file
        self.expected = expected
        self.actual = actual
        now = "was deleted" if actual is None else "was changed by another program or command"
        super().__init__(
            f"{file}: {now} since it was loaded; not overwritten "
            "(reload it, save under another name, or merge)"
        )


class BundleLocked(DataError):
    """Another writer holds a bundle's lock longer than we waited; ``holder`` says who (may be empty)."""

    def __init__(self, file: str, holder: str, waited: float):
        self.file = file
        self.holder = holder
        self.waited = waited
        who = f" by {holder}" if holder else " by another writer"
        super().__init__(
            f"{file}: is being written{who}; gave up after waiting {waited:g} s - try again when it has finished"
        )
