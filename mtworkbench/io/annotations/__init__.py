"""Entity annotations read and written: the bundle's spans, brat, CoNLL, MUC and JSON Lines."""
