"""The dashboard's pages, one module per group, each with its register(pages); dashboard/api.py
declares them in order."""
