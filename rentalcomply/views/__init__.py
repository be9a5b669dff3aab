"""Views that combine capabilities, assembled above their services: what the API, the
dashboard and the command line show."""
