"""The step interpreter shared by record, prepare and run: the door to the browser (``guard``: catalogue tools
filtered by side-effect class), finding a step's element by meaning (``resolve``), page moves (``pages``), how a
step acts and how a dialog it opens is answered (``acting``), and the one walk of a step — resolve, act, read back,
check, record — whose phase decides what each of those means (``interpreter``)."""
