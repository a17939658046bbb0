"""numbering."""
