"""The tool catalogue: every verb browserops can perform on a page."""
