"""The filing engine: anything owed to an authority by a deadline."""
