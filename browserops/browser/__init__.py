"""The only layer that imports Playwright."""
