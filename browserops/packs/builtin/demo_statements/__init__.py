"""Domain pack: export statements from the demo site as CSV (see pack.py)."""
