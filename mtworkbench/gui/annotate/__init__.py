"""Pieces of the Annotate workspace: the entity text view, the side list of
entities, the find bar, the comparison/adjudication view, the entity-type
settings dialog and the undo commands they push."""
