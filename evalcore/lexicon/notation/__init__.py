"""Notation casegen reads, one module per kind of text: not a language but the shapes of
formats (Mantle references and blocks, condition syntax, date masks, YAML literals, Python
source, markdown fences, prompt files, secrets, file names, agent commands); see
`evalcore.lexicon`. Phrases are named `notation.<module>.<what>`.
"""
