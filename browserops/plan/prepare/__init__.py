"""``prepare``: the rehearsal phase of the step interpreter (act in a fenced copy of the browser, never submit; what
cannot be seen as the run will is "not read"), what the walk found, and the plan it writes."""
