"""``run``: the executing phase of the step interpreter (act after ``--confirm``, check the page has not changed
since prepare, wait until each change is saved, screenshots before and after), and the attempt around it (the lane,
the bundle, the browser)."""
