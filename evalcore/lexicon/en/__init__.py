"""English phrases, one module per kind of text read (see `evalcore.lexicon`)."""
