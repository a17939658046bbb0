"""``record``: a person does the task by hand and browserops writes the step file. It watches rather than acts, so it
shares with the other phases what reads a page — listing, naming an element by meaning, reading a field's value —
not the act."""
