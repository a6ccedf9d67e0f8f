"""Claim checks shared by the answer stage (live verification) and the evaluation (metrics).

Below both: `answer/verify.py` and `evaluate/metrics` import from here, and nothing here imports `answer`,
`evaluate` or `retrieve` (tests/test_import_layers.py keeps it so).
- `claims.py`: answer → atomic claims (Kiwi clause split, or an LLM's decomposition)
- `support.py`: the learned support checker (does a context support a claim?) and its entity grounding
- `similarity.py`: the embedder the checks use, a text-keyed vector cache, calibrated cosine
- `judge.py`: the LLM judge (claim verdicts and rubric scores)
"""
