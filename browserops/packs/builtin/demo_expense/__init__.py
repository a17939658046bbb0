"""Domain pack: file an expense on the demo site (see pack.py)."""
