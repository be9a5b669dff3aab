"""Routes of this capability (to be written)."""


def register(api) -> None:
    pass
