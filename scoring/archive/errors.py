"""Why an archive is refused: a message in the reader's language."""


class ArchiveError(ValueError):
    """The archive cannot be imported (its words say why); nothing was written."""
