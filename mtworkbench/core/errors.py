"""Errors that carry a message meant for the user."""


class DataError(ValueError):
    """Input data is malformed: the message names the file, line or field and what was expected."""


class BundleError(DataError):
    """A project bundle cannot be loaded; ``path`` is the JSON path of the problem."""

    def __init__(self, message: str, path: str = "$", file: str | None = None):
        self.json_path = path
        self.file = file
        where = f"{file}: " if file else ""
        super().__init__(f"{where}{path}: {message}")
