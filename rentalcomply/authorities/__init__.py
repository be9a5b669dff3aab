"""One folder per authority: its format, its connector, what it owes."""
